import RippleConfig
import RippleCore

/// Validates the `selection:` section into a `SelectionConfig`.
enum SelectionParser {
  private static let keys = [
    "ignore", "global", "unowned", "inputs", "manifestEnvironments", "excludePackages", "toolchains",
  ]

  static func parse(_ value: YAMLValue) throws -> SelectionConfig {
    var selection = SelectionConfig()
    for (key, child) in try value.mappingEntries(allowedKeys: keys) {
      switch key {
      case "ignore": selection.ignore = try globs(child)
      case "global": selection.global = try globs(child)
      case "excludePackages": selection.excludePackages = try globs(child)
      case "unowned": selection.unowned = try unowned(child)
      case "inputs": selection.inputs = try inputs(child)
      case "toolchains": selection.toolchains = try toolchains(child)
      default: selection.manifestEnvironments = try environments(child)
      }
    }
    return selection
  }

  private static func globs(_ value: YAMLValue) throws -> [Glob] {
    try value.listElements().map { element in
      let pattern = try element.string()
      if let problem = GlobSyntax.problem(in: pattern) {
        throw element.error("invalid glob: \(problem)", hint: "write `[[]` to match a literal `[`")
      }
      return Glob(pattern)
    }
  }

  private static func unowned(_ value: YAMLValue) throws -> UnownedPolicy {
    let choices = "expected one of: " + [UnownedPolicy.all, .ignore].map(\.rawValue).joined(separator: ", ")
    guard case .scalar(let scalar) = value.node, let policy = UnownedPolicy(rawValue: scalar.string), !value.isNull
    else {
      throw value.error("\(value.typeDescription) is not a valid value", hint: choices)
    }
    return policy
  }

  /// `Target` or `pkg/dir:Target` → globs.
  private static func inputs(_ value: YAMLValue) throws -> [String: [Glob]] {
    var inputs: [String: [Glob]] = [:]
    for (key, child) in try value.mappingEntries() {
      let parts = key.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else {
        throw child.error("`\(key)` is not a target", hint: "write `Target` or `package/dir:Target`")
      }
      inputs[key] = try globs(child)
    }
    return inputs
  }

  /// Swift versions as `X.Y` or `X.Y.Z` strings, at least one, each once.
  private static func toolchains(_ value: YAMLValue) throws -> [ListedToolchain] {
    let elements = try value.listElements()
    guard !elements.isEmpty else {
      throw value.error(
        "lists no Swift version", hint: "list the versions CI builds with, e.g. [\"6.0\", \"6.1\"], or remove the key")
    }
    var seen: Set<[Int]> = []
    return try elements.map { element in
      let hint = "write a Swift version as a string, e.g. \"6.1\" or \"6.1.2\""
      guard case .scalar(let scalar) = element.node, !element.isNull else {
        throw element.error("expected a Swift version, found \(element.typeDescription)", hint: hint)
      }
      let text = scalar.string
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      let numbers = parts.compactMap { part in
        !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) : nil
      }
      guard (2...3).contains(parts.count), numbers.count == parts.count else {
        throw element.error("`\(text)` is not a Swift version", hint: hint)
      }
      guard seen.insert(numbers + Array(repeating: 0, count: 3 - numbers.count)).inserted else {
        throw element.error("Swift \(text) is listed twice", hint: "list each version once")
      }
      return ListedToolchain(version: numbers, location: element.location)
    }
  }

  private static func environments(_ value: YAMLValue) throws -> [[String: String]] {
    try value.listElements().map { element in
      guard case .mapping = element.node else {
        throw element.error(
          "expected a mapping of environment variables, found \(element.typeDescription)",
          hint: "write `{}` for no variables or `{NAME: \"value\"}`")
      }
      var environment: [String: String] = [:]
      for (name, variable) in try element.mappingEntries() {
        environment[name] = try variable.scalarText()
      }
      return environment
    }
  }
}
