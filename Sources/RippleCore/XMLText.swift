/// Text for XML 1.0 attribute values and content, as the JUnit report and the Cobertura coverage report write it.
public enum XMLText {
  /// `&`, `<`, `>`, `"`, `'` and the line breaks and tab escaped (attribute values keep them); a character XML 1.0
  /// cannot carry (other control characters, lone surrogates' replacements, U+FFFE/U+FFFF) becomes U+FFFD.
  public static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\r": out += "&#13;"
      case "\t": out += "&#9;"
      default:
        let v = scalar.value
        let allowed = (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000
        out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
      }
    }
    return out
  }
}
