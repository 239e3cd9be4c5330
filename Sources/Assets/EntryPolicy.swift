import Foundation
import RippleConfig

/// Pure checks on archive entry names: what may be extracted, and where.
enum EntryPolicy {
  enum Verdict: Equatable {
    /// Extract to this normalised, stripped, relative path.
    case extract(String)
    /// Nothing left after `stripComponents`, or only `.`.
    case skip
    case reject(String)
  }

  /// Normalises `raw` (drops empty and `.` components), refuses absolute paths, `..` and backslashes,
  /// then drops the first `strip` components.
  static func path(_ raw: String, strip: Int) -> Verdict {
    if raw.hasPrefix("/") { return .reject("absolute path") }
    if raw.contains("\\") { return .reject("backslash in the name (a Windows path?)") }
    if raw.contains("\0") { return .reject("NUL in the name") }
    if raw.count >= 2, raw.dropFirst().first == ":", raw.first!.isLetter { return .reject("drive-letter path") }
    let parts = raw.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
    if parts.contains("..") { return .reject("`..` component (path traversal)") }
    if parts.contains(where: { ProtectedPaths.isProtectedName(String($0)) }) {
      return .reject("a `.git` or Ripple staging component (a file there could run as a git hook)")
    }
    let kept = parts.dropFirst(strip)
    return kept.isEmpty ? .skip : .extract(kept.joined(separator: "/"))
  }

  /// Whether a symlink at `entry` pointing to `target` stays inside the extraction root, lexically.
  static func symlinkStaysInside(entry: String, target: String) -> Bool {
    if target.isEmpty || target.hasPrefix("/") { return false }
    var stack = entry.split(separator: "/").dropLast().map(String.init)
    for part in target.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..":
        guard !stack.isEmpty else { return false }
        stack.removeLast()
      default: stack.append(String(part))
      }
    }
    return true
  }
}
