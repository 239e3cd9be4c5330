import Foundation
import RunModel
import Testing

@testable import RunStore

/// The history charts' aggregates (RunStoreHistory.swift) on a real SQLite file: UTC days and weeks, the range
/// ending with `now`, zero-filled gaps, and only runs that ran to the end with both suite times.
@Suite struct HistoryTests {
  static func date(_ text: String) throws -> Date {
    try #require(ISO8601DateFormatter().date(from: text), "\(text) is an ISO 8601 time")
  }

  /// A run finished at `finished` (the clock is moved there) whose analysis recorded the suite times.
  @discardableResult
  static func timedRun(
    _ store: RunStore, _ clock: TestClock, finished: String, state: RunState = .passed, repository: String = "app",
    full: Double?, selected: Double?, selectedTargets: Int = 2
  ) throws -> RunRecord {
    clock.advance(try date(finished).timeIntervalSince(clock.now))
    let run = try store.enqueue(NewRun(repository: repository, branch: "main", head: "c0ffee", trigger: .fetch))
    _ = try store.markRunning(run.id, logPath: nil)
    try store.recordAnalysis(
      run.id,
      RunAnalysis(
        base: nil, changedFiles: [], targets: [], edges: [], selectedTestTargets: selectedTargets,
        totalTestTargets: 5, fullSuiteSeconds: full, selectedSeconds: selected))
    return try store.finish(run.id, state: state, reason: nil)
  }

