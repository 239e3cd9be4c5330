/// The live status line, fitted to the terminal so that it never wraps: a wrapped line is only
/// partly erased by the next redraw and leaves broken lines behind. Pure.
///
/// `[elapsed] subject — counts`: when it is too wide the subject (package, target and test name) is
/// cut in the middle with "…"; on a terminal too narrow even for that, the whole line is cut at its end.
public struct StatusLine: Sendable, Hashable {
  public var prefix: String
  public var subject: String
  public var suffix: String

  public init(prefix: String, subject: String, suffix: String) {
    self.prefix = prefix
    self.subject = subject
    self.suffix = suffix
  }

  public var text: String { prefix + subject + suffix }

  /// At most `columns - 1` columns wide: writing the last column makes some terminals wrap.
  public func fitted(columns: Int) -> String {
    let budget = columns - 1
    let subject = DisplayWidth.printable(subject)
    let whole = prefix + subject + suffix
    if DisplayWidth.of(whole) <= budget { return whole }
    let room = budget - DisplayWidth.of(prefix) - DisplayWidth.of(suffix)
    // Below this, a cut subject tells nothing ("a…b"): cut the whole line instead.
    let smallestSubject = 5
    if room >= smallestSubject { return prefix + DisplayWidth.truncatingMiddle(subject, to: room) + suffix }
    return DisplayWidth.truncatingEnd(whole, to: budget)
  }
}

/// How many terminal columns text takes, and cutting it to a number of columns.
///
/// An approximation of `wcwidth` per grapheme: East Asian wide and full-width characters and emoji
/// take two columns, combining marks and other zero-width characters none, everything else one.
public enum DisplayWidth {
  public static func of(_ text: String) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation { return 2 }
    if isZeroWidth(first) { return 0 }
    return isWide(first) ? 2 : 1
  }

  /// Control characters (a tab, a line break in a test's display name) become spaces.
  static func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
    return String(text.map { $0.unicodeScalars.first?.properties.generalCategory == .control ? " " : $0 })
  }

  /// `text` with its middle replaced by "…" so that it takes at most `columns` columns.
  public static func truncatingMiddle(_ text: String, to columns: Int) -> String {
    if of(text) <= columns { return text }
    if columns < 1 { return "" }
    let kept = columns - 1
    let head = prefix(of: Array(text), columns: kept - kept / 2)
    let tail = prefix(of: Array(text.reversed()), columns: kept / 2).reversed()
    return String(head) + "…" + String(tail)
  }

  /// `text` cut at its end with "…" so that it takes at most `columns` columns.
  public static func truncatingEnd(_ text: String, to columns: Int) -> String {
    if of(text) <= columns { return text }
    if columns < 1 { return "" }
    return String(prefix(of: Array(text), columns: columns - 1)) + "…"
  }

  /// The leading characters that fit in `columns` (a wide character that would straddle is left out).
  private static func prefix(of characters: [Character], columns: Int) -> [Character] {
    var used = 0
    var out: [Character] = []
    for character in characters {
      let width = of(character)
      if used + width > columns { break }
      used += width
      out.append(character)
    }
    return out
  }

  private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: true
    default: false
    }
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks.
  private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
      0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      true
    default: false
    }
  }
}

/// The terminal's width in columns.
public enum TerminalWidth {
  /// What the terminal reports (`TIOCGWINSZ`), else a positive `COLUMNS`, else 80.
  public static func resolve(reported: Int?, columnsVariable: String?) -> Int {
    if let reported, reported > 0 { return reported }
    if let value = columnsVariable.flatMap({ Int($0) }), value > 0 { return value }
    return 80
  }
}
