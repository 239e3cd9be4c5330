import PackageGraph
import RippleConfig
import RippleCore

/// Everything the pure analysis needs. Built by the caller from git, manifests and config.
public struct AffectedInput: Sendable {
  public var changes: [ChangedFile]
  /// The graph at the base revision and at the head (a revision or the working tree).
  public var base: PackageGraph
  public var head: PackageGraph
  /// For each changed `Package.resolved` (keyed by its repo-relative path), the pins before and after;
  /// nil when the file does not exist on that side.
  public var resolvedChanges: [String: (base: ResolvedPins?, head: ResolvedPins?)]
  public var selection: SelectionConfig
  /// `--direct`: only direct dependents of changed targets, not the transitive closure.
  public var directOnly: Bool

  public init(
    changes: [ChangedFile], base: PackageGraph, head: PackageGraph,
    resolvedChanges: [String: (base: ResolvedPins?, head: ResolvedPins?)] = [:],
    selection: SelectionConfig = .init(), directOnly: Bool = false
  ) {
    self.changes = changes
    self.base = base
    self.head = head
    self.resolvedChanges = resolvedChanges
    self.selection = selection
    self.directOnly = directOnly
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

  public init(package: String, name: String, kind: TargetKind, reasons: [String]) {
    self.package = package
    self.name = name
    self.kind = kind
    self.reasons = reasons
  }
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

  public init(
    targets: [AffectedTarget] = [], testTargets: [AffectedTarget] = [], runAll: Bool = false,
    runAllReasons: [String] = [], warnings: [String] = []
  ) {
    self.targets = targets
    self.testTargets = testTargets
    self.runAll = runAll
    self.runAllReasons = runAllReasons
    self.warnings = warnings
  }
}
