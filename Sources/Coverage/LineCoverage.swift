import Foundation

/// Line coverage: per source file (a path relative to the repository, `/`-separated), the hits of each
/// instrumented line. A line absent from a file's map is not code (a comment, a declaration); a line present
/// with 0 hits is code that never ran. Pure values: parsed from and rendered to LCOV, added up, filtered.
public struct LineCoverage: Sendable, Hashable {
  /// Path → line number → hits.
  public var files: [String: [Int: Int]]

  public init(files: [String: [Int: Int]] = [:]) { self.files = files }

  public var isEmpty: Bool { files.isEmpty }

  /// Adds `other`'s hits to these, line by line (a line instrumented in either is instrumented in the sum).
  public mutating func add(_ other: LineCoverage) {
    for (path, lines) in other.files {
      files[path, default: [:]].merge(lines) { $0 &+ $1 }
    }
  }

  public func adding(_ other: LineCoverage) -> LineCoverage {
    var sum = self
    sum.add(other)
    return sum
  }

  /// Only the files `keep` accepts.
  public func filtered(_ keep: (String) -> Bool) -> LineCoverage {
    LineCoverage(files: files.filter { keep($0.key) })
  }

  /// Paths made relative to `root` (an absolute folder); files outside it, and generated files (any path with
  /// a `.build` component: SwiftPM's derived sources, plugin outputs, dependency checkouts), are dropped.
  public func relativized(to root: String) -> LineCoverage {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    var out: [String: [Int: Int]] = [:]
    for (path, lines) in files {
      let normalized = (path as NSString).standardizingPath
      let relative: String
      if normalized.hasPrefix("/") {
        guard normalized.hasPrefix(prefix) else { continue }
        relative = String(normalized.dropFirst(prefix.count))
      } else {
        relative = path
      }
      if Self.isGenerated(relative) { continue }
      out[relative, default: [:]].merge(lines) { $0 &+ $1 }
    }
    return LineCoverage(files: out)
  }

  /// A path under a `.build` folder anywhere: SwiftPM's output, never a source of the repository.
  public static func isGenerated(_ path: String) -> Bool {
    path.split(separator: "/").contains(".build")
  }

  /// Lines instrumented and lines hit at least once, over every file.
  public var totals: LineTotals {
    files.values.reduce(into: LineTotals()) { $0.add(LineTotals(lines: $1)) }
  }
}

/// Instrumented lines and the ones that ran.
public struct LineTotals: Sendable, Hashable, Codable {
  public var lines: Int
  public var covered: Int

  public init(lines: Int = 0, covered: Int = 0) {
    self.lines = lines
    self.covered = covered
  }

  public init(lines hits: [Int: Int]) {
    self.lines = hits.count
    self.covered = hits.values.filter { $0 > 0 }.count
  }

  public mutating func add(_ other: LineTotals) {
    lines += other.lines
    covered += other.covered
  }

  /// Covered lines in percent, 100 for a file with no instrumented line.
  public var percent: Double { lines == 0 ? 100 : Double(covered) * 100 / Double(lines) }

  /// "83.33%": two decimals, the form every output uses.
  public var percentText: String { String(format: "%.2f%%", percent) }
}

/// LCOV text (the `geninfo` format `llvm-cov export -format=lcov` writes and most coverage services read).
public enum LCOV {
  /// Reads `SF:`, `DA:line,hits` and `end_of_record`; every other record (functions, branches, summaries) is
  /// skipped, as Ripple keeps line coverage only. A line listed twice for one file has its hits added.
  public static func parse(_ text: String) throws(CoverageError) -> LineCoverage {
    var files: [String: [Int: Int]] = [:]
    var current: String?
    var number = 0
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
      if line.hasPrefix("SF:") {
        let path = String(line.dropFirst(3))
        guard !path.isEmpty else { throw .malformedLCOV(line: number, reason: "SF: without a path") }
        current = path
        if files[path] == nil { files[path] = [:] }
      } else if line.hasPrefix("DA:") {
        guard let path = current else { throw .malformedLCOV(line: number, reason: "DA: outside a file record") }
        let fields = line.dropFirst(3).split(separator: ",")
        guard fields.count >= 2, let lineNumber = Int(fields[0]), lineNumber > 0, let hits = Int(fields[1]), hits >= 0
        else { throw .malformedLCOV(line: number, reason: "`\(line)` is not DA:line,hits") }
        files[path, default: [:]][lineNumber, default: 0] &+= hits
      } else if line == "end_of_record" {
        current = nil
      }
    }
    return LineCoverage(files: files)
  }

  /// Files sorted by path, lines by number: `SF:`, a `DA:` per line, `LF:`/`LH:`, `end_of_record`. The same
  /// coverage always renders to the same bytes, so two reports compare as text.
  public static func render(_ coverage: LineCoverage) -> String {
    var out = ""
    for path in coverage.files.keys.sorted() {
      let lines = coverage.files[path] ?? [:]
      out += "SF:\(path)\n"
      for number in lines.keys.sorted() { out += "DA:\(number),\(lines[number] ?? 0)\n" }
      let totals = LineTotals(lines: lines)
      out += "LF:\(totals.lines)\nLH:\(totals.covered)\nend_of_record\n"
    }
    return out
  }
}

/// Coverage data Ripple cannot use.
public enum CoverageError: Error, Sendable, Equatable, CustomStringConvertible {
  case malformedLCOV(line: Int, reason: String)
  case blobDigestMismatch(expected: String, actual: String)
  case blobUnreadable(String)
  case blobTooLarge(Int)

  public var description: String {
    switch self {
    case .malformedLCOV(let line, let reason): "malformed LCOV at line \(line): \(reason)"
    case .blobDigestMismatch(let expected, let actual):
      "the coverage blob's SHA-256 is \(actual.prefix(12)), not the \(expected.prefix(12)) its record names"
    case .blobUnreadable(let reason): "the coverage blob cannot be read: \(reason)"
    case .blobTooLarge(let bytes): "the coverage blob would be \(bytes) bytes, over the store's limit"
    }
  }
}
