import Foundation

/// A fragment of HTML or SVG markup that is safe to insert as is.
///
/// Build it with a string literal: the literal parts are trusted markup written in this module, and every `String`
/// interpolated into it is escaped. There is deliberately no interpolation for optionals or arbitrary values, so data
/// can only reach a page through `escape`.
struct Markup: ExpressibleByStringInterpolation, Sendable, Hashable, CustomStringConvertible {
  var rendered: String

  init(stringLiteral value: String) { rendered = value }
  init(stringInterpolation: StringInterpolation) { rendered = stringInterpolation.output }
  /// Markup produced elsewhere in this module (never data).
  init(trusted: String) { rendered = trusted }

  var description: String { rendered }

  static let empty: Markup = ""

  static func + (lhs: Markup, rhs: Markup) -> Markup { Markup(trusted: lhs.rendered + rhs.rendered) }
  static func += (lhs: inout Markup, rhs: Markup) { lhs.rendered += rhs.rendered }

  struct StringInterpolation: StringInterpolationProtocol {
    var output = ""

    init(literalCapacity: Int, interpolationCount: Int) {
      output.reserveCapacity(literalCapacity + interpolationCount * 16)
    }

    mutating func appendLiteral(_ literal: String) { output += literal }
    /// Data: escaped for text and for attribute values (single or double quoted).
    mutating func appendInterpolation(_ text: String) { Markup.escape(text, into: &output) }
    mutating func appendInterpolation(_ markup: Markup) { output += markup.rendered }
    mutating func appendInterpolation(_ parts: [Markup]) {
      for part in parts { output += part.rendered }
    }
    mutating func appendInterpolation<Number: BinaryInteger>(_ number: Number) { output += String(number) }
    /// A coordinate or size in an SVG attribute: at most one decimal, no exponent, "-0" never appears.
    mutating func appendInterpolation(coordinate value: Double) { output += Markup.coordinate(value) }
  }

  /// Joins fragments with a separator written in this module.
  static func join(_ parts: [Markup], separator: Markup = "") -> Markup {
    Markup(trusted: parts.map(\.rendered).joined(separator: separator.rendered))
  }

  /// Escapes `&`, `<`, `>`, `"` and `'`, drops terminal escape sequences (`ESC [ … m`), and replaces every other
  /// character XML 1.0 forbids (control characters, U+FFFE/U+FFFF) with U+FFFD, so the result is well-formed text
  /// or attribute content in HTML, XHTML and SVG.
  static func escape(_ text: String) -> String {
    var output = ""
    escape(text, into: &output)
    return output
  }

  static func escape(_ text: String, into output: inout String) {
    output.reserveCapacity(output.utf8.count + text.utf8.count)
    var scalars = text.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    while let scalar = pending ?? scalars.next() {
      pending = nil
      // Terminal colour codes in test output (ESC [ parameters final-byte) are dropped as a whole.
      if scalar == "\u{1B}" {
        guard let next = scalars.next() else { break }
        guard next == "[" else {
          pending = next
          continue
        }
        while let byte = scalars.next(), !(0x40...0x7E).contains(byte.value) {}
        continue
      }
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
      default:
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFFFE || value == 0xFFFF {
          output += "\u{FFFD}"
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
  }

  static func coordinate(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let tenths = (value * 10).rounded()
    if tenths == 0 { return "0" }
    let whole = Int(tenths / 10)
    let fraction = Int(abs(tenths).truncatingRemainder(dividingBy: 10))
    if fraction == 0 { return String(whole) }
    return (tenths < 0 && whole == 0 ? "-0" : String(whole)) + "." + String(fraction)
  }
}

extension Array where Element == Markup {
  func joined(separator: Markup = "") -> Markup { Markup.join(self, separator: separator) }
}
