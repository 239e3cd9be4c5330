/// A value of an old-style (OpenStep) property list, as `project.pbxproj` holds them: every scalar is a
/// string, containers are arrays and dictionaries.
public enum PlistValue: Sendable, Hashable {
  case string(String)
  case array([PlistValue])
  case dictionary([String: PlistValue])

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

  public var dictionary: [String: PlistValue]? {
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
    switch self {
    case .string(let value): return quote(value)
    case .array(let values): return "(" + values.map(\.canonicalText).joined(separator: ",") + ")"
    case .dictionary(let fields):
      return "{" + fields.keys.sorted().map { quote($0) + "=" + fields[$0]!.canonicalText }.joined(separator: ";") + "}"
    }
  }

  private func quote(_ text: String) -> String {
    // Escaping only when needed: this runs for every string of a project.
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) else {
      return "\"" + text + "\""
    }
    var out = "\""
    for character in text {
      if character == "\\" || character == "\"" { out.append("\\") }
      out.append(character)
    }
    return out + "\""
  }
}
