/// Splits a selection into shards of about equal duration: longest processing time first.
///
/// Units are taken longest first (ties: by package, then target name) and each goes to the shard with
/// the least total so far (ties: the lowest index). Units without history are estimated at the median
/// of known durations, or 1 second when nothing is known. Deterministic for the same inputs.
public enum ShardPlanner {
  /// The units of every shard, index 0 for shard 1.
  public static func assign(_ units: [TestUnit], shards: Int, history: TimingHistory) -> [[TestUnit]] {
    let count = max(1, shards)
    let unique = Array(Set(units)).sorted()
    let known = unique.compactMap { history.duration(of: $0) }
    let fallback = median(known) ?? 1
    let weighted = unique.map { ($0, history.duration(of: $0) ?? fallback) }
      .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    var buckets = Array(repeating: [TestUnit](), count: count)
    var loads = Array(repeating: 0.0, count: count)
    for (unit, weight) in weighted {
      var best = 0
      for i in 1..<count where loads[i] < loads[best] { best = i }
      buckets[best].append(unit)
      loads[best] += weight
    }
    return buckets.map { $0.sorted() }
  }

  /// The part of `selection` that shard `shard` runs.
  public static func select(_ selection: TestSelection, shard: Shard, history: TimingHistory) -> TestSelection {
    let mine = Set(assign(selection.units, shards: shard.count, history: history)[shard.index - 1])
    let packages = selection.packages.compactMap { package -> PackageSelection? in
      if package.runAll {
        return mine.contains(TestUnit(package: package.path, target: nil)) ? package : nil
      }
      let targets = package.testTargets.filter { mine.contains(TestUnit(package: package.path, target: $0)) }
      return targets.isEmpty ? nil : PackageSelection(path: package.path, testTargets: targets)
    }
    return TestSelection(packages: packages)
  }

  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }
}
