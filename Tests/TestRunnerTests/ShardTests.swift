import RippleConfig
import RippleCore
import TestSupport
import Testing

@testable import TestRunner

@Suite struct ShardTests {
  @Test(arguments: ["0/3", "4/3", "3/2", "x", "1/0", "1/", "/2", "1/2/3", "-1/2"])
  func invalidShardsAreUsageErrors(text: String) {
    #expect {
      try Shard(parsing: text)
    } throws: { error in
      guard let error = error as? TestRunnerError, case .invalidShard = error else { return false }
      return error.category == .usage && error.description.contains("I/N")
    }
  }

  @Test func parsesValidShards() throws {
    let shard = try Shard(parsing: "2/4")
    #expect(shard.index == 2 && shard.count == 4)
    #expect(shard.description == "2/4")
    #expect(try Shard(parsing: "1/1") == Shard(index: 1, count: 1))
  }

  /// The whole targets each shard runs (no target of these tests is split).
  static func targets(_ selection: TestSelection, shards: Int, history: TimingHistory) -> [[String]] {
    TestSharding.plan(selection, shards: shards, history: history).map { $0.map(\.target) }
  }

  @Test func longestFirstBalancesByRecordedDurations() {
    var history = TimingHistory()
    let names = ["A", "B", "C", "D", "E"]
    for (name, seconds) in zip(names, [10.0, 7, 5, 4, 3]) {
      history.record(seconds, for: TestUnit(package: ".", target: name))
    }
    let selection = TestSelection(packages: [PackageSelection(path: ".", testTargets: names)])
    // LPT: A(10)→1, B(7)→2, C(5)→2 (12), D(4)→1 (14), E(3)→2 (15).
    #expect(Self.targets(selection, shards: 2, history: history) == [["A", "D"], ["B", "C", "E"]])
  }

  @Test func unknownTargetsGetTheMedianAndTiesAreDeterministic() {
    var history = TimingHistory()
    history.record(1, for: TestUnit(package: ".", target: "A"))
    history.record(9, for: TestUnit(package: ".", target: "B"))
    history.record(5, for: TestUnit(package: ".", target: "C"))
    // D has no history: median 5, tied with C; C sorts first: B→1, C→2, D→3, then A→2 (lowest index
    // among the least loaded).
    let selection = TestSelection(packages: [PackageSelection(path: ".", testTargets: ["D", "C", "B", "A"])])
    #expect(Self.targets(selection, shards: 3, history: history) == [["B"], ["A", "C"], ["D"]])
    let reversed = TestSelection(packages: [PackageSelection(path: ".", testTargets: ["A", "B", "C", "D"])])
    #expect(Self.targets(reversed, shards: 3, history: history) == Self.targets(selection, shards: 3, history: history))
  }

  /// argument-parser's shape: one target holds most of the time, in suites of its own.
  static func bigTargetHistory() -> (TestSelection, TimingHistory) {
    var history = TimingHistory()
    let big = TestUnit(package: ".", target: "ExampleTests")
    history.record(8, for: big)
    history.suites["."] = ["ExampleTests": ["MathTests": 3, "RepeatTests": 2, "RollTests": 2, "ColorTests": 0.5]]
    history.record(2, for: TestUnit(package: ".", target: "UnitTests"))
    history.record(1, for: TestUnit(package: ".", target: "EndToEndTests"))
    history.suites["."]!["UnitTests"] = ["ParsingTests": 1, "HelpTests": 1]
    let selection = TestSelection(packages: [
      PackageSelection(path: ".", testTargets: ["EndToEndTests", "ExampleTests", "UnitTests"])
    ])
    return (selection, history)
  }

  @Test func aTargetOverTheFairShareIsSpreadBySuiteLongestFirst() throws {
    let (selection, history) = Self.bigTargetHistory()
    // 11 s over 3 shards: a fair share of 3.7 s. ExampleTests (8 s) is split into MathTests 3, RepeatTests 2,
    // RollTests 2, ColorTests 0.5 and its remainder 0.5; UnitTests (2 s) stays whole. Longest first:
    // Math→1, Repeat→2, Roll→3, UnitTests→2, EndToEnd→3, remainder→1, Color→3.
    let plan = TestSharding.plan(selection, shards: 3, history: history)
    #expect(
      plan.map { $0.map(\.description) } == [
        [".:ExampleTests/-ColorTests", ".:ExampleTests/-RepeatTests", ".:ExampleTests/-RollTests"],
        [".:ExampleTests/RepeatTests", ".:UnitTests"],
        [".:EndToEndTests", ".:ExampleTests/ColorTests", ".:ExampleTests/RollTests"],
      ])
    let units = selection.units.map {
      SuiteShardPlanner.Unit(
        package: $0.package, target: $0.target!, seconds: history.duration(of: $0),
        suites: history.suiteDurations(of: $0))
    }
    #expect(SuiteShardPlanner.plan(units, shards: 3).map(\.load) == [3.5, 4, 3.5])
    // Whole targets: ExampleTests alone is 8 s, 2.2x the mean.
    let whole = units.map { SuiteShardPlanner.Unit(package: $0.package, target: $0.target, seconds: $0.seconds) }
    #expect(SuiteShardPlanner.plan(whole, shards: 3).map(\.load).max() == 8)
  }

  @Test func aTargetWithoutSuiteHistoryRunsWhole() {
    var (selection, history) = Self.bigTargetHistory()
    history.suites["."]!["ExampleTests"] = nil
    let plan = TestSharding.plan(selection, shards: 3, history: history)
    #expect(plan.flatMap { $0 }.allSatisfy { $0.part == .whole })
    #expect(plan.flatMap { $0 }.filter { $0.target == "ExampleTests" }.count == 1)
    // One shard alone never splits anything.
    history.suites = Self.bigTargetHistory().1.suites
    #expect(
      TestSharding.plan(selection, shards: 1, history: history) == [
        selection.units.map { ShardEntry(package: ".", target: $0.target!) }
      ])
  }

  @Test func theTargetsOfAnXcodebuildRunAreNeverSplit() {
    var (selection, history) = Self.bigTargetHistory()
    let xcode = TestRunContext(name: "ios", xcodebuild: XcodebuildRunSpec(scheme: "App", destination: "generic"))
    selection.packages[0].run = xcode
    let plan = TestSharding.plan(selection, shards: 3, history: history)
    #expect(plan.flatMap { $0 }.allSatisfy { $0.part == .whole }, "xcodebuild steps take no suite filter")
    history.suites = [:]
    #expect(plan == TestSharding.plan(selection, shards: 3, history: history))
  }

  @Test func theShardsOfASplitTargetGetSuiteFilters() throws {
    let (selection, history) = Self.bigTargetHistory()
    var filters: [String] = []
    for index in 1...3 {
      let part = TestSharding.select(selection, shard: try Shard(index: index, count: 3), history: history)
      let step = try #require(
        TestPlan.make(selection: part, options: TestRunOptions(repositoryRoot: "/r"), xunitDirectory: "/x").packages
          .first)
      filters.append(try #require(step.filter))
    }
    let plan = TestSharding.plan(selection, shards: 3, history: history)
    for (entries, filter) in zip(plan, filters) {
      for entry in entries where entry.target == "ExampleTests" {
        switch entry.part {
        case .suite(let name): #expect(filter.contains("ExampleTests\\.(") && filter.contains(name))
        case .allBut(let name): #expect(filter.contains("ExampleTests\\.(?!(") && filter.contains(name))
        case .whole: Issue.record("ExampleTests is split")
        }
      }
    }
  }

  /// Every test of a target, named as `swift test` names them, in suites the history knows and ones it does not.
  static func testIDs(target: String, suites: [String]) -> [String] {
    suites.flatMap { ["\(target).\($0)/testOne", "\(target).\($0)/Nested/two()"] } + ["\(target).freeFunction()"]
  }

  @Test func everyTestRunsInExactlyOneShardForRandomInputs() throws {
    var rng = SplitMix64(seed: 42)
    for _ in 0..<150 {
      var history = TimingHistory()
      var packages: [PackageSelection] = []
      var tests: [String: [String]] = [:]  // package → test ids
      for p in 0..<Int.random(in: 1...3, using: &rng) {
        let runAll = Int.random(in: 0..<6, using: &rng) == 0
        let targets = (0..<Int.random(in: 0...5, using: &rng)).map { "T\(p)_\($0)" }
        for target in targets {
          let unit = TestUnit(package: "P\(p)", target: target)
          let suites = (0..<Int.random(in: 0...5, using: &rng)).map { "S\($0)" }
          // Some suites are recorded, some are new (a class added since), one may be gone (renamed).
          tests["P\(p)", default: []] += Self.testIDs(target: target, suites: suites)
          if Bool.random(using: &rng) { history.record(Double.random(in: 0.1...30, using: &rng), for: unit) }
          var recorded: [String: Double] = [:]
          for suite in suites + ["Gone"] where Bool.random(using: &rng) {
            recorded[suite] = Double.random(in: 0.05...10, using: &rng)
          }
          if !recorded.isEmpty { history.suites["P\(p)", default: [:]][target] = recorded }
        }
        packages.append(PackageSelection(path: "P\(p)", testTargets: targets, runAll: runAll))
      }
      let selection = TestSelection(packages: packages)
      let count = Int.random(in: 1...5, using: &rng)
      var ran: [String] = []
      for index in 1...count {
        let part = TestSharding.select(selection, shard: try Shard(index: index, count: count), history: history)
        let plan = TestPlan.make(selection: part, options: TestRunOptions(repositoryRoot: "/r"), xunitDirectory: "/x")
        for step in plan.packages {
          let all = tests["P" + step.package.dropFirst(), default: []]
          // The filter as `swift test` applies it: anchored, matched against each identifier.
          let regex = try step.filter.map { try Regex($0) }
          ran += all.filter { id in regex.map { (try? $0.prefixMatch(in: id)) != nil } ?? true }.map {
            "\(step.package) \($0)"
          }
        }
      }
      var expected: [String] = []
      for package in selection.packages {
        let all = tests[package.path, default: []]
        expected += all.filter { id in package.runAll || package.testTargets.contains { id.hasPrefix($0 + ".") } }
          .map { "\(package.path) \($0)" }
      }
      #expect(ran.count == Set(ran).count, "a test ran in two shards")
      #expect(Set(ran) == Set(expected), "a test was lost")
    }
  }
}
