import Foundation

/// A parsed netrc file: `machine`/`login`/`password`/`default` (and `account`, `macdef`, skipped).
package struct Netrc: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package var login: String?
    package var password: String?
  }

  var machines: [(host: String, entry: Entry)]
  var defaultEntry: Entry?

  package static func == (a: Netrc, b: Netrc) -> Bool {
    a.defaultEntry == b.defaultEntry && a.machines.map(\.host) == b.machines.map(\.host)
      && a.machines.map(\.entry) == b.machines.map(\.entry)
  }

  /// The first `machine` entry for `host` (case-insensitive), else `default`.
  package func entry(forHost host: String) -> Entry? {
    machines.first { $0.host.caseInsensitiveCompare(host) == .orderedSame }?.entry ?? defaultEntry
  }

  package init(parsing text: String) {
    var machines: [(host: String, entry: Entry)] = []
    var defaultEntry: Entry?
    var tokens = Netrc.tokens(text)[...]
    var current: Entry?
    var currentHost: String?  // nil with a current entry: the default entry

    func flush() {
      guard let entry = current else { return }
      if let host = currentHost { machines.append((host, entry)) } else { defaultEntry = entry }
      current = nil
    }

    while let token = tokens.popFirst() {
      switch token.text {
      case "machine":
        flush()
        currentHost = tokens.popFirst()?.text ?? ""
        current = Entry()
      case "default":
        flush()
        currentHost = nil
        current = Entry()
      case "login": current?.login = tokens.popFirst()?.text
      case "password": current?.password = tokens.popFirst()?.text
      case "account": _ = tokens.popFirst()
      case "macdef":
        // A macro runs until the next empty line; its body is not tokens.
        _ = tokens.popFirst()
        while let next = tokens.first, !next.afterBlankLine { tokens.removeFirst() }
      default: break
      }
    }
    flush()
    self.machines = machines
    self.defaultEntry = defaultEntry
  }

  private struct Token { var text: String; var afterBlankLine: Bool }

  /// Whitespace-separated words; `"…"` quotes with `\` escapes; `#` comments to end of line.
  private static func tokens(_ text: String) -> [Token] {
    var result: [Token] = []
    var chars = Array(text)[...]
    var newlines = 0
    while let c = chars.first {
      if c == "\n" {
        newlines += 1
        chars.removeFirst()
      } else if c.isWhitespace {
        chars.removeFirst()
      } else if c == "#" && (result.isEmpty || newlines > 0) {
        while let d = chars.first, d != "\n" { chars.removeFirst() }
      } else {
        var word = ""
        if c == "\"" {
          chars.removeFirst()
          while let d = chars.popFirst(), d != "\"" {
            if d == "\\", let escaped = chars.popFirst() { word.append(escaped) } else { word.append(d) }
          }
        } else {
          while let d = chars.first, !d.isWhitespace {
            word.append(d)
            chars.removeFirst()
          }
        }
        result.append(Token(text: word, afterBlankLine: newlines >= 2))
        newlines = 0
      }
    }
    return result
  }
}
