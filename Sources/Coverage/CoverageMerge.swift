import Foundation

/// One test target's coverage as a run knows it: measured in this run, recorded with its pass record at its
/// unchanged content key, or not known.
public struct TargetCoverage: Sendable, Hashable {
  public enum Source: Sendable, Hashable {
    /// Measured in this run.
    case fresh(LineCoverage)
    /// Read from the target's pass record at its current key; `origin` says which run wrote it.
    case recorded(LineCoverage, origin: String)
    /// Neither: why (no record at its key, a blob missing or corrupt, the test process crashed, …).
    case notMeasured(reason: String)
  }

  /// `package:Target`, with ` [run]` for a declared test run.
  public var unit: String
  public var source: Source
  /// The files the target's content key covers (every file its closure owns); nil when unknown. Its coverage
  /// counts only these: code outside the closure cannot run in its tests, and only these files are known to
  /// be unchanged while the key is.
  public var files: Set<String>?
  /// A selected target skipped for a pass record at its current key: the key was computed with this run's
  /// changes, so its recorded coverage is of the changed files' current content and is not dropped for them.
  public var recordedAtThisContent: Bool

  public init(unit: String, source: Source, files: Set<String>?, recordedAtThisContent: Bool = false) {
    self.unit = unit
    self.source = source
    self.files = files
    self.recordedAtThisContent = recordedAtThisContent
  }
}

/// The whole suite's coverage, merged from each test target's (docs/DESIGN.md, "Coverage").
public struct CoverageReport: Sendable, Hashable {
  /// Every measured file's lines, hits added over the targets.
  public var coverage: LineCoverage
  /// Per target, in the order given: where its coverage came from and its own totals.
  public var targets: [TargetSummary]
  /// Source files whose coverage is incomplete, with the targets whose coverage is unknown: never shown as
  /// 0 %, never left out silently.
  public var notMeasured: [String: [String]]

  public struct TargetSummary: Sendable, Hashable, Codable {
    public var unit: String
    /// `fresh`, `recorded` or `notMeasured`.
    public var source: String
    /// A recorded target's run, or why a target was not measured.
    public var detail: String?
    public var totals: LineTotals
  }

  public init(coverage: LineCoverage, targets: [TargetSummary], notMeasured: [String: [String]]) {
    self.coverage = coverage
    self.targets = targets
    self.notMeasured = notMeasured
  }

  public var totals: LineTotals { coverage.totals }
  public var lcov: String { LCOV.render(coverage) }
}

/// The merge rule. The report is the union over the suite's test targets of each one's coverage, restricted
/// to the files its key covers, hits added per line. A target's coverage is this run's when it ran, else its
/// pass record's: its key is unchanged, so every file its tests can reach is byte for byte what it was when
/// the record was written, and so are the lines they ran. A file changed in this run counts only this run's
/// coverage. A file in the closure of a target whose coverage is unknown is not measured: its hits would lack
/// that target's, so no number is given for it.
public enum CoverageMerge {
  /// File extensions of sources a test binary compiles (what "not measured" lists).
  public static let sourceExtensions: Set<String> = ["swift", "c", "cc", "cpp", "cxx", "m", "mm"]

  public static func merge(_ targets: [TargetCoverage], changedFiles: Set<String>) -> CoverageReport {
    var sum = LineCoverage()
    var summaries: [CoverageReport.TargetSummary] = []
    var unknown: [String: [String]] = [:]
    for target in targets {
      let keep: (String) -> Bool = { path in target.files?.contains(path) ?? true }
      switch target.source {
      case .fresh(let coverage):
        let own = coverage.filtered(keep)
        sum.add(own)
        summaries.append(.init(unit: target.unit, source: "fresh", detail: nil, totals: own.totals))
      case .recorded(let coverage, let origin):
        let changed = target.recordedAtThisContent ? [] : changedFiles
        let own = coverage.filtered { keep($0) && !changed.contains($0) }
        for path in coverage.files.keys where keep(path) && changed.contains(path) {
          // Cannot happen while keys cover their files; said rather than trusted.
          unknown[path, default: []].append(target.unit + " (recorded before this file changed)")
        }
        sum.add(own)
        summaries.append(.init(unit: target.unit, source: "recorded", detail: origin, totals: own.totals))
      case .notMeasured(let reason):
        for path in target.files ?? [] where isSource(path) && !LineCoverage.isGenerated(path) {
          unknown[path, default: []].append(target.unit)
        }
        summaries.append(.init(unit: target.unit, source: "notMeasured", detail: reason, totals: LineTotals()))
      }
    }
    let measured = sum.filtered { unknown[$0] == nil }
    return CoverageReport(
      coverage: measured, targets: summaries, notMeasured: unknown.mapValues { Array(Set($0)).sorted() })
  }

  static func isSource(_ path: String) -> Bool {
    sourceExtensions.contains((path as NSString).pathExtension.lowercased())
  }
}
