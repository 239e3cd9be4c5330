import RippleConfig
import RippleCore
import Yams

/// A YAML node with the file and key path it came from, so every validation error can say where it is.
struct YAMLValue {
  let node: Node
  let file: String
  /// Dotted key path from the document root, e.g. `selection.inputs.Net[0]`.
  let keyPath: String

  func error(_ message: String, hint: String? = nil) -> ConfigError {
    location.error(message, hint: hint)
  }

  var location: ConfigLocation {
    ConfigLocation(file: file, line: node.mark?.line, column: node.mark?.column, keyPath: keyPath)
  }

  /// A mapping key: Yams' duplicate check has already resolved its tag (to `str`, by `Resolver.basic`).
  var isKey = false

  /// The resolved tag (`str`, `int`, `null`, …); Yams keeps `Tag.name` internal, so go through `rawValue`.
  /// Configs are composed with Yams' `Resolver.basic`, which leaves an untagged scalar's tag empty until
  /// first asked: an unquoted one is classified by `PlainScalarTag` (YAML 1.1, as `Resolver.default` would,
  /// without its regexes) and an explicit tag (`!!str 1.0`) is kept. An unquoted key, resolved already, is
  /// classified again (so `1:` is a number; `!!str` on a key is not honoured: quote it).
  var tagName: Tag.Name {
    if case .scalar(let scalar) = node, scalar.style == .plain {
      let raw = scalar.tag.rawValue
      if raw.isEmpty || (isKey && raw == Tag.Name.str.rawValue) { return PlainScalarTag.resolve(scalar.string) }
    }
    return Tag.Name(rawValue: node.tag.rawValue)
  }

  var isNull: Bool { tagName == .null }

  /// A short description of the node's type, for "expected X, found Y" messages.
  var typeDescription: String {
    switch node {
    case .mapping: "a mapping"
    case .sequence: "a list"
    case .alias: "an alias"
    case .scalar(let scalar):
      switch tagName {
      case .null: "nothing (null)"
      case .str: "the string `\(scalar.string)`"
      case .int: "the number `\(scalar.string)`"
      case .float: "the number `\(scalar.string)`"
      case .bool: "the boolean `\(scalar.string)`"
      default: "`\(scalar.string)`"
      }
    }
  }

  /// The entries of a mapping, in file order; a null value counts as an empty mapping.
  /// Keys must be strings and (when `allowedKeys` is given) among them. Yams already rejects duplicates.
  func mappingEntries(allowedKeys: [String]? = nil) throws -> [(key: String, value: YAMLValue)] {
    if isNull { return [] }
    guard case .mapping(let mapping) = node else {
      throw error("expected a mapping, found \(typeDescription)")
    }
    var entries: [(key: String, value: YAMLValue)] = []
    for (keyNode, valueNode) in mapping {
      let keyValue = YAMLValue(node: keyNode, file: file, keyPath: keyPath, isKey: true)
      guard case .scalar(let scalar) = keyNode, keyValue.tagName == .str else {
        throw keyValue.error("keys must be strings, found \(keyValue.typeDescription)", hint: "quote the key")
      }
      let key = scalar.string
      let child = YAMLValue(node: valueNode, file: file, keyPath: keyPath.isEmpty ? key : "\(keyPath).\(key)")
      let keyAtPath = YAMLValue(node: keyNode, file: file, keyPath: child.keyPath, isKey: true)
      if let allowedKeys, !allowedKeys.contains(key) {
        throw keyAtPath.error("unknown key `\(key)`", hint: Self.unknownKeyHint(key, allowedKeys))
      }
      entries.append((key, child))
    }
    return entries
  }

  /// The elements of a list; a null value counts as an empty list.
  func listElements() throws -> [YAMLValue] {
    if isNull { return [] }
    guard case .sequence(let sequence) = node else {
      throw error("expected a list, found \(typeDescription)", hint: "write a list like [\"a\", \"b\"]")
    }
    return sequence.enumerated().map { index, element in
      YAMLValue(node: element, file: file, keyPath: "\(keyPath)[\(index)]")
    }
  }

  /// The text of a string scalar (numbers and booleans are rejected: quote them).
  func string() throws -> String {
    guard case .scalar(let scalar) = node, tagName == .str else {
      throw error("expected a string, found \(typeDescription)", hint: "quote the value")
    }
    return scalar.string
  }

  /// The text of any non-null scalar (numbers and booleans keep their spelling).
  func scalarText() throws -> String {
    guard case .scalar(let scalar) = node, !isNull else {
      throw error(
        "expected a single value, found \(typeDescription)", hint: isNull ? "use \"\" for an empty value" : nil)
    }
    return scalar.string
  }

  private static func unknownKeyHint(_ key: String, _ allowed: [String]) -> String {
    if let suggestion = KeySuggestion.closest(to: key, in: allowed) { return "did you mean `\(suggestion)`?" }
    return "valid keys: " + allowed.joined(separator: ", ")
  }
}
