/// Escaping for values pasted between the quotes of a Swift string literal (`"…"`).
///
/// Backslash and quote are escaped, so `\(` can never start an interpolation; line breaks, tabs and
/// every other control character become escapes, so the literal stays on one line.
public enum SwiftStringEscaping {
  public static func escape(_ value: String) -> String {
    var result = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
        || scalar.value == 0x2029:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// The inverse of `escape` (for the escapes it produces); nil for anything else.
  public static func unescape(_ literal: String) -> String? {
    var result = String.UnicodeScalarView()
    var scalars = literal.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == "\"" { return nil }
      guard scalar == "\\" else {
        result.append(scalar)
        continue
      }
      switch scalars.next() {
      case "\\": result.append("\\")
      case "\"": result.append("\"")
      case "n": result.append("\n")
      case "r": result.append("\r")
      case "t": result.append("\t")
      case "0": result.append("\0")
      case "u":
        guard scalars.next() == "{" else { return nil }
        var hex = ""
        while let digit = scalars.next(), digit != "}" { hex.unicodeScalars.append(digit) }
        guard let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
        result.append(decoded)
      default: return nil
      }
    }
    return String(result)
  }
}
