import PackageModel
import RippleCore

/// One CI job of a sharded test run: shard `shard` of `of`, the test targets it runs.
public struct ShardJob: Sendable, Hashable {
  /// 1-based.
  public var shard: Int
  /// The number of shards actually planned (never more than the test targets), the `N` of `--shard I/N`.
  public var of: Int
  /// Sorted by `package:Name`, as `ripple test --shard` sees them.
  public var targets: [AffectedReport.TestTargetEntry]

  /// The name of a unit that is a whole package (`package:*`).
  public static let wholePackage = "*"

  /// `ripple test --targets` of this job: `package:Name,…`, commas inside an id escaped (`TargetIDList`).
  public var ids: String {
    TargetIDList.join(targets.map { TargetRef(package: $0.package, name: $0.name).description })
  }
}

extension AffectedFormatter {
  /// The shards of `matrix`, `gitlab` and `buildkite`: the report's test targets balanced on `durations`
  /// (keyed by `package:Name` or by name, seconds) with `ShardPlanner` under the ids `ripple test --shard`
  /// uses (`package:Name`), so each job runs exactly its entry. No jobs when no test target is selected.
  /// `wholePackages`: packages whose manifest did not evaluate under `--fallback all`; each is one unit
  /// (`package:*`, every test of it) placed like a target.
  public static func shardJobs(
    _ report: AffectedReport, shards: Int, durations: [String: Double], wholePackages: [String] = []
  ) -> [ShardJob] {
    var byID: [String: AffectedReport.TestTargetEntry] = [:]
    var weights: [String: Double] = [:]
    // Xcode test bundles run under xcodebuild (`--format xcodebuild`), not in `ripple test` shards.
    let targets =
      AffectedFormatter.swiftTestTargets(report)
      + wholePackages.map {
        AffectedReport.TestTargetEntry(
          package: $0, name: ShardJob.wholePackage, reasons: ["its manifest was not evaluated: every test of it runs"])
      }
    for target in targets {
      let id = TargetRef(package: target.package, name: target.name).description
      if byID[id] == nil { byID[id] = target }
      weights[id] = durations[id] ?? durations[target.name]
    }
    let plan = ShardPlanner.plan(
      items: targets.map { TargetRef(package: $0.package, name: $0.name).description }, weights: weights,
      shards: shards)
    return plan.map { shard in
      ShardJob(shard: shard.index, of: plan.count, targets: shard.items.compactMap { byID[$0] })
    }
  }
}
