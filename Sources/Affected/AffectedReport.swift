import PackageModel
import RippleCore

/// The document of `ripple affected --format json`, schema version 1 (docs/DESIGN.md, "Outputs").
///
/// Keys: `schemaVersion`, `base`, `head` ("<sha>" or "worktree"), `mergeBase` (absent when the comparison
/// did not start from a merge-base), `baseSource` (how `--base auto` chose the base, or that `--changed-files`
/// gave the changes; absent otherwise), `packageNames` (path → the manifest's name), `changedFiles` [{`path`, `status`, `oldPath`?}], `runAll`,
/// `runAllReasons`, `targets` [{`package`, `name`, `kind`, `reasons`}], `testTargets` [{`package`, `name`,
/// `reasons`}], `removedTargets` (like `targets`: in the base graph only) and `warnings`.
/// `kind` is `library`, `executable`, `test`, `plugin`, `macro`, `system` or `binary`.
public struct AffectedReport: Sendable, Codable, Hashable {
  public static let currentSchemaVersion = 1

  public var schemaVersion: Int
  public var base: String
  public var head: String
  public var mergeBase: String?
  /// How the base was chosen when Ripple chose it (`--base auto`) or the changes were given
  /// (`--changed-files`); absent otherwise.
  public var baseSource: String?
  /// Each package's name by its path, as its manifest says (`"."` → `"App"`); absent when not known.
  public var packageNames: [String: String]?
  public var changedFiles: [ChangedFile]
  public var runAll: Bool
  public var runAllReasons: [String]
  public var targets: [TargetEntry]
  public var testTargets: [TestTargetEntry]
  public var removedTargets: [TargetEntry]
  public var warnings: [String]

  public struct TargetEntry: Sendable, Codable, Hashable {
    public var package: String
    public var name: String
    public var kind: String
    public var reasons: [String]

    public var ref: TargetRef { TargetRef(package: package, name: name) }

    public init(package: String, name: String, kind: String, reasons: [String]) {
      self.package = package
      self.name = name
      self.kind = kind
      self.reasons = reasons
    }

    init(_ target: AffectedTarget) {
      // The model says "regular" (SwiftPM's word); people and the schema say "library".
      let kind = target.kind == .library ? "library" : target.kind.rawValue
      self.init(package: target.package, name: target.name, kind: kind, reasons: target.reasons)
    }
  }

  public struct TestTargetEntry: Sendable, Codable, Hashable {
    public var package: String
    public var name: String
    public var reasons: [String]

    public var ref: TargetRef { TargetRef(package: package, name: name) }

    public init(package: String, name: String, reasons: [String]) {
      self.package = package
      self.name = name
      self.reasons = reasons
    }
  }

  public init(
    result: AffectedResult, base: String, head: String, mergeBase: String?, changedFiles: [ChangedFile],
    baseSource: String? = nil
  ) {
    self.baseSource = baseSource
    self.schemaVersion = Self.currentSchemaVersion
    self.base = base
    self.head = head
    self.mergeBase = mergeBase
    // Usually sorted already (the change detection sorts): checked in one pass before sorting 10⁶ paths again.
    self.changedFiles =
      zip(changedFiles, changedFiles.dropFirst()).allSatisfy { !($1 < $0) } ? changedFiles : changedFiles.sorted()
    self.runAll = result.runAll
    self.runAllReasons = result.runAllReasons
    self.targets = result.targets.map(TargetEntry.init)
    self.testTargets = result.testTargets.map {
      TestTargetEntry(package: $0.package, name: $0.name, reasons: $0.reasons)
    }
    self.removedTargets = result.removedTargets.map(TargetEntry.init)
    self.warnings = result.warnings
  }
}
