import Foundation
import RippleConfig

/// How a secret file was produced (values are never part of any message).
public enum SecretOutcome: Sendable, Hashable {
  case generated
  /// Copied from `example`; the associated names are the variables that were not set.
  case fromExample(missing: [String])
  case unchanged
}

/// Renders `{{NAME}}` templates with Swift-escaped values and writes them atomically, mode 0600.
enum SecretsWriter {
  /// The template with each `{{NAME}}` replaced; every placeholder in the template must be configured.
  static func render(_ template: String, values: [String: String], secretID: String) throws -> String {
    var result = ""
    var rest = Substring(template)
    while let open = rest.range(of: "{{") {
      result += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      guard let close = after.range(of: "}}") else {
        result += rest[open.lowerBound...]
        return result
      }
      let name = after[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
      guard let value = values[name] else {
        throw AssetsError.secretTemplate(
          secret: secretID, reason: "the template uses `{{\(name)}}`, which is not under `values:` in ripple.yml")
      }
      result += SwiftStringEscaping.escape(value)
      rest = after[close.upperBound...]
    }
    return result + rest
  }

  /// Decides what to write (pure): the rendered template when every variable is set, else the example
  /// when allowed and configured, else an error naming the missing variables.
  static func contents(
    _ spec: SecretSpec, mode: AccessMode, environment: [String: String], readFile: (String) throws -> String
  ) throws -> (text: String, outcome: SecretOutcome) {
    let missing = spec.values.values.filter { (environment[$0] ?? "").isEmpty }.sorted()
    if mode != .public && missing.isEmpty {
      let values = spec.values.mapValues { environment[$0]! }
      return (try render(try readFile(spec.template), values: values, secretID: spec.id), .generated)
    }
    if mode == .requirePrivate || spec.example == nil {
      throw AssetsError.secretValuesMissing(
        secret: spec.id, variables: missing.isEmpty ? spec.values.values.sorted() : missing)
    }
    return (try readFile(spec.example!), .fromExample(missing: mode == .public ? [] : missing))
  }

  /// Writes `text` to `path` (0600) unless it already holds exactly that text.
  static func write(_ text: String, to path: String) throws -> Bool {
    let data = Data(text.utf8)
    if FileManager.default.contents(atPath: path) == data {
      chmod(path, 0o600)
      return false
    }
    try FileIO.writeAtomically(data, to: path, mode: 0o600)
    return true
  }
}
