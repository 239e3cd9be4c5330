import Crypto
import Foundation
import RippleCore

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

  public static let formatVersion = 4

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
    for entry in entries { text += Self.line(entry) }
    return text
  }

  private static func line(_ entry: Entry) -> String {
    escaped(entry.kind) + "\t" + escaped(entry.name) + "\t" + escaped(entry.value) + "\n"
  }

  /// The SHA-256 of `canonicalText`, hashed line by line (a key of a wide change holds thousands of lines).
  public var key: RecordKey {
    var text: [UInt8] = Array("ripple-pass-key \(Self.formatVersion)\n".utf8)
    text.reserveCapacity(items.count * 128)
    for entry in entries {
      Self.appendEscaped(entry.kind, to: &text)
      text.append(UInt8(ascii: "\t"))
      Self.appendEscaped(entry.name, to: &text)
      text.append(UInt8(ascii: "\t"))
      Self.appendEscaped(entry.value, to: &text)
      text.append(UInt8(ascii: "\n"))
    }
    return RecordKey(hex: Hex.string(SHA256.hash(data: text)))!
  }

  /// `escaped(field)`'s bytes appended to `text`: a field with nothing to escape (nearly all) is copied as it is,
  /// found by a scan of its contiguous bytes (2,000 keys of ~10³ lines each; issue 50).
  static func appendEscaped(_ field: String, to text: inout [UInt8]) {
    var field = field
    field.withUTF8 { bytes in
      guard bytes.contains(where: Self.isSpecial) else {
        text.append(contentsOf: bytes)
        return
      }
      for byte in bytes {
        switch byte {
        case 0x5C: text += [0x5C, 0x5C]
        case 0x09: text += [0x5C, UInt8(ascii: "t")]
        case 0x0A: text += [0x5C, UInt8(ascii: "n")]
        case 0x0D: text += [0x5C, UInt8(ascii: "r")]
        default: text.append(byte)
        }
      }
    }
  }

  private static func isSpecial(_ byte: UInt8) -> Bool { byte == 0x5C || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  /// `\` `\t` `\n` `\r` written as escapes, so a field never contains a separator. Byte by byte: the four are
  /// ASCII, never part of another character's UTF-8, and a `\r\n` or a `\` before a combining mark is one
  /// Swift `Character` that a match on characters would let through.
  static func escaped(_ field: String) -> String {
    guard field.utf8.contains(where: isSpecial) else { return field }
    var bytes: [UInt8] = []
    appendEscaped(field, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
