import Yams

/// The tag YAML 1.1 gives an unquoted scalar (`yes` a bool, `0x1F` an int, `~` null, …): the rules of Yams'
/// `Resolver.default`, in its order, without its regular expressions. Compiling those took ~3 ms of every
/// `ripple` run that reads `ripple.yml` (a tenth of a warm run), to classify the few dozen scalars of a
/// config. The configs are composed with `Resolver.basic` (no rules) and `YAMLValue` asks here instead; a
/// test compares this with `Resolver.default` on every kind of scalar.
enum PlainScalarTag {
  static func resolve(_ text: String) -> Tag.Name {
    let bytes = Array(text.utf8)
    if isBool(bytes) { return .bool }
    if isInt(bytes) { return .int }
    if isFloat(bytes) { return .float }
    if bytes == [UInt8(ascii: "<"), UInt8(ascii: "<")] { return .merge }
    if bytes.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL" { return .null }
    if isTimestamp(bytes) { return .timestamp }
    if text == "=" { return .value }
    return .str
  }

  static func isBool(_ bytes: [UInt8]) -> Bool {
    let words = ["yes", "no", "true", "false", "on", "off"]
    let text = String(decoding: bytes, as: UTF8.self)
    return words.contains {
      text == $0 || text == $0.uppercased() || text == $0.prefix(1).uppercased() + $0.dropFirst()
    }
  }

  /// `[-+]?` then `0b[0-1_]+`, `0o?[0-7_]+`, `0`, `[1-9][0-9_]*`, `0x[0-9a-fA-F_]+`, or the sexagesimal
  /// `[1-9][0-9_]*(:[0-5]?[0-9])+`.
  static func isInt(_ bytes: [UInt8]) -> Bool {
    var cursor = Cursor(bytes)
    cursor.skipSign()
    let body = cursor
    if cursor.take("0") {
      if cursor.atEnd { return true }
      var binary = cursor
      if binary.take("b"), binary.many(in: "01_"), binary.atEnd { return true }
      var hex = cursor
      if hex.take("x"), hex.many(in: "0123456789abcdefABCDEF_"), hex.atEnd { return true }
      var octal = cursor
      _ = octal.take("o")
      return octal.many(in: "01234567_") && octal.atEnd
    }
    cursor = body
    guard cursor.one(in: "123456789") else { return false }
    _ = cursor.many(in: "0123456789_")
    if cursor.atEnd { return true }
    return cursor.sexagesimalTail() && cursor.atEnd
  }

  /// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`, `\.[0-9_]+([eE][-+][0-9]+)?`,
  /// `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`, `[-+]?\.(inf|Inf|INF)`, `\.(nan|NaN|NAN)`.
  static func isFloat(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    if [".nan", ".NaN", ".NAN"].contains(text) { return true }
    var cursor = Cursor(bytes)
    let signed = cursor.skipSign()
    let afterSign = cursor
    if [".inf", ".Inf", ".INF"].contains(String(decoding: bytes[cursor.index...], as: UTF8.self)) { return true }
    if !signed, cursor.take("."), cursor.many(in: "0123456789_") {
      if cursor.atEnd { return true }
      return cursor.one(in: "eE") && cursor.one(in: "-+") && cursor.many(in: "0123456789") && cursor.atEnd
    }
    cursor = afterSign
    guard cursor.one(in: "0123456789") else { return false }
    _ = cursor.many(in: "0123456789_")
    var sexagesimal = cursor
    if sexagesimal.sexagesimalTail(), sexagesimal.take(".") {
      _ = sexagesimal.many(in: "0123456789_")
      if sexagesimal.atEnd { return true }
    }
    if cursor.take(".") { _ = cursor.many(in: "0123456789_") }
    if cursor.one(in: "eE") {
      _ = cursor.one(in: "-+")
      guard cursor.many(in: "0123456789") else { return false }
    }
    return cursor.atEnd
  }

  /// `yyyy-mm-dd`, or `yyyy-m-d` then `T`/`t`/blanks, `h:mm:ss`, optional `.fraction` and zone.
  static func isTimestamp(_ bytes: [UInt8]) -> Bool {
    var cursor = Cursor(bytes)
    guard cursor.digits(4...4), cursor.take("-") else { return false }
    var date = cursor
    if date.digits(2...2), date.take("-"), date.digits(2...2), date.atEnd { return true }
    guard cursor.digits(1...2), cursor.take("-"), cursor.digits(1...2) else { return false }
    if !(cursor.one(in: "Tt") || cursor.many(in: " \t")) { return false }
    guard cursor.digits(1...2), cursor.take(":"), cursor.digits(2...2), cursor.take(":"), cursor.digits(2...2)
    else { return false }
    if cursor.take(".") { _ = cursor.many(in: "0123456789") }
    if cursor.atEnd { return true }
    _ = cursor.many(in: " \t")
    if cursor.take("Z") { return cursor.atEnd }
    guard cursor.one(in: "-+"), cursor.digits(1...2) else { return false }
    if cursor.take(":") { guard cursor.digits(2...2) else { return false } }
    return cursor.atEnd
  }

  private struct Cursor {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
      guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
      index += 1
      return true
    }

    @discardableResult mutating func skipSign() -> Bool { one(in: "-+") }

    mutating func one(in set: String) -> Bool {
      guard index < bytes.count, set.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }

    /// One or more bytes of `set`.
    mutating func many(in set: String) -> Bool {
      let start = index
      while one(in: set) {}
      return index > start
    }

    /// Between `range.lowerBound` and `range.upperBound` decimal digits, as many as there are.
    mutating func digits(_ range: ClosedRange<Int>) -> Bool {
      let start = index
      while index - start < range.upperBound, one(in: "0123456789") {}
      return range.contains(index - start)
    }

    /// `(:[0-5]?[0-9])+`, greedy: each group one digit, or two of which the first is 0–5.
    mutating func sexagesimalTail() -> Bool {
      var groups = 0
      while index < bytes.count, bytes[index] == UInt8(ascii: ":") {
        var next = self
        next.index += 1
        var two = next
        if two.one(in: "012345"), two.one(in: "0123456789") {
          next = two
        } else if !next.one(in: "0123456789") {
          break
        }
        self = next
        groups += 1
      }
      return groups > 0
    }
  }
}
