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
    // Over UTF-8 bytes: a target's LCOV is ~10⁵ lines, and Character-wise splitting was most of a merge.
    var text = text
    let result = text.withUTF8 { parse(bytes: $0) }
    return try result.get()
  }

  private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Result<LineCoverage, CoverageError> {
    var files: [String: [Int: Int]] = [:]
    var current: String?
    var lines: [Int: Int] = [:]
    var number = 0
    var start = 0
    let count = bytes.count
    func flush() {
      if let path = current { files[path, default: [:]].merge(lines) { $0 &+ $1 } }
      lines = [:]
    }
    func has(_ a: UInt8, _ b: UInt8, _ c: UInt8, at index: Int, before stop: Int) -> Bool {
      stop - index >= 3 && bytes[index] == a && bytes[index + 1] == b && bytes[index + 2] == c
    }
    while start <= count {
      var end = start
      while end < count && bytes[end] != 0x0A { end += 1 }
      number += 1
      var stop = end
      if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
      let lineStart = start
      start = end + 1
      if has(0x44, 0x41, 0x3A, at: lineStart, before: stop) {  // DA:line,hits[,checksum]
        guard current != nil else { return .failure(.malformedLCOV(line: number, reason: "DA: outside a file record")) }
        var values = (0, 0)
        var field = 0
        var digits = 0
        var index = lineStart + 3
        var valid = true
        while index < stop, field < 2 {
          let byte = bytes[index]
          if byte == 0x2C {
            if digits == 0 { valid = false }
            field += 1
            digits = 0
          } else if byte >= 0x30 && byte <= 0x39 && digits < 18 {
            if field == 0 {
              values.0 = values.0 * 10 + Int(byte - 0x30)
            } else {
              values.1 = values.1 * 10 + Int(byte - 0x30)
            }
            digits += 1
          } else {
            valid = false
            break
          }
          index += 1
        }
        guard valid, field >= 1, field == 2 || digits > 0, values.0 > 0 else {
          let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<stop]), as: UTF8.self)
          return .failure(.malformedLCOV(line: number, reason: "`\(text)` is not DA:line,hits"))
        }
        lines[values.0, default: 0] &+= values.1
      } else if has(0x53, 0x46, 0x3A, at: lineStart, before: stop) {  // SF:
        flush()
        let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[(lineStart + 3)..<stop]), as: UTF8.self)
        guard !path.isEmpty else { return .failure(.malformedLCOV(line: number, reason: "SF: without a path")) }
        current = path
        if files[path] == nil { files[path] = [:] }
      } else if stop - lineStart == 13 && bytes[lineStart] == 0x65
        && String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<stop]), as: UTF8.self) == "end_of_record"
      {
        flush()
        current = nil
      }
    }
    flush()
    return .success(LineCoverage(files: files))
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
