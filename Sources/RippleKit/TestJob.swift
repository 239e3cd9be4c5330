import Affected
import Foundation
import PackageModel
import RippleCore
import TestRunner

/// Turns what `affected` selected into what `TestRunner` runs.
public enum TestSelectionBuilder {
  /// The affected test targets grouped by package. When the analysis had to give up on a package's
  /// graph (`--fallback all` with a manifest that does not evaluate), that package runs unfiltered, and
  /// so does every package whose own manifest did not evaluate.
  public static func make(_ outcome: AffectedOutcome) -> TestSelection {
    var byPackage: [String: [String]] = [:]
    // Xcode test targets run through xcodebuild (`ripple affected --format xcodebuild`), not `swift test`.
    for target in outcome.report.testTargets where !XcodeGraphs.isProject(target.package, in: outcome.headGraph) {
      byPackage[target.package, default: []].append(target.name)
    }
    var packages = byPackage.keys.sorted().map { PackageSelection(path: $0, testTargets: byPackage[$0]!.sorted()) }
    if outcome.report.runAll && outcome.headGraph == nil {
      let known = Set(byPackage.keys)
      let others = ((outcome.baseGraph?.packages ?? []).map(\.path) + outcome.unevaluatedPackages).filter {
        !XcodeGraphs.isProject($0, in: outcome.baseGraph)
      }
      packages += Set(others).subtracting(known).sorted().map {
        PackageSelection(path: $0, testTargets: [], runAll: true)
      }
    }
    return TestSelection(packages: packages)
  }

  /// `--all`: every package that has test targets, unfiltered (plain `swift test`).
  public static func everything(in graph: PackageGraph) -> TestSelection {
    TestSelection(
      packages: graph.packages.filter { $0.targets.contains { $0.kind.isTest } }.map {
        PackageSelection(path: $0.path, testTargets: [], runAll: true)
      })
  }
}

extension TimingHistory {
  /// Recorded seconds per `package:Target`, the keys `--format matrix` balances on.
  public var durationsByTarget: [String: Double] {
    var out: [String: Double] = [:]
    for (package, targets) in packages {
      for (target, seconds) in targets { out["\(package):\(target)"] = seconds }
    }
    return out
  }
}

extension TimingStore {
  /// `<repo>/.build/ripple/timings.json` unless configured: next to SwiftPM's own build output,
  /// ignored by git like the rest of `.build`.
  public static func defaultPath(repositoryRoot: String) -> String {
    repositoryRoot + "/.build/ripple/timings.json"
  }
}

/// `ripple test`: the selection, resolved into what the runner needs.
public struct TestJob: Sendable {
  public struct Settings: Sendable {
    public var shard: Shard?
    public var retryFailed: Int
    public var jobs: Int
    public var scratchPath: String?
    public var timingsPath: String?
    public var extraArguments: [String]

    public init(
      shard: Shard? = nil, retryFailed: Int = 0, jobs: Int = 1, scratchPath: String? = nil,
      timingsPath: String? = nil, extraArguments: [String] = []
    ) {
      self.shard = shard
      self.retryFailed = retryFailed
      self.jobs = jobs
      self.scratchPath = scratchPath
      self.timingsPath = timingsPath
      self.extraArguments = extraArguments
    }
  }

  public var selection: TestSelection
  public var options: TestRunOptions
  public var history: TimingHistory
  public var timingStore: TimingStore
  public var warnings: [String]
  /// Printed when nothing is selected: "no test target is affected by N changed files".
  public var nothingMessage: String

  /// Runs the affected analysis (or takes every test with `all`) and loads the timing history.
  public static func prepare(
    _ affected: AffectedOptions, all: Bool, services: RippleServices, settings: Settings
  ) async throws -> TestJob {
    let selection: TestSelection
    let root: String
    var warnings: [String] = []
    var nothingMessage = "no test target found"
    if all {
      let graph = try await GraphJob.load(
        directory: affected.directory, configPath: affected.configPath, services: services)
      root = graph.root
      selection = TestSelectionBuilder.everything(in: graph.graph)
    } else {
      let outcome = try await AffectedJob.run(affected, services: services)
      root = outcome.repositoryRoot
      selection = TestSelectionBuilder.make(outcome)
      warnings = outcome.report.warnings + [XcodeGraphs.notRunWarning(outcome)].compactMap { $0 }
      let count = outcome.report.changedFiles.count
      nothingMessage = "no test target is affected by \(count) changed file\(count == 1 ? "" : "s")"
    }
    let store = TimingStore(path: settings.timingsPath ?? TimingStore.defaultPath(repositoryRoot: root))
    let (history, warning) = store.load()
    if let warning { warnings.append(warning) }
    let options = TestRunOptions(
      repositoryRoot: root, extraArguments: settings.extraArguments, scratchPath: settings.scratchPath,
      jobs: settings.jobs, retryFailed: settings.retryFailed, shard: settings.shard,
      swiftExecutable: services.environment["RIPPLE_SWIFT"] ?? "swift")
    return TestJob(
      selection: selection, options: options, history: history, timingStore: store, warnings: warnings,
      nothingMessage: nothingMessage)
  }

  /// Adds this run's durations to the history (a failed write only costs shard balance).
  public func recordTimings(_ result: TestRunResult) throws {
    var updated = history
    updated.record(result)
    if updated != history { try timingStore.save(updated) }
  }
}
