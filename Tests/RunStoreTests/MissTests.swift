import Foundation
import RunModel
import Testing

@testable import RunStore

/// Schema v4: canaries (trigger `canary`), the window the miss rule reads, and the recorded misses.
@Suite struct MissTests {
  /// A finished run of `main` at `head` whose analysis selected `tests` (test targets), failing `failing`.
  @discardableResult
  static func run(
    _ store: RunStore, head: String, trigger: RunTrigger = .fetch, state: RunState, tests: [String],
    failing: Set<String> = []
  ) throws -> RunRecord {
    let run = try store.enqueue(NewRun(repository: "app", branch: "main", head: head, trigger: trigger))
    _ = try store.markRunning(run.id, logPath: nil)
    let targets = tests.map { RunTarget(package: ".", name: $0, kind: "test", isTest: true, reasons: ["r"]) }
    try store.recordAnalysis(
      run.id,
      RunAnalysis(
        base: nil, changedFiles: [], targets: targets, edges: [], selectedTestTargets: tests.count,
        totalTestTargets: 3))
    try store.recordResults(
      run.id,
      tests.map { TargetOutcome(package: ".", name: $0, status: failing.contains($0) ? .failed : .passed) },
      failedTests: failing.count)
    return try store.finish(run.id, state: state, reason: nil)
  }

  @Test func theWindowRunsFromThePreviousCanaryAndMissesRoundTrip() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      try Self.run(store, head: "c1", state: .passed, tests: ["ATests"])  // before the first canary
      try Self.run(store, head: "c2", trigger: .canary, state: .passed, tests: ["ATests", "BTests", "CTests"])
      let selective = try Self.run(store, head: "c3", state: .passed, tests: ["ATests"])
      try Self.run(store, head: "c4", state: .error, tests: [])  // not passed or failed: outside the window
      let canary = try Self.run(
        store, head: "c5", trigger: .canary, state: .failed, tests: ["ATests", "BTests", "CTests"],
        failing: ["BTests"])
      #expect(try store.lastCanary(repository: "app", branch: "main")?.id == canary.id)
      #expect(try store.lastCanary(repository: "app", branch: "dev") == nil)

      let inputs = try store.missInputs(canary: canary)
      #expect(inputs.failing == [".:BTests"])
      #expect(inputs.window.map(\.run.id) == [selective.id])
      #expect(inputs.window.first?.ranTestTargets == [".:ATests"])

      let found = MissRule.misses(
        canary: canary, failing: inputs.failing, window: inputs.window, isAncestorOrEqual: { _ in true })
      #expect(found.map(\.runID) == [selective.id])
      try store.recordMisses(found)
      try store.recordMisses(found)  // a second recording changes nothing
      #expect(try store.misses() == found)
      #expect(try store.misses(run: selective.id) == found)
      #expect(try store.misses(run: canary.id) == found)
      #expect(try store.misses(run: 1).isEmpty)
      clock.advance(3600)
      #expect(try store.misses(since: clock.now).isEmpty)
      #expect(try store.misses(since: clock.now.addingTimeInterval(-7200)).count == 1)
    }
  }
}
