/// A small JSON reader and canonical writer for `JSONValue`.
///
/// Foundation's decoders were the bottleneck of a warm (fully cached) graph load: decoding an untyped
/// document through `Codable` tries each type in turn and pays for every failed attempt.
extension JSONValue {
  struct SyntaxError: Error, CustomStringConvertible {
    var offset: Int
    var description: String { "invalid JSON at byte \(offset)" }
  }

  static func parse(_ bytes: [UInt8]) throws -> JSONValue {
    var reader = Reader(bytes: bytes)
    let value = try reader.value()
    reader.skipWhitespace()
    guard reader.index == bytes.count else { throw SyntaxError(offset: reader.index) }
    return value
  }

  /// Compact JSON with object keys sorted: equal values always give equal text.
  var canonicalText: String {
    var output = ""
    write(to: &output)
    return output
  }

  private func write(to output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .int(let value): output += String(value)
    case .double(let value): output += "\(value)"
    case .string(let value): Self.writeString(value, to: &output)
    case .array(let items):
      output += "["
      for (index, item) in items.enumerated() {
        if index > 0 { output += "," }
        item.write(to: &output)
      }
      output += "]"
    case .object(let fields):
      output += "{"
      for (index, key) in fields.keys.sorted().enumerated() {
        if index > 0 { output += "," }
        Self.writeString(key, to: &output)
        output += ":"
        fields[key]!.write(to: &output)
      }
      output += "}"
    }
  }

  private static func writeString(_ value: String, to output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x0A, 0x0D, 0x09: index += 1
        default: return
        }
      }
    }

    mutating func value() throws -> JSONValue {
      skipWhitespace()
      guard index < bytes.count else { throw SyntaxError(offset: index) }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try object()
      case UInt8(ascii: "["): return try array()
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      default: return try number()
      }
    }

    mutating func expect(_ byte: UInt8) throws {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == byte else { throw SyntaxError(offset: index) }
      index += 1
    }

    /// True (and consumes it) when the next non-blank byte is `byte`.
    mutating func consume(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func object() throws -> JSONValue {
      try expect(UInt8(ascii: "{"))
      var fields: [String: JSONValue] = [:]
      if consume(UInt8(ascii: "}")) { return .object(fields) }
      repeat {
        skipWhitespace()
        let key = try string()
        try expect(UInt8(ascii: ":"))
        fields[key] = try value()
      } while consume(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"))
      return .object(fields)
    }

    mutating func array() throws -> JSONValue {
      try expect(UInt8(ascii: "["))
      var items: [JSONValue] = []
      if consume(UInt8(ascii: "]")) { return .array(items) }
      repeat { items.append(try value()) } while consume(UInt8(ascii: ","))
      try expect(UInt8(ascii: "]"))
      return .array(items)
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
      let word = Array(word.utf8)
      guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else {
        throw SyntaxError(offset: index)
      }
      index += word.count
      return value
    }

    mutating func number() throws -> JSONValue {
      let start = index
      var isInteger = true
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
          isInteger = false
        } else if !(byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || (0x30...0x39).contains(byte)) {
          break
        }
        index += 1
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      if isInteger, let value = Int(text) { return .int(value) }
      guard let value = Double(text) else { throw SyntaxError(offset: start) }
      return .double(value)
    }

    mutating func string() throws -> String {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw SyntaxError(offset: index) }
      index += 1
      var scalars = String.UnicodeScalarView()
      var run = index  // start of the current run of plain bytes
      func flush(_ end: Int) {
        scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
      }
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          flush(index)
          index += 1
          return String(scalars)
        }
        guard byte == UInt8(ascii: "\\") else {
          index += 1
          continue
        }
        flush(index)
        index += 1
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
        default: scalars.append(Unicode.Scalar(escape))
        }
        run = index
      }
      throw SyntaxError(offset: index)
    }

    /// The scalar of `\uXXXX` (the `\u` already read), joining a surrogate pair.
    mutating func unicodeEscape() throws -> Unicode.Scalar {
      let high = try hex4()
      if (0xD800..<0xDC00).contains(high), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      {
        index += 2
        let low = try hex4()
        if let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) { return scalar }
      }
      return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    mutating func hex4() throws -> UInt32 {
      guard bytes.count - index >= 4,
        let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
      else { throw SyntaxError(offset: index) }
      index += 4
      return value
    }
  }
}
