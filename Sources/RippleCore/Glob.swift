/// A path glob, anchored at the repository root, as used in `ripple.yml`.
///
/// `*` matches within one path segment, `**` matches zero or more whole segments, `?` one character,
/// `[abc]`/`[a-z]`/`[!a]` a character class. A trailing `/` matches a directory and everything in it.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
  public let pattern: String
  private let segments: [Segment]

  /// One `/`-separated part of a pattern, compiled once: most are a literal name, `*`, `**` or `*.ext`, which
  /// need no character-by-character match (a 10⁶-line `--changed-files` list asks every glob of every path).
  private enum Segment: Sendable, Hashable {
    case anyDepth
    case anyName
    case literal([Unicode.Scalar])
    case suffix([Unicode.Scalar])
    case wildcard([Unicode.Scalar])

    init(_ text: Substring) {
      let scalars = Array(text.unicodeScalars)
      let special = { (scalar: Unicode.Scalar) in scalar == "*" || scalar == "?" || scalar == "[" }
      if text == "**" {
        self = .anyDepth
      } else if text == "*" {
        self = .anyName
      } else if !scalars.contains(where: special) {
        self = .literal(scalars)
      } else if scalars.first == "*", !scalars.dropFirst().contains(where: special) {
        self = .suffix(Array(scalars.dropFirst()))
      } else {
        self = .wildcard(scalars)
      }
    }

    /// A literal name or `*.ext`: what a path's last name alone can be held to.
    var isName: Bool {
      switch self {
      case .literal, .suffix: return true
      case .anyDepth, .anyName, .wildcard: return false
      }
    }

    func matches(_ part: Substring) -> Bool {
      switch self {
      case .anyDepth, .anyName: return true
      case .literal(let name): return part.unicodeScalars.elementsEqual(name)
      case .suffix(let end):
        let scalars = part.unicodeScalars
        guard let start = scalars.index(scalars.endIndex, offsetBy: -end.count, limitedBy: scalars.startIndex)
        else { return false }
        return scalars[start...].elementsEqual(end)
      case .wildcard(let pattern): return Glob.matchSegment(pattern[...], Array(part.unicodeScalars)[...])
      }
    }
  }

  public init(_ pattern: String) {
    var p = pattern
    while p.hasPrefix("./") { p.removeFirst(2) }
    if p.hasSuffix("/") { p += "**" }
    self.pattern = pattern
    self.segments = p.split(separator: "/", omittingEmptySubsequences: true).map(Segment.init)
  }

  public var description: String { pattern }

  public static func == (lhs: Glob, rhs: Glob) -> Bool { lhs.pattern == rhs.pattern }
  public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

  /// Whether `path` (repo-relative, `/`-separated) matches.
  public func matches(_ path: String) -> Bool {
    // A pattern ending in a name or `*.ext` turns most paths away by their last name, without splitting them;
    // `**/<name>` and `**/*.ext` are decided by it.
    if let last = segments.last, last.isName, path.utf8.last != UInt8(ascii: "/") {
      let name = RepoPath.name(path)
      guard !name.isEmpty, last.matches(name) else { return false }
      if segments.count == 2, segments[0] == .anyDepth { return true }
    }
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    return Self.match(segments[...], parts[...])
  }

  private static func match(_ pattern: ArraySlice<Segment>, _ path: ArraySlice<Substring>) -> Bool {
    guard let first = pattern.first else { return path.isEmpty }
    if first == .anyDepth {
      let rest = pattern.dropFirst()
      if rest.isEmpty { return true }
      var remaining = path
      while true {
        if match(rest, remaining) { return true }
        guard !remaining.isEmpty else { return false }
        remaining = remaining.dropFirst()
      }
    }
    guard let segment = path.first, first.matches(segment) else { return false }
    return match(pattern.dropFirst(), path.dropFirst())
  }

  fileprivate static func matchSegment(_ p: ArraySlice<Unicode.Scalar>, _ s: ArraySlice<Unicode.Scalar>) -> Bool {
    var p = p
    var s = s
    while let c = p.first {
      switch c {
      case "*":
        let rest = p.drop(while: { $0 == "*" })
        if rest.isEmpty { return true }
        var tail = s
        while true {
          if matchSegment(rest, tail) { return true }
          guard !tail.isEmpty else { return false }
          tail = tail.dropFirst()
        }
      case "?":
        guard !s.isEmpty else { return false }
        p = p.dropFirst()
        s = s.dropFirst()
      case "[":
        guard let ch = s.first, let (matched, rest) = matchClass(p.dropFirst(), ch) else {
          if s.first == "[" { p = p.dropFirst(); s = s.dropFirst(); continue }
          return false
        }
        guard matched else { return false }
        p = rest
        s = s.dropFirst()
      default:
        guard s.first == c else { return false }
        p = p.dropFirst()
        s = s.dropFirst()
      }
    }
    return s.isEmpty
  }

  /// Matches `ch` against a class starting after `[`; returns nil when the class is not closed.
  private static func matchClass(_ p: ArraySlice<Unicode.Scalar>, _ ch: Unicode.Scalar)
    -> (Bool, ArraySlice<Unicode.Scalar>)?
  {
    var p = p
    var negate = false
    if let f = p.first, f == "!" || f == "^" { negate = true; p = p.dropFirst() }
    var matched = false
    var first = true
    while let c = p.first {
      if c == "]" && !first { return (matched != negate, p.dropFirst()) }
      first = false
      p = p.dropFirst()
      if p.first == "-", let hi = p.dropFirst().first, hi != "]" {
        if c <= ch && ch <= hi { matched = true }
        p = p.dropFirst(2)
      } else if c == ch {
        matched = true
      }
    }
    return nil
  }
}
