import Foundation

/// Human forms of times, durations and commits, as the pages show them.
public enum Formatting {
  /// `text` without the characters that reorder what follows them (U+202A–U+202E, U+2066–U+2069, the marks
  /// U+200E, U+200F and U+061C): a commit subject cannot reverse the page around it.
  public static func withoutBidiControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isBidiControl) else { return text }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: text.unicodeScalars.filter { !isBidiControl($0) })
    return String(scalars)
  }

  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
    default: return false
    }
  }

  /// "just now", "42 s ago", "3 min ago", "2 h ago", "5 d ago"; "in 3 min" for a time after `now` (clock skew).
  public static func relative(_ date: Date, now: Date) -> String {
    let seconds = now.timeIntervalSince(date)
    let magnitude = abs(seconds)
    if magnitude < 5 { return "just now" }
    let amount: String
    if magnitude < 60 {
      amount = "\(Int(magnitude)) s"
    } else if magnitude < 3600 {
      amount = "\(Int(magnitude / 60)) min"
    } else if magnitude < 86400 * 2 {
      amount = "\(Int(magnitude / 3600)) h"
    } else {
      amount = "\(Int(magnitude / 86400)) d"
    }
    return seconds >= 0 ? "\(amount) ago" : "in \(amount)"
  }

  /// "2026-04-19 12:03:04 UTC".
  public static func utc(_ date: Date) -> String {
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):"
      + "\(two(parts.second)) UTC"
  }

  /// "350 ms", "4.2 s", "12 s", "1 min 12 s", "1 h 3 min".
  public static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "–" }
    let seconds = max(0, seconds)
    if seconds == 0 { return "0 s" }
    if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
    if seconds < 10 {
      let tenths = Int((seconds * 10).rounded())
      return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
    let whole = Int(seconds.rounded())
    if whole < 60 { return "\(whole) s" }
    if whole < 3600 {
      let minutes = whole / 60
      let rest = whole % 60
      return rest == 0 ? "\(minutes) min" : "\(minutes) min \(rest) s"
    }
    let hours = whole / 3600
    let minutes = (whole % 3600) / 60
    return minutes == 0 ? "\(hours) h" : "\(hours) h \(minutes) min"
  }

  /// The first 10 characters of a commit id; anything that is not a hex commit id (`worktree`) stays as it is.
  public static func shortCommit(_ commit: String) -> String {
    let isHex = commit.count > 10 && commit.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit }
    return isHex ? String(commit.prefix(10)) : commit
  }

  /// The first `limit` characters of `text` and an ellipsis, or `text` when it is not longer.
  public static func truncated(_ text: String, to limit: Int) -> String {
    guard text.count > limit else { return text }
    var cut = String(text.prefix(max(0, limit)))
    while cut.last?.isWhitespace == true { cut.removeLast() }
    return cut + "…"
  }

  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()
}
