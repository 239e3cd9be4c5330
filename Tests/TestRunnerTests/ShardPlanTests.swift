import Foundation
import RippleCore
import Testing

@testable import TestRunner

@Suite struct ShardPlanTests {
  static let selection = TestSelection(packages: [
    PackageSelection(path: ".", testTargets: ["ATests", "BTests", "CTests"])
  ])

  @Test func theSameInputsGiveTheSameIDAndAnotherVersionAnother() {
    let history = TimingHistory(packages: [".": ["ATests": 3, "BTests": 2, "CTests": 1]])
    let one = ShardPlan.make(Self.selection, count: 2, history: history, rippleVersion: "1.0.0")
    let again = ShardPlan.make(Self.selection, count: 2, history: history, rippleVersion: "1.0.0")
    let other = ShardPlan.make(Self.selection, count: 2, history: history, rippleVersion: "1.0.1")
    #expect(one.id == again.id && one.id.count == 16)
    #expect(one.id != other.id)
    #expect(one.shards == [[".:ATests"], [".:BTests", ".:CTests"]])
    #expect(one.splits(Self.selection, count: 2) && !one.splits(Self.selection, count: 3))
  }

  @Test func aShardWithAFixedPlanIgnoresTheHistory() throws {
    let plan = ShardPlan(
      rippleVersion: "1", count: 2, units: [".:ATests", ".:BTests", ".:CTests"],
      shards: [[".:CTests"], [".:ATests", ".:BTests"]])
    var options = TestRunOptions(repositoryRoot: "/r", shard: try Shard(parsing: "1/2"))
    options.shardPlan = plan
    let history = TimingHistory(packages: [".": ["ATests": 30, "BTests": 2, "CTests": 1]])
    let mine = TestRunner.effectiveSelection(Self.selection, options: options, history: history)
    #expect(mine.packages.map(\.testTargets) == [["CTests"]])
  }

  @Test func aNestedTestsRetryFilterMatchesSwiftTesting() throws {
    let filter = TestFilter.tests(["T.Outer.Inner/deep()", "T.free()"])
    #expect(filter == #"^(T\.Outer[./]Inner/deep\(\)|T\.free\(\))(/|$)"#)
    #expect(try Regex(filter).firstMatch(in: "T.Outer/Inner/deep()") != nil)
  }

  @Test func aRemaindersCommandSkipsWhatOtherShardsRun() {
    let selection = TestSelection(packages: [
      PackageSelection(path: ".", testTargets: ["T"], suites: ["T": .allBut(["S/a()", "U"])])
    ])
    let plan = TestPlan.make(selection: selection, options: TestRunOptions(repositoryRoot: "/r"), xunitDirectory: "/x")
    let arguments = plan.packages[0].test.arguments
    let skip = arguments.firstIndex(of: "--skip").map { arguments[$0 + 1] }
    #expect(skip == #"^(T\.(S/a\(\)(/|$)|U(/|\.|$)))"#)
  }
}

@Suite struct ShardCoverageTests {
  static let plan = ShardPlan(
    rippleVersion: "1", count: 3, units: [".:MixTests", ".:OtherTests"],
    shards: [
      [".:MixTests/Alpha/a1()", ".:OtherTests"], [".:MixTests/Alpha.Inner/deep()", ".:MixTests/Beta"],
      [".:MixTests/-Alpha.Inner/deep()", ".:MixTests/-Alpha/a1()", ".:MixTests/-Beta"],
    ])

  static func test(_ suite: String, _ name: String) -> TestCaseResult {
    TestCaseResult(suite: suite, name: name, framework: .swiftTesting, status: .passed)
  }

  static func report(_ index: Int, _ tests: [String: [TestCaseResult]], plan: ShardPlan = plan)
    -> ShardCoverage.Report
  {
    var result = TestRunResult(
      packages: [
        PackageResult(
          path: ".", status: .passed,
          targets: tests.sorted { $0.key < $1.key }.map { TargetResult(name: $0.key, tests: $0.value) })
      ], shard: try? Shard(index: index, count: 3))
    result.shardPlan = ShardPlanStamp(plan: plan, index: index)
    return .init(name: "shard\(index).json", result: result)
  }

  static let one = report(1, ["MixTests": [test("Alpha", "a1()")], "OtherTests": [test("O", "testO")]])
  static let two = report(2, ["MixTests": [test("Alpha.Inner", "deep()"), test("Beta", "b()")]])
  static let three = report(
    3, ["MixTests": [test("Alpha", "a2()"), test("Alpha", "param(x:)"), test("", "free()"), test("C", "testC")]])

  @Test func everyPlannedTestOnce() {
    let outcome = ShardCoverage.check([Self.one, Self.two, Self.three])
    #expect(outcome.problems == [])
    #expect(outcome.tests == 8)
    #expect(outcome.rendered.contains("8 tests in 3 shards of plan \(Self.plan.id)"))
  }

  @Test func aMissingShardIsNamedWithItsTests() {
    let outcome = ShardCoverage.check([Self.one, Self.three])
    #expect(outcome.problems.count == 1)
    #expect(outcome.problems[0].contains("shard 2/3 has no report"))
    #expect(outcome.problems[0].contains(".:MixTests/Alpha.Inner/deep()"))
  }

  @Test func aShardReportedTwiceRanItsTestsTwice() {
    let outcome = ShardCoverage.check([Self.one, Self.two, Self.two, Self.three])
    #expect(outcome.problems.contains { $0.contains("shard 2/3 has 2 reports") })
    #expect(outcome.problems.contains { $0.contains(".:MixTests/Beta/b() ran in 2 shards") })
  }

  @Test func aRemainderThatRanAPlacedTestIsCaught() {
    // What the look-ahead filter did: the remainder's shard ran Alpha whole, a1() with it.
    let three = Self.report(
      3, ["MixTests": [Self.test("Alpha", "a1()"), Self.test("Alpha", "a2()"), Self.test("", "free()")]])
    let problems = ShardCoverage.check([Self.one, Self.two, three]).problems
    #expect(
      problems.contains {
        $0.contains(".:MixTests/Alpha/a1() ran in shard 3/3 (shard3.json), whose plan does not name it")
      })
    #expect(problems.contains { $0.contains(".:MixTests/Alpha/a1() ran in 2 shards") })
  }

  @Test func aPlannedTestThatRanNowhereIsNamed() {
    let two = Self.report(2, ["MixTests": [Self.test("Beta", "b()")]])
    let problems = ShardCoverage.check([Self.one, two, Self.three]).problems
    #expect(problems == ["planned .:MixTests/Alpha.Inner/deep() (shard 2/3) ran no test"])
  }

  @Test func shardsOfDifferentRippleVersionsRanDifferentPlans() {
    let newer = ShardPlan(
      rippleVersion: "2", count: 3, units: Self.plan.units, shards: Self.plan.shards)
    let three = Self.report(3, ["MixTests": [Self.test("", "free()")]], plan: newer)
    let outcome = ShardCoverage.check([Self.one, Self.two, three])
    #expect(outcome.problems.count == 1)
    #expect(outcome.problems[0].contains("the shards ran different plans"))
    #expect(outcome.problems[0].contains("(ripple 2)") && outcome.problems[0].contains("(ripple 1)"))
  }

  @Test func aReportOfNoShardIsNamed() {
    let plain = ShardCoverage.Report(name: "plain.json", result: TestRunResult(packages: []))
    let problems = ShardCoverage.check([Self.one, Self.two, Self.three, plain]).problems
    #expect(problems.count == 1 && problems[0].hasPrefix("plain.json names no shard plan"))
  }
}
