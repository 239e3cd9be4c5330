/// A value of an old-style (OpenStep) property list, as `project.pbxproj` holds them: every scalar is a
/// string, containers are arrays and dictionaries.
public enum PlistValue: Sendable, Hashable {
  case string(String)
  case array([PlistValue])
  case dictionary(PlistDictionary)

  public subscript(key: String) -> PlistValue? {
    if case .dictionary(let fields) = self { return fields[key] }
    return nil
  }

  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var array: [PlistValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  public var dictionary: PlistDictionary? {
    if case .dictionary(let value) = self { return value }
    return nil
  }

  /// The strings of an array (non-strings skipped); a lone string as a one-element list (build settings
  /// may be either).
  public var strings: [String] {
    switch self {
    case .string(let value): [value]
    case .array(let values): values.compactMap(\.string)
    case .dictionary: []
    }
  }

  /// Canonical text with sorted keys: equal values give equal text, for fingerprints.
  public var canonicalText: String {
    var out = ""
    write(into: &out)
    return out
  }

  /// Appends the canonical text to `out` (one string for the whole value, no text per level).
  private func write(into out: inout String) {
    switch self {
    case .string(let value): Self.quote(value, into: &out)
    case .array(let values):
      out.append("(")
      for (index, value) in values.enumerated() {
        if index > 0 { out.append(",") }
        value.write(into: &out)
      }
      out.append(")")
    case .dictionary(let fields):
      out.append("{")
      for (index, field) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { out.append(";") }
        Self.quote(field.key, into: &out)
        out.append("=")
        field.value.write(into: &out)
      }
      out.append("}")
    }
  }

  private static func quote(_ text: String, into out: inout String) {
    out.append("\"")
    // Escaping only when needed: this runs for every string of a project.
    if text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) {
      for character in text {
        if character == "\\" || character == "\"" { out.append("\\") }
        out.append(character)
      }
    } else {
      out.append(text)
    }
    out.append("\"")
  }
}
