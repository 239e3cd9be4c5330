import Foundation

/// `ripple flaky`: the window it looks at and its text and JSON forms. Pure.
public enum FlakyReport {
  /// `30d`, `12h`, `2w` → seconds; nil for anything else (zero included).
  public static func window(_ text: String) -> TimeInterval? {
    guard let unit = text.last, let count = Int(text.dropLast()), count > 0 else { return nil }
    switch unit {
    case "h": return Double(count) * 3_600
    case "d": return Double(count) * 86_400
    case "w": return Double(count) * 7 * 86_400
    default: return nil
    }
  }

  /// A table, flakiest first: rate, flaky/runs, first and last seen (UTC), test (and package when not the root).
  public static func text(_ tests: [FlakyTestRecord], since: String) -> String {
    guard !tests.isEmpty else { return "No flaky test in the last \(since).\n" }
    var rows = [["rate", "flaky/runs", "first seen", "last seen", "test"]]
    for test in tests {
      rows.append([
        String(format: "%.0f%%", test.rate * 100), "\(test.flakyRuns)/\(test.runs)", stamp(test.firstSeen),
        stamp(test.lastSeen), test.test + (test.package == "." ? "" : "  (\(test.package))"),
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

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}
