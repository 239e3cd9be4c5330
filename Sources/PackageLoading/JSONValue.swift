/// A parsed JSON document, used to read `dump-package` output without pinning SwiftPM's schema and to
/// produce canonical (sorted-keys) text for fingerprints and the cache (see `JSONValue+Text.swift`).
enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  subscript(key: String) -> JSONValue? {
    if case .object(let fields) = self { return fields[key] }
    return nil
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  var object: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// SwiftPM encodes enums with associated values as `{"case": [values…]}`: the case name and its values.
  var enumCase: (name: String, values: [JSONValue])? {
    guard case .object(let fields) = self, fields.count == 1, let (name, payload) = fields.first else { return nil }
    return (name, payload.array ?? [payload])
  }
}
