/// Text from outside (a pass record's or a history slot's fields, a store's answer, a commit subject) made safe
/// to print on a terminal, in a log, in GitHub's annotations and in a markdown summary: nothing in it can move
/// the cursor, colour the terminal, start a new line, reorder what follows, or become a GitHub workflow command.
public enum TerminalText {
  /// `text` on one line: control characters (C0, DEL, C1: ESC and so every ANSI sequence, line breaks, tab),
  /// format characters (bidi controls such as U+202E, zero-width ones) and the line and paragraph separators
  /// become `\u{…}`; every `::` becomes `:\:` (a line starting with `::` is a GitHub workflow command).
  public static func quoted(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    var previousColon = false
    for scalar in text.unicodeScalars {
      if needsEscape(scalar) {
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        previousColon = false
      } else if scalar == ":" {
        out += previousColon ? "\\:" : ":"
        previousColon = true
      } else {
        out.unicodeScalars.append(scalar)
        previousColon = false
      }
    }
    return out
  }

  /// Whether `scalar` is one `quoted` escapes.
  public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }
}
