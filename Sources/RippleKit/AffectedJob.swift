import Affected
import ConfigLoading
import Foundation
import Git
import PackageLoading
import PackageModel
import RippleConfig
import RippleCore
import SystemClients

/// What `ripple affected` (and later `ripple test`) is asked.
public struct AffectedOptions: Sendable {
  /// `-C DIR`: where to look for the repository (any subdirectory of it).
  public var directory: String
  public var changes: ChangeRequest
  public var directOnly: Bool
  /// `--fallback all`: when something cannot be known (a manifest fails to evaluate), select every test
  /// instead of failing. Never "0 tests" because something went wrong.
  public var fallbackAll: Bool
  public var configPath: String?

  public init(
    directory: String, changes: ChangeRequest = .init(), directOnly: Bool = false, fallbackAll: Bool = false,
    configPath: String? = nil
  ) {
    self.directory = directory
    self.changes = changes
    self.directOnly = directOnly
    self.fallbackAll = fallbackAll
    self.configPath = configPath
  }
}

/// Everything one analysis produced: the report for output, and the graphs for `graph`/`--explain`.
public struct AffectedOutcome: Sendable {
  public var repositoryRoot: String
  public var configuration: RippleConfiguration
  public var changeSet: ChangeSet
  public var baseGraph: PackageGraph?
  public var headGraph: PackageGraph?
  /// Packages whose manifest did not evaluate on a side (`--fallback all`): they run unfiltered.
  public var unevaluatedPackages: [String] = []
  public var result: AffectedResult
  public var report: AffectedReport
}

/// The side effects an analysis needs, injected at the executable's wiring point.
public struct RippleServices: Sendable {
  public var process: ProcessClient
  public var environment: [String: String]

  /// Told (evaluated, total) while manifests are evaluated (`GraphLoader.progress`).
  public var evaluationProgress: (@Sendable (Int, Int) -> Void)?

  public init(
    process: ProcessClient, environment: [String: String], evaluationProgress: (@Sendable (Int, Int) -> Void)? = nil
  ) {
    self.process = process
    self.environment = environment
    self.evaluationProgress = evaluationProgress
  }

  public static var live: RippleServices {
    RippleServices(
      process: .live, environment: ProcessInfo.processInfo.environment,
      evaluationProgress: EvaluationProgress.terminal())
  }

  /// The manifest cache shared by every run on this machine (`RIPPLE_CACHE_DIR` overrides it).
  public var manifestCache: ManifestCache {
    if let dir = environment["RIPPLE_CACHE_DIR"], !dir.isEmpty {
      return ManifestCache(directory: dir + "/manifests")
    }
    return ManifestCache(directory: ManifestCache.defaultDirectory(environment: environment))
  }

  public var graphLoader: GraphLoader {
    GraphLoader(
      process: process, cache: manifestCache, swiftExecutable: environment["RIPPLE_SWIFT"] ?? "swift",
      progress: evaluationProgress)
  }
}

public enum AffectedJob {
  /// Git → changed paths; manifests → graphs at both sides; config → the pure analysis.
  public static func run(_ options: AffectedOptions, services: RippleServices) async throws -> AffectedOutcome {
    let repository = try GitRepository.discover(from: options.directory)
    guard let root = repository.workdir else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "read the packages")
    }
    let configuration = try ConfigLoader.load(repoRoot: root, explicitPath: options.configPath)
    let selection = configuration.selection
    let changeSet = try ChangeDetection.detect(options.changes, in: repository)

    let (baseTree, headTree) = try Snapshots.sides(of: changeSet, in: repository, cache: services.manifestCache)
    let loader = services.graphLoader

    var warnings: [String] = []
    var fallbackReasons: [String] = []
    var graphs: [String: PackageGraph] = [:]
    // `--fallback all`: what did evaluate, for "every test" when a manifest did not.
    var partialGraphs: [String: PackageGraph] = [:]
    var unevaluated: Set<String> = []
    // Head first: with a cold cache, the base side then only evaluates the manifests that changed.
    for (side, tree) in [("head", headTree), ("base", baseTree)] {
      do {
        let loaded = try await loader.loadPartialGraph(
          tree, environments: selection.manifestEnvironments, excludePackages: selection.excludePackages)
        if let error = PackageGraphError.combining(loaded.failures) {
          guard options.fallbackAll, error.category != .internal else { throw error }
          fallbackReasons.append("--fallback all: \(error.description)")
          warnings.append(error.description)
          partialGraphs[side] = loaded.graph
          unevaluated.formUnion(loaded.failedPackages)
        } else {
          graphs[side] = loaded.graph
        }
      } catch let error as RippleError where options.fallbackAll && error.category != .internal {
        fallbackReasons.append("--fallback all: \(error.description)")
        warnings.append(error.description)
        // Nothing of this side is known: every package it has runs unfiltered, never "0 tests".
        unevaluated.formUnion(GraphLoader.packagePaths(in: tree, excludePackages: selection.excludePackages))
      }
    }
    let headGraph = graphs["head"]
    let baseGraph = graphs["base"]

    var result: AffectedResult
    if let headGraph, let baseGraph {
      let resolved = try resolvedChanges(changeSet.changes, base: baseTree, head: headTree)
      result = AffectedAnalysis.analyze(
        AffectedInput(
          changes: changeSet.changes, base: baseGraph, head: headGraph, resolvedChanges: resolved,
          selection: selection, directOnly: options.directOnly))
    } else {
      let known = headGraph ?? partialGraphs["head"] ?? baseGraph ?? partialGraphs["base"]
      result = everything(in: known ?? PackageGraph(packages: []), reasons: fallbackReasons)
    }
    result.warnings = warnings + result.warnings

    let report = AffectedReport(
      result: result, base: changeSet.base.hex, head: changeSet.headLabel, mergeBase: changeSet.mergeBase?.hex,
      changedFiles: changeSet.changes)
    return AffectedOutcome(
      repositoryRoot: root, configuration: configuration, changeSet: changeSet, baseGraph: baseGraph,
      headGraph: headGraph, unevaluatedPackages: unevaluated.sorted(), result: result, report: report)
  }

  /// Every test target of `graph`, each with `reasons`: the safe answer when the analysis cannot run.
  static func everything(in graph: PackageGraph, reasons: [String]) -> AffectedResult {
    let tests = graph.packages.flatMap { package in
      package.targets.filter(\.kind.isTest).map {
        AffectedTarget(package: package.path, name: $0.name, kind: $0.kind, reasons: reasons)
      }
    }
    return AffectedResult(targets: tests, testTargets: tests, runAll: true, runAllReasons: reasons)
  }

  /// The pins before and after for every changed `Package.resolved`.
  static func resolvedChanges(_ changes: [ChangedFile], base: TreeSnapshot, head: TreeSnapshot) throws
    -> [String: (base: ResolvedPins?, head: ResolvedPins?)]
  {
    var out: [String: (base: ResolvedPins?, head: ResolvedPins?)] = [:]
    for path in Set(changes.flatMap(\.touchedPaths)) where path.split(separator: "/").last == "Package.resolved" {
      let before = try base.read(path).map { try ResolvedFile.parse($0, path: path) }
      let after = try head.read(path).map { try ResolvedFile.parse($0, path: path) }
      out[path] = (before, after)
    }
    return out
  }
}
