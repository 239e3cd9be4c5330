import Crypto
import Foundation

/// Everything a test target's run depends on, as named entries; its `key` is what a pass is recorded
/// under. `ripple test --explain-key TARGET` prints the entries, so a user can see why two runs differ.
///
/// The key is the SHA-256 of a canonical text: a header line with the format's version, then one line per
/// entry sorted by kind, name and value, each field escaped so no value can forge a line break or a
/// field separator. Adding an input kind changes keys only where it has entries; changing the
/// canonical form means a new header version, so old records are simply never found again.
public struct KeyInputs: Sendable, Hashable, Codable {
  public struct Entry: Sendable, Hashable, Codable, Comparable {
    /// What kind of input: `toolchain`, `flags`, `run`, `environment`, `target`, `file`, `manifest`,
    /// `pins`, `asset`, ….
    public var kind: String
    /// Which one: a path, a variable, `package:Target`.
    public var name: String
    /// Its content: a git blob id, a SHA-256, a value.
    public var value: String

    public init(_ kind: String, _ name: String, _ value: String) {
      self.kind = kind
      self.name = name
      self.value = value
    }

    public static func < (lhs: Entry, rhs: Entry) -> Bool {
      (lhs.kind, lhs.name, lhs.value) < (rhs.kind, rhs.name, rhs.value)
    }
  }

  public static let formatVersion = 3

  /// In the order they were added: sorted once, when the text is made (a key of a large target has ~10⁵
  /// entries; keeping them sorted on every add was quadratic).
  private var items: [Entry]

  public init(_ entries: [Entry] = []) { self.items = entries }

  /// Every entry, sorted by kind, name and value.
  public var entries: [Entry] { items.sorted() }

  public mutating func add(_ kind: String, _ name: String, _ value: String) {
    items.append(Entry(kind, name, value))
  }

  public mutating func add(contentsOf other: KeyInputs) { items += other.items }

  public mutating func add(contentsOf entries: [Entry]) { items += entries }

  public static func == (lhs: KeyInputs, rhs: KeyInputs) -> Bool { lhs.entries == rhs.entries }

  public func hash(into hasher: inout Hasher) { hasher.combine(entries) }

  /// The text the key hashes.
  public var canonicalText: String {
    var text = "ripple-pass-key \(Self.formatVersion)\n"
    for entry in entries {
      text += Self.escaped(entry.kind) + "\t" + Self.escaped(entry.name) + "\t" + Self.escaped(entry.value) + "\n"
    }
    return text
  }

  public var key: RecordKey {
    let digest = SHA256.hash(data: Data(canonicalText.utf8))
    return RecordKey(hex: digest.map { String(format: "%02x", $0) }.joined())!
  }

  /// `\` `\t` `\n` `\r` written as escapes, so a field never contains a separator.
  static func escaped(_ field: String) -> String {
    guard field.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return field }
    var out = ""
    for character in field {
      switch character {
      case "\\": out += "\\\\"
      case "\t": out += "\\t"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      default: out.append(character)
      }
    }
    return out
  }
}
