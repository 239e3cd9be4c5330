import PackageModel
import RippleCore

/// One CI job of a sharded test run: shard `shard` of `of`, the test targets (or parts of them) it runs.
public struct ShardJob: Sendable, Hashable {
  /// 1-based.
  public var shard: Int
  /// The number of shards actually planned (never more than the pieces), the `N` of `--shard I/N`.
  public var of: Int
  /// The test targets it runs (whole or in part), sorted by `package:Name`, as `ripple test --shard` sees them.
  public var targets: [AffectedReport.TestTargetEntry]
  /// What it runs: `package:Name`, `package:Name/Suite`, `package:Name/-Suite` (`ShardEntry`), sorted.
  public var entries: [ShardEntry]

  /// The name of a unit that is a whole package (`package:*`).
  public static let wholePackage = "*"

  /// `ripple test --targets` of this job: the entries joined, commas inside an id escaped (`TargetIDList`).
  public var ids: String { TargetIDList.join(entries.map(\.description)) }

  /// The targets it runs only in part, keyed by `package:Name`.
  public var scopes: [String: SuiteScope] {
    var out: [String: SuiteScope] = [:]
    for (unit, named) in Dictionary(grouping: entries, by: \.unitID) {
      // The planner never names one target in two ways.
      if let scope = try? SuiteScope.of(named) { out[unit] = scope }
    }
    return out
  }

  /// The part of `target` this job runs: nil for all of it.
  public func scope(of target: AffectedReport.TestTargetEntry) -> SuiteScope? {
    scopes[TargetRef(package: target.package, name: target.name).description]
  }
}

extension AffectedFormatter {
  /// The shards of `matrix`, `gitlab` and `buildkite`: the report's test targets balanced on `durations`
  /// (keyed by `package:Name` or by name, seconds) with `SuiteShardPlanner` under the ids `ripple test
  /// --shard` uses (`package:Name`), so each job runs exactly its entry. A target longer than a shard's
  /// fair share with at least two suites in `suiteDurations` (keyed by `package:Name`, seconds per
  /// top-level suite) is spread by suite (`package:Name/Suite`, and `package:Name/-Suite` in the job that
  /// runs its remainder). No jobs when no test target is selected. `wholePackages`: packages whose manifest
  /// did not evaluate under `--fallback all`; each is one unit (`package:*`, every test of it) placed like
  /// a target. `testDurations` (keyed by `package:Name`, then top-level suite, then `Suite/test()`) spreads a
  /// split target's suite over half a share by test (`package:Name/Suite/test()`).
  public static func shardJobs(
    _ report: AffectedReport, shards: Int, durations: [String: Double],
    suiteDurations: [String: [String: Double]] = [:],
    wholePackages: [String] = [], testDurations: [String: [String: [String: Double]]] = [:]
  ) -> [ShardJob] {
    var byID: [String: AffectedReport.TestTargetEntry] = [:]
    var units: [SuiteShardPlanner.Unit] = []
    // Xcode test bundles run under xcodebuild (`--format xcodebuild`), not in `ripple test` shards.
    let targets =
      AffectedFormatter.swiftTestTargets(report)
      + wholePackages.map {
        AffectedReport.TestTargetEntry(
          package: $0, name: ShardJob.wholePackage, reasons: ["its manifest was not evaluated: every test of it runs"])
      }
    for target in targets {
      let id = TargetRef(package: target.package, name: target.name).description
      guard byID[id] == nil else { continue }
      byID[id] = target
      units.append(
        SuiteShardPlanner.Unit(
          package: target.package, target: target.name, seconds: durations[id] ?? durations[target.name],
          suites: suiteDurations[id] ?? [:], tests: testDurations[id] ?? [:]))
    }
    let plan = SuiteShardPlanner.plan(units, shards: shards)
    return plan.map { shard in
      let ids = Array(Set(shard.entries.map(\.unitID))).sorted()
      return ShardJob(shard: shard.index, of: plan.count, targets: ids.compactMap { byID[$0] }, entries: shard.entries)
    }
  }
}
