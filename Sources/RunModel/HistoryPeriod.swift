import Foundation

/// The UTC days and weeks the repository history charts count in (docs/DESIGN.md, "Repository history charts").
///
/// Pure arithmetic on seconds since 1970 (which began at midnight UTC): UTC has no daylight saving, so every day is
/// 86,400 s and every week 604,800 s. Weeks start on Monday 00:00 UTC (ISO 8601).
public enum HistoryPeriod: Sendable, Hashable {
  case day, week

  public var seconds: TimeInterval { self == .day ? 86_400 : 604_800 }

  /// The start of the period `date` falls in: midnight UTC, or Monday 00:00 UTC.
  public func start(of date: Date) -> Date {
    // 1970-01-05 was the first Monday after the epoch (1970-01-01 was a Thursday).
    let origin: TimeInterval = self == .day ? 0 : 4 * 86_400
    let periods = ((date.timeIntervalSince1970 - origin) / seconds).rounded(.down)
    return Date(timeIntervalSince1970: periods * seconds + origin)
  }

  /// The starts of the `count` periods that end with the one `now` falls in, oldest first.
  public func starts(count: Int, endingAt now: Date) -> [Date] {
    guard count > 0 else { return [] }
    let last = start(of: now)
    return (0..<count).map { last.addingTimeInterval(-Double(count - 1 - $0) * seconds) }
  }
}
