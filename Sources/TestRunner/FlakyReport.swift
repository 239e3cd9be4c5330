import Foundation
import RippleCore

/// `ripple flaky`: its text and JSON forms. Pure.
public enum FlakyReport {
  /// A table, flakiest first: rate, flaky/runs, first and last seen (UTC), test (and package when not the root).
  public static func text(_ tests: [FlakyTestRecord], since: String) -> String {
    guard !tests.isEmpty else { return "No flaky test in the last \(since).\n" }
    var rows = [["rate", "flaky/runs", "first seen", "last seen", "test"]]
    for test in tests {
      rows.append([
        String(format: "%.0f%%", test.rate * 100), "\(test.flakyRuns)/\(test.runs)", stamp(test.firstSeen),
        stamp(test.lastSeen),
        TerminalText.quoted(test.test) + (test.package == "." ? "" : "  (\(TerminalText.quoted(test.package)))"),
      ])
    }
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    let lines = rows.map { row in
      row.enumerated().map { column, cell in
        let pad = String(repeating: " ", count: widths[column] - cell.count)
        return column < 2 ? pad + cell : cell + pad
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }
    let count = tests.count
    return lines.joined(separator: "\n") + "\n\n\(count) flaky test\(count == 1 ? "" : "s") in the last \(since).\n"
  }

  /// `{"since": "30d", "tests": [{"package", "test", "runs", "flakyRuns", "failedRuns", "rate", "firstSeen",
  /// "lastSeen"}]}`, dates ISO 8601.
  public static func json(_ tests: [FlakyTestRecord], since: String) -> String {
    struct Entry: Encodable {
      var package: String
      var test: String
      var runs: Int
      var flakyRuns: Int
      var failedRuns: Int
      var rate: Double
      var firstSeen: Date?
      var lastSeen: Date?
    }
    struct Document: Encodable {
      var since: String
      var tests: [Entry]
    }
    let entries = tests.map {
      Entry(
        package: $0.package, test: $0.test, runs: $0.runs, flakyRuns: $0.flakyRuns, failedRuns: $0.failedRuns,
        rate: ($0.rate * 1000).rounded() / 1000, firstSeen: $0.firstSeen, lastSeen: $0.lastSeen)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let data = (try? encoder.encode(Document(since: since, tests: entries))) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  static func stamp(_ date: Date?) -> String {
    guard let date else { return "-" }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
    return String(formatter.string(from: date).prefix(16))
  }
}

/// `ripple flaky --since`: how far back to look, `Nh`, `Nd` or `Nw`, whole UTC days (the first day counts in full).
///
/// At most `maximumDays` (100 years): a longer window is refused with a usage error, never wrapped. Without
/// the bound, `99999999999999d` reached back before year 1: Foundation's calendar answers 4713-01-01 of the
/// era before Christ, a day key that sorts after every real day, and the report said "No flaky test". A
/// hundred years covers everything the history holds (it keeps 180 days).
public struct FlakyWindow: Sendable, Hashable {
  public static let maximumDays = 36_500
  public var seconds: TimeInterval

  /// The unit letters and their length in hours.
  static let units: [(letter: Character, hours: Int)] = [("h", 1), ("d", 24), ("w", 7 * 24)]

  /// Parses `text`; the error is the usage message, naming `--since`.
  public static func parse(_ text: String) throws(FlakyWindowError) -> FlakyWindow {
    let example = "write it as Nh, Nd or Nw, e.g. --since 30d"
    guard let letter = text.last, text.count > 1, !letter.isNumber else {
      throw FlakyWindowError("--since \(text) is not an age; \(example).")
    }
    var digits = Substring(text.dropLast())
    let negative = digits.first == "-"
    if negative || digits.first == "+" { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw FlakyWindowError("--since \(text) is not an age; \(example).")
    }
    guard let unit = units.first(where: { $0.letter == letter }) else {
      throw FlakyWindowError("--since \(text): unknown unit `\(letter)`; use h (hours), d (days) or w (weeks).")
    }
    let largest = maximumDays * 24 / unit.hours
    // Digits too many for an Int are as much too long as a large count.
    let count = Int(digits) ?? Int.max
    if negative && count > 0 {
      throw FlakyWindowError("--since \(text) is negative; the window reaches back from now, e.g. --since 30d.")
    }
    guard count > 0 else {
      throw FlakyWindowError("--since \(text) is an empty window; the shortest is 1\(letter).")
    }
    guard count <= largest else {
      throw FlakyWindowError(
        "--since \(text) is longer than the largest window, \(largest)\(letter) (100 years, more than the "
          + "history keeps).")
    }
    return FlakyWindow(seconds: TimeInterval(count * unit.hours) * 3_600)
  }
}

/// Why a `--since` value was refused: a full sentence naming the flag.
public struct FlakyWindowError: Error, Hashable, CustomStringConvertible {
  public var description: String

  init(_ description: String) {
    self.description = description
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}
