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

extension JSONValue {
  /// Fields `dump-package` prints from a Swift `Set`, in whatever order the set iterates: a package's and a
  /// dependency's `traits`, a trait's `enabledTraits`, a condition's `traits`.
  static let setFields: Set<String> = ["traits", "enabledTraits"]

  /// The same value with every set-valued array sorted by its elements' canonical text, so that two
  /// evaluations of one manifest give one fingerprint (and one pass-record key).
  func sortingSets() -> JSONValue {
    switch self {
    case .array(let items): return .array(items.map { $0.sortingSets() })
    case .object(let fields):
      var sorted: [String: JSONValue] = [:]
      for (name, value) in fields {
        let inner = value.sortingSets()
        if Self.setFields.contains(name), case .array(let items) = inner {
          sorted[name] = .array(items.sorted { $0.canonicalText < $1.canonicalText })
        } else {
          sorted[name] = inner
        }
      }
      return .object(sorted)
    default: return self
    }
  }
}
