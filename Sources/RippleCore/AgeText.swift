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
}
