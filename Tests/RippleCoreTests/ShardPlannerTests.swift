import RippleCore
import Testing

@Suite("ShardPlanner")
struct ShardPlannerTests {
  private let weights: [String: Double] = ["a": 7, "b": 6, "c": 5, "d": 4, "e": 3, "f": 3, "g": 2, "h": 1, "i": 1]

  @Test(arguments: [1, 2, 3, 4])
  func shardsCoverEveryItemOnceAndAreBalanced(shards: Int) {
    let items = weights.keys.sorted()
    let plan = ShardPlanner.plan(items: items, weights: weights, shards: shards)
    #expect(plan.count == shards)
    #expect(plan.map(\.index) == Array(1...shards))
    let assigned = plan.flatMap(\.items)
    #expect(assigned.sorted() == items, "no gap, no overlap")
    #expect(plan.allSatisfy { $0.load == $0.items.reduce(0) { $0 + weights[$1]! } })
    let loads = plan.map(\.load)
    #expect(loads.max()! - loads.min()! <= weights.values.max()!, "LPT bound")
  }

  @Test func isDeterministicRegardlessOfInputOrder() {
    let forward = ShardPlanner.plan(items: weights.keys.sorted(), weights: weights, shards: 3)
    let backward = ShardPlanner.plan(items: weights.keys.sorted().reversed(), weights: weights, shards: 3)
    #expect(forward == backward)
  }

  @Test func missingWeightsUseTheMedianOfKnownOnes() {
    let plan = ShardPlanner.plan(items: ["a", "b", "c", "x"], weights: ["a": 1, "b": 5, "c": 9], shards: 2)
    #expect(plan.map(\.load).reduce(0, +) == 20)  // x weighs the median, 5
    let unknown = ShardPlanner.plan(items: ["x", "y", "z"], weights: [:], shards: 2)
    #expect(unknown.map(\.load) == [2, 1])
    #expect(unknown.map(\.items) == [["x", "z"], ["y"]])
  }

  @Test func noItemsNoShards() {
    #expect(ShardPlanner.plan(items: [], weights: [:], shards: 3).isEmpty)
    #expect(ShardPlanner.plan(items: ["a", "a"], weights: [:], shards: 3).count == 1)
  }
}
