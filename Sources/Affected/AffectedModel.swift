import PackageModel
import RippleConfig
import RippleCore

/// Everything the pure analysis needs. Built by the caller from git, manifests and config.
public struct AffectedInput: Sendable {
  public var changes: [ChangedFile]
  /// The graph at the base revision and at the head (a revision or the working tree).
  public var base: PackageGraph
  public var head: PackageGraph
  /// For each changed `Package.resolved` (keyed by its repo-relative path), the pins before and after;
  /// nil when the file does not exist on that side. Every `Package.resolved` of a package that appears
  /// in `changes` needs an entry: without one its pins cannot be compared and every test runs (rule 9).
  public var resolvedChanges: [String: (base: ResolvedPins?, head: ResolvedPins?)]
  public var selection: SelectionConfig
  /// `--direct`: only direct dependents of changed targets, not the transitive closure.
  public var directOnly: Bool
  /// `ripple.yml` at base and head for the asset rule (rule 11); nil: the config file follows rule 8.
  public var assetManifests: AssetManifests?

  public init(
    changes: [ChangedFile], base: PackageGraph, head: PackageGraph,
    resolvedChanges: [String: (base: ResolvedPins?, head: ResolvedPins?)] = [:],
    selection: SelectionConfig = .init(), directOnly: Bool = false, assetManifests: AssetManifests? = nil
  ) {
    self.changes = changes
    self.base = base
    self.head = head
    self.resolvedChanges = resolvedChanges
    self.selection = selection
    self.directOnly = directOnly
    self.assetManifests = assetManifests
  }
}

/// A target the change can reach, with why.
public struct AffectedTarget: Sendable, Codable, Hashable {
  /// Package directory relative to the repo root ("." for the root).
  public var package: String
  public var name: String
  public var kind: TargetKind
  /// Human sentences, most direct first: "changed Sources/Net/A.swift", "depends on Net", …
  public var reasons: [String]
  /// For a target selected only because it depends on another: the dependency through which it was
  /// first reached (the "depends on" reason names it). Nil for a target changed directly or run for
  /// `runAll`. Following `via` links leads back to a directly changed target; see `explanation(for:package:)`.
  public var via: TargetRef?

  public init(package: String, name: String, kind: TargetKind, reasons: [String], via: TargetRef? = nil) {
    self.package = package
    self.name = name
    self.kind = kind
    self.reasons = reasons
    self.via = via
  }

  public var ref: TargetRef { TargetRef(package: package, name: name) }
}

/// The answer of the analysis.
public struct AffectedResult: Sendable, Codable, Hashable {
  /// Every affected target (tests included), sorted by package then name.
  public var targets: [AffectedTarget]
  /// The affected test targets (present in the head graph), sorted by package then name.
  public var testTargets: [AffectedTarget]
  /// True when every test target runs (a global file, an unowned file with `unowned: all`, …).
  public var runAll: Bool
  public var runAllReasons: [String]
  public var warnings: [String]
  /// Targets of the base graph that the head graph no longer has ("removed from Package.swift"). They are
  /// not in `targets`: there is nothing to build or run, but dependents they reach are selected.
  public var removedTargets: [AffectedTarget]

  public init(
    targets: [AffectedTarget] = [], testTargets: [AffectedTarget] = [], runAll: Bool = false,
    runAllReasons: [String] = [], warnings: [String] = [], removedTargets: [AffectedTarget] = []
  ) {
    self.targets = targets
    self.testTargets = testTargets
    self.runAll = runAll
    self.runAllReasons = runAllReasons
    self.warnings = warnings
    self.removedTargets = removedTargets
  }
}
