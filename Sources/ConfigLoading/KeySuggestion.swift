import RippleConfig
import RippleCore

/// Suggests the closest known key for a misspelt one, by Levenshtein distance.
public enum KeySuggestion {
  /// The closest of `candidates` to `key`, when it is close enough to be a plausible typo.
  public static func closest(to key: String, in candidates: [String]) -> String? {
    let lowered = key.lowercased()
    let scored = candidates.map { (candidate: $0, distance: distance(lowered, $0.lowercased())) }
    guard let best = scored.min(by: { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }) else { return nil }
    let limit = max(2, key.count / 3)
    return best.distance <= limit ? best.candidate : nil
  }

  /// Levenshtein distance over Unicode scalars.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
