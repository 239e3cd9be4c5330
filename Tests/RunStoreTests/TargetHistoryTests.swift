import Foundation
import RunModel
import Testing

@testable import RunStore

/// Migration v8: a target's runs, newest first, with how it did in each (the target's history page).
@Suite struct TargetHistoryTests {
  static func analysis(_ names: [String]) -> RunAnalysis {
    RunAnalysis(
      base: nil, changedFiles: [],
      targets: names.map {
        RunTarget(package: "Packages/Core", name: $0, kind: "test", isTest: true, reasons: ["changed a file"])
      }, edges: [], selectedTestTargets: names.count, totalTestTargets: 3)
  }

  @Test func listsTheTargetsRunsNewestFirstWithStatusDurationAndFailures() throws {
    try withStore { store, _ in
      var ids: [Int64] = []
      for index in 0..<4 {
        let run = try store.enqueue(newRun(head: "c\(index)"))
        ids.append(run.id)
        try store.recordAnalysis(run.id, Self.analysis(index == 2 ? ["OtherTests"] : ["CoreTests", "OtherTests"]))
        let failed = index == 1
        try store.recordResults(
          run.id,
          [
            TargetOutcome(
              package: "Packages/Core", name: "CoreTests", status: failed ? .failed : .passed,
              duration: Double(index) + 0.5, failures: failed ? ["CoreTests.S/t: boom"] : [])
          ], failedTests: failed ? 1 : 0)
      }
      _ = try store.enqueue(newRun(repository: "lib", head: "x"))
      let history = try store.targetHistory(repository: "app", package: "Packages/Core", name: "CoreTests")
      // Run 3 did not select CoreTests, yet reported a result for it: the store adds it, so it is listed too.
      #expect(history.map(\.run.id) == ids.reversed())
      #expect(history.map(\.target.status) == [.passed, .passed, .failed, .passed])
      #expect(history.map(\.target.duration) == [3.5, 2.5, 1.5, 0.5])
      #expect(history[2].target.failures == ["CoreTests.S/t: boom"])
      #expect(history[0].run.head == "c3")
      #expect(
        try store.targetHistory(repository: "app", package: "Packages/Core", name: "CoreTests", limit: 2).count == 2)
      #expect(try store.targetHistory(repository: "lib", package: "Packages/Core", name: "CoreTests").isEmpty)
      #expect(try store.targetHistory(repository: "app", package: ".", name: "CoreTests").isEmpty)
    }
  }
}

/// Migration v9: each run's build and test phases, recorded with its results.
@Suite struct RunPhaseTests {
  @Test func resultsCarryTheBuildAndTestTime() throws {
    try withStore { store, _ in
      let run = try store.enqueue(newRun())
      #expect(try store.run(run.id)?.buildSeconds == nil)
      try store.recordResults(run.id, [], failedTests: 0, buildSeconds: 41.5, testSeconds: 12)
      let recorded = try #require(try store.runs().first)
      #expect(recorded.buildSeconds == 41.5 && recorded.testSeconds == 12)
      // Results recorded again without times keep them.
      try store.recordResults(run.id, [], failedTests: 1)
      #expect(try store.run(run.id)?.buildSeconds == 41.5)
      #expect(try store.run(run.id)?.failedTests == 1)
    }
  }
}
