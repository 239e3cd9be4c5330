import RippleCore
import Testing

@Suite struct SuiteShardPlannerTests {
  typealias Unit = SuiteShardPlanner.Unit

  @Test func aTargetUnderTheFairShareOrWithOneSuiteStaysWhole() {
    let units = [
      Unit(package: ".", target: "Big", seconds: 6, suites: ["OnlyOne": 6]),
      Unit(package: ".", target: "Small", seconds: 2, suites: ["A": 1, "B": 1]),
      Unit(package: ".", target: "Other", seconds: 4),
    ]
    let plan = SuiteShardPlanner.plan(units, shards: 2)
    #expect(plan.flatMap(\.entries).allSatisfy { $0.part == .whole })
    #expect(plan.map(\.load) == [6, 6])
  }

  @Test func aSuiteAbsentFromTheHistoryRunsWithTheRemainder() {
    // New suites are in none of the recorded names: only the remainder's `/-` entries can run them.
    let units = [
      Unit(package: ".", target: "T", seconds: 10, suites: ["A": 4, "B": 3, "C": 2]),
      Unit(package: ".", target: "U", seconds: 1),
    ]
    let plan = SuiteShardPlanner.plan(units, shards: 3)
    let remainder = plan.filter { $0.entries.contains { if case .allBut = $0.part { true } else { false } } }
    #expect(remainder.count == 1, "exactly one shard runs the remainder")
    let leftOut = Set(remainder[0].entries.compactMap { if case .allBut(let s) = $0.part { s } else { nil } })
    let namedElsewhere = Set(
      plan.filter { $0.index != remainder[0].index }.flatMap(\.entries).compactMap {
        if case .suite(let s) = $0.part { s } else { nil }
      })
    #expect(leftOut == namedElsewhere)
    #expect(plan.flatMap(\.entries).filter { $0.target == "T" && $0.part == .whole }.isEmpty)
  }

  @Test func aTargetWithOnlySuiteTimesWeighsTheirSum() {
    let units = [
      Unit(package: ".", target: "T", seconds: nil, suites: ["A": 3, "B": 3]),
      Unit(package: ".", target: "U", seconds: 1),
    ]
    let plan = SuiteShardPlanner.plan(units, shards: 2)
    #expect(plan.map(\.load).sorted() == [3, 4])
  }

  @Test func aWholePackageIsNeverSplit() {
    let units = [
      Unit(package: "P", target: "*", seconds: 10, suites: ["A": 5, "B": 5]),
      Unit(package: ".", target: "U", seconds: 1),
    ]
    #expect(SuiteShardPlanner.plan(units, shards: 2).flatMap(\.entries).map(\.description).sorted() == [".:U", "P:*"])
  }
}
