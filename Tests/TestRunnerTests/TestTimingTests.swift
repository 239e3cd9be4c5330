import Foundation
import RippleCore
import Testing

@testable import TestRunner

/// Per-test times in the timing history: what spreads a long suite over shards (issue 41).
@Suite struct TestTimingTests {
  static func test(_ suite: String, _ name: String, _ seconds: Double) -> TestCaseResult {
    TestCaseResult(suite: suite, name: name, framework: .xctest, status: .passed, duration: seconds)
  }

  static func result(_ tests: [TestCaseResult], duration: Double? = nil) -> TestRunResult {
    TestRunResult(packages: [
      PackageResult(path: ".", status: .passed, targets: [TargetResult(name: "T", tests: tests, duration: duration)])
    ])
  }

  @Test func aWholeRunRecordsEveryTestAndReplacesTheOldOnes() {
    var history = TimingHistory()
    history.record(Self.result([Self.test("S", "a", 1), Self.test("S", "b", 2), Self.test("Old", "x", 1)]))
    history.record(Self.result([Self.test("S", "a", 1), Self.test("S", "b", 3)]))
    #expect(history.tests["."]?["T"] == ["S/a": 1, "S/b": 3])
    #expect(history.testDurations(of: TestUnit(package: ".", target: "T")) == ["S": ["S/a": 1, "S/b": 3]])
  }

  @Test func aShardOfSomeTestsOfASuiteUpdatesThoseTestsButNotTheSuitesTotal() {
    var history = TimingHistory()
    history.record(Self.result([Self.test("S", "a", 2), Self.test("S", "b", 2), Self.test("U", "c", 1)]))
    // This shard ran S/a alone (now 5 s) and named S/gone, which ran nothing.
    history.record(Self.result([Self.test("S", "a", 5)]), scopes: [".:T": .only(["S/a", "S/gone"])])
    #expect(history.suites["."]?["T"] == ["S": 4, "U": 1], "S ran in part: its total stays")
    #expect(history.tests["."]?["T"] == ["S/a": 5, "S/b": 2, "U/c": 1])
    // The remainder's shard: everything but S/a; S ran in part, U whole.
    history.record(Self.result([Self.test("S", "b", 3), Self.test("U", "c", 2)]), scopes: [".:T": .allBut(["S/a"])])
    #expect(history.suites["."]?["T"] == ["S": 4, "U": 2])
    #expect(history.tests["."]?["T"] == ["S/a": 5, "S/b": 3, "U/c": 2])
  }

  @Test func historyForTestsThatNoLongerExistDoesNotPlaceThemAnywhere() {
    // A recorded test that is gone still weighs in the plan, but only its suite or the remainder runs it: no
    // shard is given a filter that matches nothing else.
    let unit = SuiteShardPlanner.Unit(
      package: ".", target: "T", seconds: 10, suites: ["S": 8, "U": 2],
      tests: ["S": ["S/gone()": 4, "S/a()": 4]])
    let plan = SuiteShardPlanner.plan([unit], shards: 2)
    #expect(plan.count == 2)
    #expect(plan.allSatisfy { !$0.entries.isEmpty })
  }

  @Test func aSuiteWhoseTestsHaveNoTimesIsPlacedWhole() {
    let unit = SuiteShardPlanner.Unit(package: ".", target: "T", seconds: 10, suites: ["S": 8, "U": 2])
    let entries = SuiteShardPlanner.plan([unit], shards: 2).flatMap(\.entries)
    #expect(!entries.contains { $0.suite?.contains("/") == true })
    #expect(entries.contains { $0.suite == "S" })
  }
}
