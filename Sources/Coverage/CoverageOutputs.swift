import Foundation
import RippleCore

/// Cobertura XML (coverage-04.dtd), what GitLab's coverage visualisation and Jenkins' Coverage plugin read:
/// one `<package>` per folder, one `<class>` per file, line coverage only (branch rates are 0).
public enum Cobertura {
  public static func render(_ coverage: LineCoverage, timestamp: Int) -> String {
    let total = coverage.totals
    var out = "<?xml version=\"1.0\" ?>\n"
    out += "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
    out += "<coverage line-rate=\"\(rate(total))\" branch-rate=\"0\" lines-covered=\"\(total.covered)\" "
    out += "lines-valid=\"\(total.lines)\" branches-covered=\"0\" branches-valid=\"0\" complexity=\"0\" "
    out += "version=\"ripple\" timestamp=\"\(timestamp)\">\n"
    out += "  <sources>\n    <source>.</source>\n  </sources>\n  <packages>\n"
    var byFolder: [String: [String]] = [:]
    for path in coverage.files.keys {
      let folder = (path as NSString).deletingLastPathComponent
      byFolder[folder.isEmpty ? "." : folder, default: []].append(path)
    }
    for folder in byFolder.keys.sorted() {
      let paths = (byFolder[folder] ?? []).sorted()
      let folderTotals = paths.reduce(into: LineTotals()) { $0.add(LineTotals(lines: coverage.files[$1] ?? [:])) }
      out += "    <package name=\"\(escape(folder))\" line-rate=\"\(rate(folderTotals))\" branch-rate=\"0\" "
      out += "complexity=\"0\">\n      <classes>\n"
      for path in paths {
        let lines = coverage.files[path] ?? [:]
        let name = (path as NSString).lastPathComponent
        out += "        <class name=\"\(escape(name))\" filename=\"\(escape(path))\" "
        out += "line-rate=\"\(rate(LineTotals(lines: lines)))\" branch-rate=\"0\" complexity=\"0\">\n"
        out += "          <methods/>\n          <lines>\n"
        for number in lines.keys.sorted() {
          out += "            <line number=\"\(number)\" hits=\"\(lines[number] ?? 0)\"/>\n"
        }
        out += "          </lines>\n        </class>\n"
      }
      out += "      </classes>\n    </package>\n"
    }
    out += "  </packages>\n</coverage>\n"
    return out
  }

  static func rate(_ totals: LineTotals) -> String {
    totals.lines == 0 ? "1" : String(format: "%.4f", Double(totals.covered) / Double(totals.lines))
  }

  static func escape(_ text: String) -> String { XMLText.escaped(text) }
}

/// `--coverage-min PERCENT`: the suite's measured line coverage must reach it.
public struct CoverageGate: Sendable, Hashable {
  public var minimum: Double

  public init(minimum: Double) { self.minimum = minimum }

  public struct Failure: Sendable, Hashable, Codable {
    public var percent: Double
    public var minimum: Double
    /// The files under the minimum, lowest first: what pulled the total down.
    public var files: [String]
  }

  /// Nil when the total reaches the minimum. Files not measured count for neither side.
  public func check(_ report: CoverageReport) -> Failure? {
    let total = report.totals
    guard total.percent + 1e-9 < minimum else { return nil }
    let below = report.coverage.files.map { ($0.key, LineTotals(lines: $0.value)) }
      .filter { $0.1.percent + 1e-9 < minimum }
      .sorted { ($0.1.percent, $0.0) < ($1.1.percent, $1.0) }
    return Failure(percent: total.percent, minimum: minimum, files: below.map(\.0))
  }
}

/// The report's part of `--report-json` (`coverage`) and the terminal's tables.
public struct CoverageDocument: Sendable, Hashable, Codable {
  public struct File: Sendable, Hashable, Codable {
    public var path: String
    public var lines: Int
    public var covered: Int
    public var percent: Double
  }

  public struct NotMeasured: Sendable, Hashable, Codable {
    public var path: String
    /// The targets whose coverage of this file is unknown.
    public var targets: [String]
  }

  public var lines: Int
  public var covered: Int
  public var percent: Double
  public var files: [File]
  public var notMeasured: [NotMeasured]
  public var targets: [CoverageReport.TargetSummary]
  public var gate: CoverageGate.Failure?
  /// The merged lines themselves, for `--coverage-lcov` and `--coverage-xml`; not in the JSON report.
  public var lineCoverage: LineCoverage?

  private enum CodingKeys: String, CodingKey {
    case lines, covered, percent, files, notMeasured, targets, gate
  }

  public init(_ report: CoverageReport, gate: CoverageGate.Failure? = nil) {
    let totals = report.totals
    lines = totals.lines
    covered = totals.covered
    percent = Self.rounded(totals.percent)
    files = report.coverage.files.keys.sorted().map { path in
      let own = LineTotals(lines: report.coverage.files[path] ?? [:])
      return File(path: path, lines: own.lines, covered: own.covered, percent: Self.rounded(own.percent))
    }
    notMeasured = report.notMeasured.keys.sorted().map { NotMeasured(path: $0, targets: report.notMeasured[$0] ?? []) }
    targets = report.targets
    self.gate = gate
  }

  static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  /// The terminal summary: one line per target, one per file, the files not measured, the total.
  public var rendered: String {
    var out = "Coverage by test target:\n"
    let unitWidth = min(60, targets.map(\.unit.count).max() ?? 0)
    for target in targets {
      let name = target.unit.padding(toLength: max(unitWidth, target.unit.count), withPad: " ", startingAt: 0)
      switch target.source {
      case "notMeasured":
        out += "  \(name)  not measured: \(TerminalText.quoted(target.detail ?? "unknown"))\n"
      default:
        // A recorded target's detail and files come from a pass record and its blob: quoted (`TerminalText`).
        let what = target.source == "recorded" ? "recorded (\(TerminalText.quoted(target.detail ?? "")))" : "this run"
        out +=
          "  \(name)  \(pad(target.totals.percentText))  \(target.totals.covered)/\(target.totals.lines)  \(what)\n"
      }
    }
    out += "Coverage by file:\n"
    for file in files {
      out +=
        "  \(pad(String(format: "%.2f%%", file.percent)))  \(file.covered)/\(file.lines)  \(TerminalText.quoted(file.path))\n"
    }
    for file in notMeasured {
      out += "  not measured  \(TerminalText.quoted(file.path)) (unknown: \(file.targets.joined(separator: ", ")))\n"
    }
    out += "Coverage: \(String(format: "%.2f%%", percent)) of \(lines) lines in \(files.count) files"
    out += notMeasured.isEmpty ? "\n" : "; \(notMeasured.count) files not measured\n"
    return out
  }

  private func pad(_ text: String) -> String {
    String(repeating: " ", count: max(0, 7 - text.count)) + text
  }
}
