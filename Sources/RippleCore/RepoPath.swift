/// Helpers for repo-relative paths: `/`-separated, no leading `./`, the root is ".".
public enum RepoPath {
  /// Joins a package directory ("." for the root) and a relative path.
  public static func join(_ base: String, _ relative: String) -> String {
    let r = normalize(relative)
    if base == "." || base.isEmpty { return r }
    if r == "." { return base }
    return normalize(base + "/" + r)
  }

  /// Removes `.` segments, resolves `..` where possible, and strips trailing slashes. "" becomes ".".
  public static func normalize(_ path: String) -> String {
    var out: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = out.last, last != ".." { out.removeLast(); continue }
      out.append(part)
    }
    return out.isEmpty ? "." : out.joined(separator: "/")
  }

  /// Whether `path` is `directory` itself or inside it.
  public static func isInside(_ path: String, directory: String) -> Bool {
    if directory == "." { return true }
    // `path.hasPrefix(directory + "/")` without making that string (called per owned path of every
    // target): bytes first, String's canonical comparison only for characters beyond ASCII.
    guard directory.utf8.allSatisfy({ $0 < 0x80 }) else {
      return path == directory || path.hasPrefix(directory + "/")
    }
    let inner = path.utf8
    let count = directory.utf8.count
    if inner.starts(with: directory.utf8)
      && (inner.count == count || inner[inner.index(inner.startIndex, offsetBy: count)] == UInt8(ascii: "/"))
    {
      return true
    }
    // A path with other characters may still be equal under String's canonical equivalence.
    return inner.allSatisfy { $0 < 0x80 } ? false : path == directory || path.hasPrefix(directory + "/")
  }

  /// The last name of a path (the path itself when it has no `/`), found by its bytes: asked of every changed
  /// path and every walked file.
  public static func name(_ path: String) -> Substring {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return Substring(path) }
    return Substring(path.utf8[path.utf8.index(after: slash)...])
  }

  /// Whether `path` is a `Package.resolved` (at the root or in a folder).
  public static func isResolvedFile(_ path: String) -> Bool { name(path) == "Package.resolved" }

  /// The parent directory of a path ("." for a top-level entry).
  public static func parent(_ path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return String(Substring(path.utf8[..<slash]))
  }

  /// `path` relative to `directory` (which must contain it).
  public static func relative(_ path: String, to directory: String) -> String {
    if directory == "." { return path }
    if path == directory { return "." }
    return String(path.dropFirst(directory.count + 1))
  }
}
