/// A reader of old-style (OpenStep) property lists, the text `project.pbxproj` is written in, over bytes
/// (docs/DESIGN.md, rule 12). It accepts what Foundation's `PropertyListSerialization` accepts for such a
/// file (CoreFoundation's CFOldStylePList.c is the reference: the same unquoted characters, comments,
/// quoting, escapes, `key;` shorthand, trailing commas, `<hex>` data given as Base64 text like
/// `ProjectFileReader.plistValue`), and gives the same values; a differential test compares the two on
/// every project file of the tests. It is stricter on what no tool writes: an unknown escape, text after
/// the top-level value, and bytes that are not UTF-8 are errors.
///
/// One pass, no Foundation: a project of 4 MiB reads in a few tens of milliseconds where Foundation takes
/// several hundred.
public enum OpenStepPlist {
  /// Why the bytes are not a property list, and the line (1-based) where the reader stopped.
  public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public var description: String { "line \(line): \(message)" }
  }

  /// Nesting deeper than this is an error, not a stack overflow.
  static let maximumDepth = 256

  public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> PlistValue {
    if bytes.starts(with: Array("bplist".utf8)) {
      throw SyntaxError(line: 1, message: "it is a binary property list, not the text Xcode writes")
    }
    if let bad = firstInvalidUTF8(bytes) {
      throw SyntaxError(line: lineNumber(of: bad, in: bytes), message: "it is not UTF-8 text (byte \(bad + 1))")
    }
    let result: Result<PlistValue, SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
      var scanner = Scanner(bytes: buffer)
      do throws(SyntaxError) {
        return .success(try scanner.document())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The offset of the first byte that does not belong to a valid UTF-8 sequence, if any.
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var index = 0
    let count = bytes.count
    return bytes.withUnsafeBufferPointer { buffer -> Int? in
      while index < count {
        // ASCII eight bytes at a time (nearly all of a project file).
        if index + 8 <= count {
          let word = UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
          if word & 0x8080_8080_8080_8080 == 0 {
            index += 8
            continue
          }
        }
        let byte = buffer[index]
        if byte < 0x80 {
          index += 1
          continue
        }
        let length: Int
        switch byte {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return index
        }
        guard index + length <= count else { return index }
        for offset in 1..<length where buffer[index + offset] & 0xC0 != 0x80 { return index }
        let second = buffer[index + 1]
        if (byte == 0xE0 && second < 0xA0) || (byte == 0xED && second > 0x9F) || (byte == 0xF0 && second < 0x90)
          || (byte == 0xF4 && second > 0x8F)
        {
          return index
        }
        index += length
      }
      return nil
    }
  }

  /// The 1-based line of `offset` (`\n`, `\r\n` and a lone `\r` end a line).
  static func lineNumber(of offset: Int, in bytes: some Collection<UInt8>) -> Int {
    var line = 1
    var previous: UInt8 = 0
    for byte in bytes.prefix(offset) {
      if byte == 10 {
        if previous != 13 { line += 1 }
      } else if byte == 13 {
        line += 1
      }
      previous = byte
    }
    return line
  }

  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    /// Whether the last string read held an escape (its text is not the bytes it was read from).
    var lastStringEscaped = false
    /// Where the last string read started and ended in `bytes` (its quotes excluded).
    var lastStringRange = 0..<0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func document() throws(SyntaxError) -> PlistValue {
      guard try skipSpace() else { throw SyntaxError(line: 1, message: "the file is empty") }
      let value = try self.value()
      if try skipSpace() {
        throw error("unexpected \(describe(bytes[index])) after the end of the top-level value")
      }
      return value
    }

    // MARK: - Values

    mutating func value() throws(SyntaxError) -> PlistValue {
      guard try skipSpace() else { throw error("the file ends where a value is expected (truncated?)") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try dictionary()
      case UInt8(ascii: "("): return try array()
      case UInt8(ascii: "<"): return try data()
      case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try quoted())
      case let byte where Self.isUnquoted(byte): return .string(unquoted())
      case let byte: throw error("unexpected \(describe(byte)) where a value is expected")
      }
    }

    mutating func dictionary() throws(SyntaxError) -> PlistValue {
      let open = index
      index += 1
      try enter(at: open)
      defer { depth -= 1 }
      // Each container gathers its own values (moved as the buffer grows, never copied or re-hashed) and
      // keeps them: a shared stack of pending values cost a retain and release per value taken off it.
      var fields: [PlistDictionary.Entry] = []
      fields.reserveCapacity(8)
      while true {
        guard try skipSpace() else {
          throw error("the dictionary opened on line \(line(open)) is not closed", at: open)
        }
        if bytes[index] == UInt8(ascii: "}") {
          index += 1
          // A key given twice keeps its last value in the file, as Foundation does (`PlistDictionary`).
          return .dictionary(PlistDictionary(uniquing: fields))
        }
        let key = try string(what: "a dictionary key")
        let keyHash =
          lastStringEscaped
          ? PlistDictionary.hash(key)
          : PlistDictionary.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[lastStringRange])))
        guard try skipSpace() else { throw error("the file ends after the key `\(key)` (truncated?)") }
        let value: PlistValue
        switch bytes[index] {
        case UInt8(ascii: "="):
          index += 1
          value = try self.value()
        case UInt8(ascii: ";"):
          // `key;` stands for `key = key;` (strings-file shorthand, accepted by Foundation).
          value = .string(key)
        case let byte:
          throw error("expected `=` after the key `\(key)`, found \(describe(byte))")
        }
        guard try skipSpace() else { throw error("missing `;` after the value of `\(key)` (truncated?)") }
        guard bytes[index] == UInt8(ascii: ";") else {
          throw error("missing `;` after the value of `\(key)`, found \(describe(bytes[index]))")
        }
        index += 1
        fields.append(PlistDictionary.Entry(key: key, value: value, hash: keyHash))
      }
    }

    mutating func array() throws(SyntaxError) -> PlistValue {
      let open = index
      index += 1
      try enter(at: open)
      defer { depth -= 1 }
      var items: [PlistValue] = []
      while true {
        guard try skipSpace() else { throw error("the array opened on line \(line(open)) is not closed", at: open) }
        if bytes[index] == UInt8(ascii: ")") {
          index += 1
          return .array(items)
        }
        let item = try value()
        items.append(item)
        guard try skipSpace() else { throw error("the array opened on line \(line(open)) is not closed", at: open) }
        switch bytes[index] {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: ")"):
          index += 1
          return .array(items)
        case let byte:
          throw error("expected `,` or `)` in the array opened on line \(line(open)), found \(describe(byte))")
        }
      }
    }

    /// `<0fbd 7a>`: bytes in hex, given as Base64 text (as Foundation's `Data` is mapped).
    mutating func data() throws(SyntaxError) -> PlistValue {
      let open = index
      index += 1
      var decoded: [UInt8] = []
      var high: UInt8?
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ">") {
          guard high == nil else { throw error("odd number of hex digits in data", at: open) }
          return .string(Self.base64(decoded))
        }
        if byte == 32 || byte == 9 || byte == 10 || byte == 13 { continue }
        guard let digit = Self.hexValue(byte) else { throw error("\(describe(byte)) in hex data") }
        if let first = high {
          decoded.append(first << 4 | digit)
          high = nil
        } else {
          high = digit
        }
      }
      throw error("the data opened on line \(line(open)) is not closed", at: open)
    }

    mutating func string(what: String) throws(SyntaxError) -> String {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return try quoted() }
      guard Self.isUnquoted(byte) else { throw error("unexpected \(describe(byte)) where \(what) is expected") }
      return unquoted()
    }

    mutating func unquoted() -> String {
      let start = index
      // A local cursor: `self.index` would be stored back at every byte.
      var end = index
      let count = bytes.count
      let base = bytes.baseAddress!
      while end < count && Self.isUnquoted(base[end]) { end += 1 }
      index = end
      lastStringEscaped = false
      lastStringRange = start..<index
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    mutating func quoted() throws(SyntaxError) -> String {
      let quote = bytes[index]
      let open = index
      index += 1
      let start = index
      // Most strings hold no escape: one scan, one copy.
      while index < bytes.count {
        let byte = bytes[index]
        if byte == quote {
          let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
          lastStringEscaped = false
          lastStringRange = start..<index
          index += 1
          return text
        }
        if byte == UInt8(ascii: "\\") { break }
        index += 1
      }
      var text = Array(bytes[start..<index])
      while index < bytes.count {
        let byte = bytes[index]
        if byte == quote {
          index += 1
          lastStringEscaped = true
          return String(decoding: text, as: UTF8.self)
        }
        if byte == UInt8(ascii: "\\") {
          try escape(into: &text)
        } else {
          text.append(byte)
          index += 1
        }
      }
      throw error("the quoted string starting on line \(line(open)) is not closed", at: open)
    }

    /// The escape at `index` (a backslash), appended to `text` as UTF-8.
    mutating func escape(into text: inout [UInt8]) throws(SyntaxError) {
      let slash = index
      index += 1
      guard index < bytes.count else { throw error("the file ends inside an escape (truncated?)", at: slash) }
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        // Up to three octal digits, a byte of NeXTSTEP's encoding (ASCII below 0x80, as Latin-1 above here).
        var value = UInt32(byte - UInt8(ascii: "0"))
        for _ in 0..<2 {
          guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) else { break }
          value = (value << 3 + UInt32(bytes[index] - UInt8(ascii: "0"))) & 0xFF
          index += 1
        }
        append(scalar: value, to: &text)
      case UInt8(ascii: "U"):
        var value: UInt32 = 0
        var digits = 0
        while digits < 4, index < bytes.count, let digit = Self.hexValue(bytes[index]) {
          value = value << 4 | UInt32(digit)
          index += 1
          digits += 1
        }
        guard digits > 0 else { throw error("`\\U` without hex digits", at: slash) }
        // A UTF-16 surrogate pair is written as two escapes.
        if (0xD800...0xDBFF).contains(value), index + 5 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "U")
        {
          var low: UInt32 = 0
          var lowDigits = 0
          while lowDigits < 4, let digit = Self.hexValue(bytes[index + 2 + lowDigits]) {
            low = low << 4 | UInt32(digit)
            lowDigits += 1
          }
          if lowDigits == 4, (0xDC00...0xDFFF).contains(low) {
            value = 0x10000 + (value - 0xD800) << 10 + (low - 0xDC00)
            index += 6
          }
        }
        append(scalar: value, to: &text)
      case UInt8(ascii: "a"): text.append(7)
      case UInt8(ascii: "b"): text.append(8)
      case UInt8(ascii: "f"): text.append(12)
      case UInt8(ascii: "n"), 10: text.append(10)
      case UInt8(ascii: "r"): text.append(13)
      case UInt8(ascii: "t"): text.append(9)
      case UInt8(ascii: "v"): text.append(11)
      case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
      default: throw error("unknown escape `\\\(Character(Unicode.Scalar(byte)))`", at: slash)
      }
    }

    func append(scalar value: UInt32, to text: inout [UInt8]) {
      let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
      text.append(contentsOf: String(Character(scalar)).utf8)
    }

    // MARK: - Space and comments

    /// Skips white space and comments; false at the end of the bytes.
    mutating func skipSpace() throws(SyntaxError) -> Bool {
      let count = bytes.count
      while index < count {
        let byte = bytes[index]
        if byte == 32 || (byte >= 9 && byte <= 13) {
          index += 1
        } else if byte == UInt8(ascii: "/") && index + 1 < count && bytes[index + 1] == UInt8(ascii: "/") {
          index += 2
          while index < count && bytes[index] != 10 && bytes[index] != 13 { index += 1 }
        } else if byte == UInt8(ascii: "/") && index + 1 < count && bytes[index + 1] == UInt8(ascii: "*") {
          let open = index
          index += 2
          while true {
            skipToStar()
            guard index + 1 < count else {
              throw error("the comment opened on line \(line(open)) is not closed", at: open)
            }
            if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") {
              index += 2
              break
            }
            index += 1
          }
        } else if byte == 0xE2 && index + 2 < count && bytes[index + 1] == 0x80
          && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
        {
          index += 3  // U+2028, U+2029: line and paragraph separators
        } else {
          return true
        }
      }
      return false
    }

    /// Moves `index` over the bytes of a comment that are not `*`, eight at a time (nearly every object
    /// id of a project file is followed by a `/* name */` comment: a third of its bytes).
    mutating func skipToStar() {
      let count = bytes.count
      let base = bytes.baseAddress!
      while index + 8 <= count {
        // A byte of the word equals `*` exactly when a byte of the XOR is zero.
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x2A2A_2A2A_2A2A_2A2A
        if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
        index += 8
      }
      while index < count && bytes[index] != UInt8(ascii: "*") { index += 1 }
    }

    // MARK: - Helpers

    mutating func enter(at offset: Int) throws(SyntaxError) {
      depth += 1
      if depth > OpenStepPlist.maximumDepth {
        throw error("values nested more than \(OpenStepPlist.maximumDepth) deep", at: offset)
      }
    }

    func line(_ offset: Int) -> Int { OpenStepPlist.lineNumber(of: offset, in: bytes) }

    func error(_ message: String, at offset: Int? = nil) -> SyntaxError {
      SyntaxError(line: line(offset ?? index), message: message)
    }

    func describe(_ byte: UInt8) -> String {
      byte >= 0x21 && byte < 0x7F ? "`\(Character(Unicode.Scalar(byte)))`" : "byte 0x" + String(byte, radix: 16)
    }

    /// `a`–`z`, `A`–`Z`, `0`–`9`, `_`, `$`, `/`, `:`, `.`, `-`: one bit per byte below 128 (a test per
    /// byte of every id and name, cheaper as a shift than as a chain of ranges).
    @inline(__always) static func isUnquoted(_ byte: UInt8) -> Bool {
      let low: UInt64 = 1 << 36 | 0b111 << 45 | 0x3FF << 48 | 1 << 58  // $ - . / 0-9 :
      let high: UInt64 = 0x3FF_FFFF << 1 | 1 << 31 | 0x3FF_FFFF << 33  // A-Z _ a-z
      if byte < 64 { return low >> UInt64(byte) & 1 != 0 }
      if byte < 128 { return high >> UInt64(byte - 64) & 1 != 0 }
      return false
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
      default: nil
      }
    }

    static func base64(_ bytes: [UInt8]) -> String {
      let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
      var out: [UInt8] = []
      var index = 0
      while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
        for position in 0..<4 {
          out.append(
            position <= chunk.count ? alphabet[Int(value >> (18 - 6 * UInt32(position)) & 63)] : UInt8(ascii: "="))
        }
        index += 3
      }
      return String(decoding: out, as: UTF8.self)
    }
  }
}
