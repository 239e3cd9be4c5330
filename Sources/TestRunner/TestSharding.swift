import RippleCore

/// `ripple test --shard I/N`: the part of a selection one CI job runs.
///
/// Delegates to RippleCore's `SuiteShardPlanner` with the ids `ripple affected --format matrix` uses
/// (`package:Target`, `package:Target/Suite`, `package:Target/-Suite`, `package:Target/Suite/test()`), so the
/// matrix a CI workflow is given and the shards its jobs run always agree. A target longer than a shard's fair
/// share is split by its recorded suites, and a suite over half a share by its recorded tests; the targets of
/// an xcodebuild run are never split (it has no suite filter here).
public enum TestSharding {
  /// The entries of every shard, index 0 for shard 1; exactly `shards` lists, some possibly empty.
  public static func plan(_ selection: TestSelection, shards: Int, history: TimingHistory) -> [[ShardEntry]] {
    let count = max(1, shards)
    let unsplittable = Set(
      selection.packages.filter { $0.run?.xcodebuild != nil }.flatMap { package in
        package.testTargets.map { TestUnit(package: package.path, target: $0).id }
      })
    let units = selection.units.map { unit in
      SuiteShardPlanner.Unit(
        package: unit.package, target: unit.target ?? "*", seconds: history.duration(of: unit),
        suites: unsplittable.contains(unit.id) ? [:] : history.suiteDurations(of: unit),
        tests: unsplittable.contains(unit.id) ? [:] : history.testDurations(of: unit))
    }
    var lists = SuiteShardPlanner.plan(units, shards: count).map(\.entries)
    lists += Array(repeating: [], count: count - lists.count)
    return lists
  }

  /// The part of `selection` that shard `shard` runs.
  public static func select(_ selection: TestSelection, shard: Shard, history: TimingHistory) -> TestSelection {
    select(selection, entries: plan(selection, shards: shard.count, history: history)[shard.index - 1])
  }

  /// The part of `selection` these entries of a plan name (`ShardPlan`).
  public static func select(_ selection: TestSelection, entries mine: [ShardEntry]) -> TestSelection {
    guard !mine.isEmpty else { return TestSelection(packages: []) }
    // The planner's own ids are well-formed and never name a target in two ways.
    return (try? selection.restricted(to: mine.map(\.description)).selection) ?? TestSelection(packages: [])
  }
}

extension TestUnit {
  /// `package:Target`, or `package:*` for a whole package: the id shared with the CI matrix.
  public var id: String { "\(package):\(target ?? "*")" }
}

extension TestSelection {
  /// The targets that run only in part, keyed by `package:Target`: what the timing history records from a
  /// shard (`TimingHistory.record(_:scopes:)`).
  public var suiteScopes: [String: SuiteScope] {
    var out: [String: SuiteScope] = [:]
    for package in packages {
      for (target, scope) in package.suites { out[TestUnit(package: package.path, target: target).id] = scope }
    }
    return out
  }
}
