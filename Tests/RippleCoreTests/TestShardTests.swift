import Foundation
import RippleCore
import Testing

/// Shards below the suite (issue 41): a suite over half a shard's share is spread by test.
@Suite struct TestShardTests {
  typealias Unit = SuiteShardPlanner.Unit

  /// 520 tests in one target: `EndToEnd` (20 tests, 2 s each: 40 s, more than half of a 4-shard share) and 25
  /// suites of 20 short tests.
  static func bigTarget() -> (unit: Unit, tests: [String: Double]) {
    var suites: [String: Double] = [:]
    var tests: [String: [String: Double]] = [:]
    var all: [String: Double] = [:]
    for index in 0..<20 {
      let name = "EndToEnd/test\(index)()"
      tests["EndToEnd", default: [:]][name] = 2
      all[name] = 2
    }
    suites["EndToEnd"] = 40
    for suite in 0..<25 {
      let suiteName = "Suite\(suite)"
      for index in 0..<20 {
        let seconds = 0.05 + Double((suite * 7 + index * 3) % 10) / 100
        let name = "\(suiteName)/test\(index)"
        tests[suiteName, default: [:]][name] = seconds
        all[name] = seconds
      }
      suites[suiteName] = tests[suiteName]!.values.reduce(0, +)
    }
    let unit = Unit(
      package: ".", target: "AppTests", seconds: suites.values.reduce(0, +), suites: suites, tests: tests)
    return (unit, all)
  }

  /// Which shards' filters select `test` of `AppTests`, as `swift test --filter` would.
  static func shardsRunning(_ test: String, in plan: [SuiteShardPlanner.Shard]) throws -> [Int] {
    try plan.filter { shard in
      let entries = shard.entries.filter { $0.target == "AppTests" }
      guard !entries.isEmpty else { return false }
      let scope = try SuiteScope.of(entries)
      let pattern = SuiteFilter.pattern(targets: ["AppTests"], scopes: scope.map { ["AppTests": $0] } ?? [:])
      let regex = try NSRegularExpression(pattern: pattern)
      let identifier = "AppTests.\(test)"
      return regex.firstMatch(in: identifier, range: NSRange(identifier.startIndex..., in: identifier)) != nil
    }.map(\.index)
  }

  @Test func aSuiteOverHalfAShareIsSpreadByTestAndEveryTestRunsExactlyOnce() throws {
    let (unit, tests) = Self.bigTarget()
    let plan = SuiteShardPlanner.plan([unit], shards: 4)
    #expect(plan.count == 4)
    #expect(plan.flatMap(\.entries).contains { $0.suite?.hasPrefix("EndToEnd/") == true })
    // Recorded tests, and one added since (only the remainder can run it).
    for test in Array(tests.keys) + ["EndToEnd/testAddedLater()", "NewSuite/testNew"] {
      #expect(try Self.shardsRunning(test, in: plan).count == 1, "\(test)")
    }
    // Balance by the recorded times: every test placed once, the slowest shard near the mean.
    var load = [Int: Double]()
    for (test, seconds) in tests { load[try Self.shardsRunning(test, in: plan)[0], default: 0] += seconds }
    let mean = load.values.reduce(0, +) / 4
    #expect(load.values.max()! <= 1.25 * mean, "\(load)")
  }

  @Test func withoutTestTimesTheSameTargetStopsAtTheSuiteAndIsUnbalanced() throws {
    // The baseline the test-level split is for: the 40 s suite alone exceeds a 35 s share.
    var (unit, _) = Self.bigTarget()
    unit.tests = [:]
    let plan = SuiteShardPlanner.plan([unit], shards: 4)
    let mean = plan.map(\.load).reduce(0, +) / 4
    #expect(plan.map(\.load).max()! > 1.1 * mean)
  }

  @Test func aSuiteUnderHalfAShareOrWithOneTestIsNotSplit() {
    let units = [
      Unit(
        package: ".", target: "T", seconds: 12, suites: ["A": 5, "B": 5, "C": 2],
        tests: ["A": ["A/a1": 2.5, "A/a2": 2.5], "C": ["C/only": 2]]),
      Unit(package: ".", target: "U", seconds: 12),
    ]
    // Share: 12 per shard; A weighs 5, under half of it.
    let entries = SuiteShardPlanner.plan(units, shards: 2).flatMap(\.entries)
    #expect(!entries.contains { $0.suite?.contains("/") == true })
  }

  @Test func testEntriesReadBackAsTheyAreWritten() throws {
    for id in [
      "Packages/Core:CoreTests/MathTests/testAdd", "Packages/Core:CoreTests/-MathTests/testAdd",
      ".:AppTests/Outer.Inner/adds(x:y:)", ".:AppTests/-Outer/runs(with: \"a:b\")", "a:b:T/S/t()",
    ] {
      let entry = try ShardEntry(parsing: id)
      #expect(entry.description == id)
    }
    let entry = try ShardEntry(parsing: ".:AppTests/Outer.Inner/adds(x:y:)")
    #expect(entry.package == "." && entry.target == "AppTests" && entry.part == .suite("Outer.Inner/adds(x:y:)"))
    #expect(try ShardEntry(parsing: "a:b:T/S/t()").package == "a:b")
  }

  @Test(arguments: [
    (".:AppTests/MathTests/", "named after its suite"),
    (".:AppTests/Math-Tests/t", "not a suite name"),
    (".:AppTests/Outer..Inner/t", "not a suite name"),
    ("P:*/S/t", "has no suites"),
  ])
  func badTestEntriesAreUsageErrorsNamingThem(id: String, reason: String) {
    #expect {
      try ShardEntry(parsing: id)
    } throws: { error in
      guard let error = error as? ShardEntryError else { return false }
      return error.category == .usage && error.description.contains(reason) && error.description.contains(id)
    }
  }

  @Test func aFilterOfSuitesAndTestsMatchesExactlyThose() throws {
    let pattern = SuiteFilter.pattern(
      targets: ["T"], scopes: ["T": .only(["S", "U/t()", "V.W/x"])])
    let regex = try NSRegularExpression(pattern: pattern)
    func matches(_ text: String) -> Bool {
      regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
    #expect(matches("T.S/anything"))
    #expect(matches("T.U/t()") && matches("T.U/t()/File.swift:3:1"))
    #expect(matches("T.V.W/x"))
    #expect(!matches("T.U/t2()") && !matches("T.U/other()") && !matches("T.SX/a") && !matches("T.V.W/xy"))
    let rest = try NSRegularExpression(
      pattern: SuiteFilter.pattern(targets: ["T"], scopes: ["T": .allBut(["S", "U/t()"])]))
    func restMatches(_ text: String) -> Bool {
      rest.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
    #expect(!restMatches("T.S/a") && !restMatches("T.U/t()"))
    #expect(restMatches("T.U/other()") && restMatches("T.New/a") && restMatches("T.free()"))
  }

  @Test func moreShardsThanTestsGivesNoEmptyShard() {
    let units = [
      Unit(package: ".", target: "T", seconds: 4, suites: ["A": 4], tests: ["A": ["A/a": 2, "A/b": 2]])
    ]
    let plan = SuiteShardPlanner.plan(units, shards: 10)
    #expect(!plan.isEmpty && plan.allSatisfy { !$0.entries.isEmpty })
    #expect(plan.count <= 3)
  }
}
