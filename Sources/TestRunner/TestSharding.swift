import RippleCore

/// `ripple test --shard I/N`: the part of a selection one CI job runs.
///
/// Delegates to RippleCore's `ShardPlanner` with the ids `ripple affected --format matrix` uses
/// (`package:Target`), so the matrix a CI workflow is given and the shards its jobs run always agree.
public enum TestSharding {
  /// The units of every shard, index 0 for shard 1; exactly `shards` buckets, some possibly empty.
  public static func assign(_ units: [TestUnit], shards: Int, history: TimingHistory) -> [[TestUnit]] {
    let count = max(1, shards)
    let byID = Dictionary(units.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var weights: [String: Double] = [:]
    for (id, unit) in byID { weights[id] = history.duration(of: unit) }
    var buckets = ShardPlanner.plan(items: Array(byID.keys), weights: weights, shards: count)
      .map { $0.items.compactMap { byID[$0] }.sorted() }
    buckets += Array(repeating: [], count: count - buckets.count)
    return buckets
  }

  /// The part of `selection` that shard `shard` runs.
  public static func select(_ selection: TestSelection, shard: Shard, history: TimingHistory) -> TestSelection {
    let mine = Set(assign(selection.units, shards: shard.count, history: history)[shard.index - 1])
    let packages = selection.packages.compactMap { package -> PackageSelection? in
      if package.runAll {
        return mine.contains(TestUnit(package: package.path, target: nil)) ? package : nil
      }
      let targets = package.testTargets.filter { mine.contains(TestUnit(package: package.path, target: $0)) }
      return targets.isEmpty ? nil : PackageSelection(path: package.path, testTargets: targets, run: package.run)
    }
    return TestSelection(packages: packages)
  }
}

extension TestUnit {
  /// `package:Target`, or `package:*` for a whole package: the id shared with the CI matrix.
  public var id: String { "\(package):\(target ?? "*")" }
}
