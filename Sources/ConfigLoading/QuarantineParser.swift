import Foundation
import RippleConfig

/// Validates `test.quarantine`: a list of `{test, reason, until}`.
enum QuarantineParser {
  static let keys = ["test", "reason", "until"]
  private static let testHint = "write Target, Target/Suite or Target/Suite/test, e.g. NetTests/ClientTests/testRetry"

  static func parse(_ value: YAMLValue) throws -> [QuarantineEntry] {
    try value.listElements().map { element in
      var test: String?
      var reason: String?
      var until: String?
      for (key, child) in try element.mappingEntries(allowedKeys: keys) {
        switch key {
        case "test": test = try pattern(child)
        case "reason":
          reason = try child.string()
          guard reason?.trimmingCharacters(in: .whitespaces).isEmpty == false else {
            throw child.error("a quarantine's reason cannot be empty", hint: "say why, e.g. an issue link")
          }
        default: until = try day(child)
        }
      }
      guard let test else { throw element.error("a quarantine entry needs a `test`", hint: testHint) }
      guard let reason else {
        throw element.error("the quarantine of `\(test)` needs a `reason`", hint: "say why, e.g. an issue link")
      }
      return QuarantineEntry(test: test, reason: reason, until: until, location: element.location)
    }
  }

  /// `Target`, `Target/Suite` or `Target/Suite/test`, no part empty.
  private static func pattern(_ value: YAMLValue) throws -> String {
    let text = try value.string()
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard !text.isEmpty, parts.count <= 3, !parts.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty })
    else {
      throw value.error(
        text.isEmpty ? "a quarantine's test cannot be empty" : "`\(text)` is not a test pattern", hint: testHint)
    }
    return text
  }

  /// A real calendar day written `YYYY-MM-DD` (YAML reads an unquoted one as a timestamp: its text is kept).
  private static func day(_ value: YAMLValue) throws -> String {
    let text = try value.scalarText()
    let hint = "a day written YYYY-MM-DD, e.g. 2026-12-31"
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard text.count == 10, parts.count == 3,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      parts[0].count == 4, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
    else { throw value.error("`\(text)` is not a date", hint: hint) }
    return text
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
