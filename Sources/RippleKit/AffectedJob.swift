import Affected
import ConfigLoading
import Foundation
import Git
import PackageLoading
import PackageModel
import RippleConfig
import RippleCore
import SystemClients
import XcodeLoading
import XcodeModel

/// What `ripple affected` (and the affected step of `test` and of a daemon run) is asked.
public struct AffectedRequest: Sendable {
  public var changes: ChangeRequest
  public var directOnly: Bool
  /// `--fallback all`: when something cannot be known (a manifest fails to evaluate), select every test
  /// instead of failing. Never "0 tests" because something went wrong.
  public var fallbackAll: Bool

  public init(changes: ChangeRequest = .init(), directOnly: Bool = false, fallbackAll: Bool = false) {
    self.changes = changes
    self.directOnly = directOnly
    self.fallbackAll = fallbackAll
  }
}

/// Everything one analysis produced: the report for output, and the graphs for `graph`/`--explain`.
public struct AffectedOutcome: Sendable {
  public var changeSet: ChangeSet
  public var baseGraph: PackageGraph?
  public var headGraph: PackageGraph?
  /// Packages whose manifest did not evaluate on a side (`--fallback all`): they run unfiltered.
  public var unevaluatedPackages: [String] = []
  public var result: AffectedResult
  public var report: AffectedReport
}

extension Workspace {
  /// Git → changed paths; manifests → graphs at both sides; config → the pure analysis.
  public func affected(_ options: AffectedRequest) async throws -> AffectedOutcome {
    let selection = configuration.selection
    let environments = configuration.graphEnvironments
    let changeRequest = try await resolvingAutoBase(options.changes)
    let changeSet = try changes(changeRequest)

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
          tree, environments: environments, excludePackages: selection.excludePackages,
          toolchains: selection.manifestToolchains)
        // Xcode projects join the graph as packages (docs/DESIGN.md, rule 12).
        let xcode = XcodeGraphs.merge(
          loaded.graph, tree: tree, excludePackages: selection.excludePackages,
          cache: XcodeCache(beside: services.manifestCache))
        // The head side's, which the selection is for.
        if side == "head" { warnings += loaded.warnings + xcode.warnings }
        var errors: [any RippleError] = []
        if let error = PackageGraphError.combining(loaded.failures) { errors.append(error) }
        if let error = XcodeError.combining(xcode.failures) { errors.append(error) }
        if !errors.isEmpty {
          for error in errors where !options.fallbackAll || error.category == .internal { throw error }
          for error in errors {
            fallbackReasons.append("--fallback all: \(error.description)")
            warnings.append(error.description)
          }
          partialGraphs[side] = xcode.graph
          unevaluated.formUnion(loaded.failedPackages + xcode.failedProjects)
        } else {
          graphs[side] = xcode.graph
        }
      } catch let error as RippleError
        where options.fallbackAll && error.category != .internal && error.category != .usage
      {
        fallbackReasons.append("--fallback all: \(error.description)")
        warnings.append(error.description)
        // Nothing of this side is known: every package it has runs unfiltered, never "0 tests".
        unevaluated.formUnion(GraphLoader.packagePaths(in: tree, excludePackages: selection.excludePackages))
      }
    }
    let headGraph = graphs["head"]
    let baseGraph = graphs["base"]

    var result: AffectedResult
    if changeRequest.everythingBecause != nil {
      // The whole reason is said once (the "Comparing" line, `baseSource`); each target carries its short form.
      result = AffectedResult.everything(
        in: headGraph ?? PackageGraph(packages: []),
        reasons: ["every test runs: --base auto found no base to compare with"])
    } else if let headGraph, let baseGraph {
      let resolved = try AffectedJob.resolvedChanges(changeSet.changes, base: baseTree, head: headTree)
      // Rule 11: ripple.yml at both sides, for assets and generated resources (AssetManifestLoading.swift).
      let manifests = AssetManifestLoading.load(
        configuration: configuration, repositoryRoot: root, base: baseTree, head: headTree)
      result = AffectedAnalysis.analyze(
        AffectedInput(
          changes: changeSet.changes, base: baseGraph, head: headGraph, resolvedChanges: resolved,
          selection: selection, directOnly: options.directOnly, assetManifests: manifests))
    } else {
      let known = headGraph ?? partialGraphs["head"] ?? baseGraph ?? partialGraphs["base"]
      result = AffectedResult.everything(in: known ?? PackageGraph(packages: []), reasons: fallbackReasons)
    }
    result.warnings = warnings + result.warnings

    var report = AffectedReport(
      result: result, base: changeSet.base.hex, head: changeSet.headLabel, mergeBase: changeSet.mergeBase?.hex,
      changedFiles: changeSet.changes, baseSource: changeSet.baseSource)
    if let graph = headGraph ?? baseGraph {
      report.packageNames = Dictionary(
        graph.packages.map { ($0.path, $0.name) }, uniquingKeysWith: { first, _ in first })
    }
    return AffectedOutcome(
      changeSet: changeSet, baseGraph: baseGraph,
      headGraph: headGraph, unevaluatedPackages: unevaluated.sorted(), result: result, report: report)
  }
}

enum AffectedJob {
  /// The pins before and after for every changed `Package.resolved`.
  static func resolvedChanges(_ changes: [ChangedFile], base: TreeSnapshot, head: TreeSnapshot) throws
    -> [String: (base: ResolvedPins?, head: ResolvedPins?)]
  {
    var out: [String: (base: ResolvedPins?, head: ResolvedPins?)] = [:]
    for change in changes {
      for path in change.touchedPaths where RepoPath.isResolvedFile(path) && out[path] == nil {
        let before = try base.read(path).map { try ResolvedFile.parse($0, path: path) }
        let after = try head.read(path).map { try ResolvedFile.parse($0, path: path) }
        out[path] = (before, after)
      }
    }
    return out
  }
}