  @Test func periodsAreUTCDaysAndMondayWeeks() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let wednesday = try Self.date("2026-11-25T10:11:12Z")
    #expect(HistoryPeriod.day.start(of: wednesday) == (try Self.date("2026-11-25T00:00:00Z")))
    #expect(HistoryPeriod.week.start(of: wednesday) == (try Self.date("2026-11-23T00:00:00Z")))
    #expect(calendar.component(.weekday, from: HistoryPeriod.week.start(of: wednesday)) == 2)  // Monday
    // The boundaries belong to the period they start; the second before to the previous one.
    let monday = try Self.date("2026-11-23T00:00:00Z")
    #expect(HistoryPeriod.week.start(of: monday) == monday)
    #expect(HistoryPeriod.week.start(of: monday - 1) == (try Self.date("2026-11-16T00:00:00Z")))
    #expect(HistoryPeriod.day.start(of: monday - 1) == (try Self.date("2026-11-22T00:00:00Z")))
    // Before 1970-01-05 (a Thursday epoch): still Mondays.
    #expect(HistoryPeriod.week.start(of: Date(timeIntervalSince1970: 0)) == (try Self.date("1969-12-29T00:00:00Z")))
    let weeks = HistoryPeriod.week.starts(count: 3, endingAt: wednesday)
    #expect(weeks.map { DayText.text($0) } == ["2026-11-09", "2026-11-16", "2026-11-23"])
    #expect(HistoryPeriod.day.starts(count: 0, endingAt: wednesday).isEmpty)
  }

  /// A run of `trigger` started at `started` and finished `seconds` later.
  static func wallRun(
    _ store: RunStore, _ clock: TestClock, started: String, seconds: Double, trigger: RunTrigger = .fetch,
    state: RunState = .passed
  ) throws {
    clock.advance(try date(started).timeIntervalSince(clock.now))
    let run = try store.enqueue(NewRun(repository: "app", branch: "main", head: "c0ffee", trigger: trigger))
    _ = try store.markRunning(run.id, logPath: nil)
    clock.advance(seconds)
    _ = try store.finish(run.id, state: state, reason: nil)
  }

  @Test func wallClockSavedIsMeasuredAgainstTheLastCanarysFullRun() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      #expect(try store.measuredFullSuite(repository: "app") == nil, "no canary yet: the dashboard estimates")
      try Self.wallRun(store, clock, started: "2026-11-23T01:00:00Z", seconds: 400, trigger: .canary)
      try Self.wallRun(store, clock, started: "2026-11-24T01:00:00Z", seconds: 300, trigger: .canary)
      // A canary that was cancelled measured nothing.
      try Self.wallRun(store, clock, started: "2026-11-24T03:00:00Z", seconds: 5, trigger: .canary, state: .cancelled)
      try Self.wallRun(store, clock, started: "2026-11-24T08:00:00Z", seconds: 60)
      try Self.wallRun(store, clock, started: "2026-11-24T09:00:00Z", seconds: 500, state: .failed)  // slower: 0
      try Self.wallRun(store, clock, started: "2026-11-24T10:00:00Z", seconds: 10, state: .error)  // not counted
      try Self.wallRun(store, clock, started: "2026-11-25T10:00:00Z", seconds: 100)
      let full = try #require(try store.measuredFullSuite(repository: "app"))
      #expect(full.seconds == 300)
      let days = try store.wallSavedSecondsByDay(
        repository: "app", days: 3, now: try Self.date("2026-11-25T12:00:00Z"), fullSuite: full.seconds)
      #expect(days.map(\.seconds) == [0, 240, 200])
      #expect(days.map(\.runs) == [0, 2, 1], "canaries are the measure, not savings")
    }
  }

  @Test func savedTimeIsSummedPerUTCDayOverTheLastDays() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      try Self.timedRun(store, clock, finished: "2026-10-26T23:59:59Z", full: 500, selected: 0)  // before the range
      try Self.timedRun(store, clock, finished: "2026-10-27T00:00:00Z", full: 40, selected: 10)  // its first day
      try Self.timedRun(store, clock, finished: "2026-11-24T08:00:00Z", full: 40, selected: 10)
      try Self.timedRun(store, clock, finished: "2026-11-24T09:00:00Z", state: .failed, full: 20, selected: 25)  // 0
      try Self.timedRun(store, clock, finished: "2026-11-24T10:00:00Z", state: .error, full: 90, selected: 0)
      try Self.timedRun(store, clock, finished: "2026-11-24T11:00:00Z", state: .cancelled, full: 90, selected: 0)
      try Self.timedRun(store, clock, finished: "2026-11-24T12:00:00Z", full: nil, selected: nil)  // not timed
      try Self.timedRun(store, clock, finished: "2026-11-24T13:00:00Z", full: 90, selected: nil)  // selection unknown
      try Self.timedRun(store, clock, finished: "2026-11-24T14:00:00Z", repository: "other", full: 90, selected: 0)
      try Self.timedRun(store, clock, finished: "2026-11-24T23:59:59Z", full: 7, selected: 2)
      try Self.timedRun(store, clock, finished: "2026-11-25T00:00:00Z", full: 50, selected: nil, selectedTargets: 0)
      try Self.timedRun(store, clock, finished: "2026-11-25T09:30:00Z", full: 100, selected: 30)

      let now = try Self.date("2026-11-25T10:00:00Z")
      let days = try store.savedSecondsByDay(repository: "app", days: 30, now: now)
      #expect(days.count == 30)
      #expect(days.first?.day == (try Self.date("2026-10-27T00:00:00Z")))
      #expect(days.last?.day == (try Self.date("2026-11-25T00:00:00Z")))
      #expect(days.first.map { [$0.seconds, Double($0.runs)] } == [30, 1])
      #expect(days[28].seconds == 35 && days[28].runs == 3)  // 2026-11-24: 30 + 0 (clamped) + 5
      #expect(days[29].seconds == 120 && days[29].runs == 2)  // today: 50 (nothing selected) + 70
      #expect(days[1..<28].allSatisfy { $0.seconds == 0 && $0.runs == 0 })
      #expect(try store.savedSecondsByDay(repository: "other", days: 2, now: now).map(\.seconds) == [90, 0])
      #expect(try store.savedSecondsByDay(repository: "none", days: 1, now: now).map(\.seconds) == [0])
      #expect(throws: RunStoreError.self) { try store.savedSecondsByDay(repository: "app", days: 0, now: now) }
    }
  }

  @Test func timedRunsAreTheLastFinishedOldestFirst() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      let first = try store.enqueue(newRun())
      let second = try store.enqueue(newRun())
      try Self.timedRun(store, clock, finished: "2026-11-20T10:00:00Z", full: nil, selected: nil)
      try Self.timedRun(store, clock, finished: "2026-11-20T11:00:00Z", state: .error, full: 9, selected: 1)
      try Self.timedRun(store, clock, finished: "2026-11-20T11:30:00Z", repository: "other", full: 9, selected: 1)
      try makeRun(store, in: .running)
      // Queued first, finished last: the order is by finish.
      for (run, time) in [(second, "2026-11-21T10:00:00Z"), (first, "2026-11-22T10:00:00Z")] {
        clock.advance(try Self.date(time).timeIntervalSince(clock.now))
        _ = try store.markRunning(run.id, logPath: nil)
        try store.recordAnalysis(
          run.id,
          RunAnalysis(
            base: nil, changedFiles: [], targets: [], edges: [], selectedTestTargets: 1, totalTestTargets: 2,
            fullSuiteSeconds: 60, selectedSeconds: 6))
        _ = try store.finish(run.id, state: .passed, reason: nil)
      }
      let last = try Self.timedRun(
        store, clock, finished: "2026-11-23T10:00:00Z", full: 8, selected: nil,
        selectedTargets: 0)

      #expect(try store.timedRuns(repository: "app", limit: 10).map(\.id) == [second.id, first.id, last.id])
      #expect(try store.timedRuns(repository: "app", limit: 2).map(\.id) == [first.id, last.id])
      let newest = try #require(try store.timedRuns(repository: "app", limit: 1).first)
      #expect(newest.fullSuiteSeconds == 8 && newest.selectedSeconds == nil && newest.selectedTestTargets == 0)
      #expect(try store.timedRuns(repository: "other", limit: 10).count == 1)
      #expect(try store.timedRuns(repository: "app", limit: 0).isEmpty)
    }
  }

  @Test func missesAreCountedPerUTCWeekOfTheirRepository() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      let selective = try makeRun(store, in: .passed)
      let elsewhere = try makeRun(store, in: .passed, repository: "other")
      let canary = try makeRun(store, in: .failed)
      func miss(_ target: String, _ run: RunRecord, _ found: String) throws -> SelectionMiss {
        SelectionMiss(
          canaryID: canary.id, target: target, runID: run.id, commit: run.head, foundAt: try Self.date(found))
      }
      try store.recordMisses([
        try miss("A", selective, "2026-09-27T12:00:00Z"),  // 9 weeks back: outside 8 weeks
        try miss("B", selective, "2026-10-05T00:00:00Z"),  // the first Monday of the range
        try miss("C", selective, "2026-11-02T09:00:00Z"),
        try miss("D", selective, "2026-11-08T09:00:00Z"),  // Sunday: the same week as C
        try miss("E", selective, "2026-11-22T23:59:59Z"),  // Sunday before this week
        try miss("F", selective, "2026-11-23T00:00:00Z"),  // this week's Monday
        try miss("G", selective, "2026-11-25T09:00:00Z"),
        try miss("H", elsewhere, "2026-11-25T09:00:00Z"),  // another repository's run
      ])

      let now = try Self.date("2026-11-25T10:00:00Z")
      let weeks = try store.missCountsByWeek(repository: "app", weeks: 8, now: now)
      #expect(
        weeks.map { DayText.text($0.weekStart) } == [
          "2026-10-05", "2026-10-12", "2026-10-19", "2026-10-26", "2026-11-02", "2026-11-09", "2026-11-16",
          "2026-11-23",
        ])
      #expect(weeks.map(\.count) == [1, 0, 0, 0, 2, 0, 1, 2])
      #expect(try store.missCountsByWeek(repository: "other", weeks: 1, now: now).map(\.count) == [1])
      #expect(try store.missCountsByWeek(repository: "none", weeks: 2, now: now).map(\.count) == [0, 0])
      #expect(throws: RunStoreError.self) { try store.missCountsByWeek(repository: "app", weeks: -1, now: now) }
    }
  }
}

/// "2026-11-23" (UTC), for readable expectations.
enum DayText {
  static func text(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    return formatter.string(from: date)
  }
}
