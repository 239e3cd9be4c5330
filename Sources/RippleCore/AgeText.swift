import Foundation

/// A time span as people read it in one word: `40s`, `12m`, `5h`, `3d` (negative spans read as `0s`).
public enum AgeText {
  public static func short(_ seconds: TimeInterval) -> String {
    let s = max(0, Int(seconds))
    if s < 60 { return "\(s)s" }
    if s < 3600 { return "\(s / 60)m" }
    if s < 86400 { return "\(s / 3600)h" }
    return "\(s / 86400)d"
  }

  /// `40s ago`; a time more than a second ahead of now (another machine's clock) reads
  /// `in the future (clock skew)`, never `0s ago`.
  public static func ago(_ seconds: TimeInterval) -> String {
    seconds < -1 ? "in the future (clock skew)" : short(seconds) + " ago"
  }
}
