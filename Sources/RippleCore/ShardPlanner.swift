// One planner for `ripple affected --format matrix` and `ripple test --shard`, so both agree on which
// shard runs which test target.
/// Splits weighted items into balanced shards: longest processing time first (each item, heaviest first,
/// goes to the currently lightest shard). Deterministic: ties break on the item's id and the shard index.
public enum ShardPlanner {
  public struct Shard: Sendable, Hashable {
    /// 1-based.
    public var index: Int
    /// Item ids, sorted.
    public var items: [String]
    /// The sum of the items' weights.
    public var load: Double
  }

  /// `weights` maps item ids to their expected durations; an item without one weighs the median of the
  /// known weights of `items` (1 when none is known). Returns `min(shards, items.count)` shards, none empty;
  /// no shards for no items. Duplicate ids count once.
  public static func plan(items: [String], weights: [String: Double], shards: Int) -> [Shard] {
    let ids = Array(Set(items))
    guard !ids.isEmpty else { return [] }
    let fallback = median(ids.compactMap { weights[$0] }) ?? 1
    let weighted = ids.map { (id: $0, weight: weights[$0] ?? fallback) }
      .sorted { ($1.weight, $0.id) < ($0.weight, $1.id) }
    var plan = (1...min(max(shards, 1), ids.count)).map { Shard(index: $0, items: [], load: 0) }
    for item in weighted {
      let lightest = plan.indices.min { (plan[$0].load, $0) < (plan[$1].load, $1) }!
      plan[lightest].items.append(item.id)
      plan[lightest].load += item.weight
    }
    for index in plan.indices { plan[index].items.sort() }
    return plan
  }

  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }
}
