import Foundation
import RunModel
import Testing

@testable import RunStore

/// Migration `testOutcomes`: each test's outcome per run, flake rates, the flaky counts per ISO week.
@Suite struct TestOutcomeTests {
  static func outcome(_ test: String, _ kind: TestOutcome.Kind, package: String = ".") -> TestOutcome {
    TestOutcome(package: package, test: test, kind: kind, failure: kind == .passed ? nil : "T.swift:3: \(test) broke")
  }

  /// A finished run of `repository` queued at the clock's time, with these outcomes.
  @discardableResult
  static func run(_ store: RunStore, _ outcomes: [TestOutcome], repository: String = "app") throws -> RunRecord {
    let run = try makeRun(store, in: .running, repository: repository)
    try store.recordTestOutcomes(run.id, outcomes)
    return try store.finish(run.id, state: .passed, reason: nil)
  }

  @Test func aRunListsItsFlakyQuarantinedAndFailedTests() throws {
    try withStore { store, _ in
      let run = try Self.run(
        store,
        [
          Self.outcome("CoreTests.A/testOk", .passed), Self.outcome("CoreTests.A/testFails", .failed),
          Self.outcome("CoreTests.A/testFlaky", .flaky), Self.outcome("CoreTests.A/testKnown", .quarantined),
        ])
      #expect(
        try store.testOutcomes(run: run.id).map(\.test) == [
          "CoreTests.A/testFlaky", "CoreTests.A/testKnown", "CoreTests.A/testFails",
        ])
      #expect(try store.testOutcomes(run: run.id).first?.failure == "T.swift:3: CoreTests.A/testFlaky broke")
      #expect(try store.flakyTestCount(run: run.id) == 1)
      // Recording again replaces.
      try store.recordTestOutcomes(run.id, [Self.outcome("CoreTests.A/testOk", .passed)])
      #expect(try store.testOutcomes(run: run.id).isEmpty)
      #expect(try store.flakyTestCount(run: run.id) == 0)
      #expect(throws: RunStoreError.unknownRun(999)) { try store.recordTestOutcomes(999, []) }
    }
  }

  @Test func flakeRateIsFlakyRunsOverRunsSinceTheDate() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      let start = clock.now
      try Self.run(store, [Self.outcome("T.a", .flaky), Self.outcome("T.b", .passed)])  // before the window
      clock.advance(86_400)
      let first = try Self.run(store, [Self.outcome("T.a", .flaky), Self.outcome("T.b", .flaky)])
      clock.advance(3_600)
      try Self.run(store, [Self.outcome("T.a", .passed), Self.outcome("T.b", .passed)])
      clock.advance(3_600)
      let last = try Self.run(store, [Self.outcome("T.a", .flaky), Self.outcome("T.b", .failed)])
      try Self.run(store, [Self.outcome("T.a", .flaky)], repository: "other")
      let flaky = try store.flakyTests(repository: "app", since: start + 60)
      #expect(flaky.map(\.test) == ["T.a", "T.b"], "2 of 3 before 1 of 3")
      #expect(flaky.map(\.runs) == [3, 3])
      #expect(flaky.map(\.flakyRuns) == [2, 1])
      #expect(flaky[0].firstSeen == first.queuedAt && flaky[0].lastSeen == last.queuedAt)
      #expect(flaky[0].lastRun == last.id && flaky[0].lastFailure == "T.swift:3: T.a broke")
      #expect(flaky[1].lastRun == first.id)
      #expect(try store.flakyTests(repository: "app", since: start - 1).first?.runs == 4)
      #expect(try store.flakyTests(repository: "app", since: clock.now + 1).isEmpty)
      #expect(try store.flakyTests(repository: "app", since: start, limit: 1).count == 1)
      // Outcomes go with their run.
      try store.execute(sql: "DELETE FROM runs WHERE repository = 'other'")
      #expect(try store.strings(sql: "SELECT COUNT(*) FROM testOutcomes") == [["8"]])
    }
  }

  @Test func distinctFlakyTestsPerISOWeekOldestFirstWithEmptyWeeks() throws {
    // Wednesday 2026-11-25 12:00 UTC; its ISO week starts Monday 2026-11-23.
    let now = Date(timeIntervalSince1970: 1_795_608_000)
    let monday = Date(timeIntervalSince1970: 1_795_392_000)
    let clock = TestClock(monday.addingTimeInterval(-14 * 86_400 + 60))  // two weeks back, just after Monday 00:00
    try withStore(clock: clock) { store, _ in
      try Self.run(store, [Self.outcome("T.a", .flaky), Self.outcome("T.b", .flaky)])
      try Self.run(store, [Self.outcome("T.a", .flaky), Self.outcome("T.c", .quarantined)])
      clock.advance(14 * 86_400)  // this week
      try Self.run(store, [Self.outcome("T.a", .flaky), Self.outcome("T.b", .passed)])
      try Self.run(store, [Self.outcome("T.z", .flaky)], repository: "other")
      let weeks = try store.flakyTestCountsByWeek(repository: "app", weeks: 4, now: now)
      #expect(weeks.map(\.weekStart) == (0..<4).map { monday.addingTimeInterval(Double($0 - 3) * 7 * 86_400) })
      #expect(weeks.map(\.count) == [0, 2, 0, 1])
      #expect(try store.flakyTestCountsByWeek(repository: "none", weeks: 2, now: now).map(\.count) == [0, 0])
      #expect(throws: RunStoreError.self) { try store.flakyTestCountsByWeek(repository: "app", weeks: 0, now: now) }
    }
  }
}
