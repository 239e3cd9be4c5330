import RippleCore

/// `RepoPath.join` without its split-and-join when both sides are already normal (no empty, `.` or `..`
/// segment, no leading or trailing `/`), as nearly every path of a project is: resolving a project of
/// 12,000 files joins each of them, and the general form cost more than reading the file.
enum FastPath {
  static func join(_ base: String, _ relative: String) -> String {
    guard isNormal(relative), base == "." || isNormal(base) else { return RepoPath.join(base, relative) }
    return base == "." ? relative : base + "/" + relative
  }

  /// Whether `RepoPath.normalize(path)` is `path` itself.
  static func isNormal(_ path: String) -> Bool {
    var length = 0
    var dots = 0
    for byte in path.utf8 {
      if byte == UInt8(ascii: "/") {
        if length == 0 || (dots == length && length <= 2) { return false }
        length = 0
        dots = 0
      } else {
        length += 1
        if byte == UInt8(ascii: ".") { dots += 1 }
      }
    }
    return length > 0 && !(dots == length && length <= 2)
  }
}
