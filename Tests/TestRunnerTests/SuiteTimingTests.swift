import Foundation
import RippleCore
import Testing

@testable import TestRunner

/// Timings per suite in the timing history, next to the per-target ones.
@Suite struct SuiteTimingTests {
  static func test(_ suite: String, _ name: String, _ seconds: Double, _ framework: TestFramework = .xctest)
    -> TestCaseResult
  {
    TestCaseResult(suite: suite, name: name, framework: framework, status: .passed, duration: seconds)
  }

  static func result(_ targets: [TargetResult], status: PackageResult.Status = .passed) -> TestRunResult {
    TestRunResult(packages: [PackageResult(path: ".", status: status, targets: targets)])
  }

  @Test func suitesGetTheirShareOfTheTargetsWallTime() {
    // Swift Testing in parallel: 4 s of tests in 2 s of wall time; nested suites count for their top level.
    let target = TargetResult(
      name: "ST",
      tests: [
        Self.test("Outer", "a()", 1, .swiftTesting), Self.test("Outer.Inner", "b()", 1, .swiftTesting),
        Self.test("Other", "c()", 1.5, .swiftTesting), Self.test("", "free()", 0.5, .swiftTesting),
      ], duration: 2)
    #expect(TimingHistory.suiteTimes(target) == ["Outer": 1, "Other": 0.75])
  }

  @Test func aWholeRunReplacesTheSuitesAPartialRunUpdatesThem() {
    var history = TimingHistory()
    history.record(
      Self.result([
        TargetResult(name: "XT", tests: [Self.test("A", "t1", 2), Self.test("B", "t2", 1), Self.test("Old", "t", 1)])
      ]))
    #expect(history.duration(of: TestUnit(package: ".", target: "XT")) == 4)
    history.record(Self.result([TargetResult(name: "XT", tests: [Self.test("A", "t1", 3), Self.test("B", "t2", 1)])]))
    #expect(history.suiteDurations(of: TestUnit(package: ".", target: "XT")) == ["A": 3, "B": 1], "Old is gone")

    // A shard ran only suite B (1.5 s) and named Gone, which ran nothing: the total stays, B moves, Gone goes.
    history.suites["."]!["XT"]!["Gone"] = 9
    history.record(
      Self.result([TargetResult(name: "XT", tests: [Self.test("B", "t2", 1.5)])]),
      scopes: [".:XT": .only(["B", "Gone"])])
    #expect(history.duration(of: TestUnit(package: ".", target: "XT")) == 4)
    #expect(history.suiteDurations(of: TestUnit(package: ".", target: "XT")) == ["A": 3, "B": 1.5])

    // A shard whose only suite ran nothing (renamed since the plan): forgotten, total kept.
    history.record(Self.result([], status: .noTestsRan), scopes: [".:XT": .only(["A"])])
    #expect(history.suiteDurations(of: TestUnit(package: ".", target: "XT")) == ["B": 1.5])
  }

  @Test func historyFilesWithoutSuitesStillLoadAndSuitesRoundTrip() async throws {
    try await withTemporaryDirectory { directory in
      let path = directory + "/timings.json"
      try Data(#"{"schemaVersion": 1, "packages": {".": {"CoreTests": 1.25}}}"#.utf8).write(
        to: URL(fileURLWithPath: path))
      let store = TimingStore(path: path)
      var (history, warning) = store.load()
      #expect(warning == nil)
      #expect(history.duration(of: TestUnit(package: ".", target: "CoreTests")) == 1.25 && history.suites.isEmpty)
      history.suites["."] = ["CoreTests": ["MathTests": 1]]
      try store.save(history)
      #expect(store.load().history == history)
    }
  }
}
