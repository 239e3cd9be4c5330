import RippleConfig
import RippleCore

/// Validates the `selection:` section into a `SelectionConfig`.
enum SelectionParser {
  private static let keys = ["ignore", "global", "unowned", "inputs", "manifestEnvironments", "excludePackages"]

  static func parse(_ value: YAMLValue) throws -> SelectionConfig {
    var selection = SelectionConfig()
    for (key, child) in try value.mappingEntries(allowedKeys: keys) {
      switch key {
      case "ignore": selection.ignore = try globs(child)
      case "global": selection.global = try globs(child)
      case "excludePackages": selection.excludePackages = try globs(child)
      case "unowned": selection.unowned = try unowned(child)
      case "inputs": selection.inputs = try inputs(child)
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
