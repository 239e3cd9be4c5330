import RippleConfig
import RippleCore

/// Validates the `secrets:` section (a list of generated files) into `[SecretSpec]`.
enum SecretsParser {
  static let keys = ["id", "template", "output", "values", "example"]

  static func parse(_ value: YAMLValue) throws -> [SecretSpec] {
    var ids: Set<String> = []
    var outputs: Set<String> = []
    return try value.listElements().map { element in
      let entries = try element.entries(allowed: keys, required: ["id", "template", "output"])
      let id = try entries["id"]!.assetIdentifier()
      guard ids.insert(id).inserted else { throw entries["id"]!.error("duplicate secret id `\(id)`") }
      let output = try entries["output"]!.repoDestination()
      guard outputs.insert(output).inserted else { throw entries["output"]!.error("two secrets write `\(output)`") }
      var values: [String: String] = [:]
      for (name, variable) in try entries["values"]?.mappingEntries() ?? [] {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
          throw variable.error(
            "`\(name)` is not a placeholder name", hint: "letters, digits and _; used as {{\(name)}}")
        }
        values[name] = try SourceParser.variableName(variable)
      }
      let template = try path(entries["template"]!)
      guard template != output else { throw entries["output"]!.error("the output would overwrite its template") }
      let example = try entries["example"].map(path)
      var origins = PathOrigins()
      for (key, path) in [("template", template), ("output", output), ("example", example)] {
        if let path, origins[path] == nil { origins[path] = entries[key]?.location }
      }
      return SecretSpec(
        id: id, template: template, output: output, values: values, example: example, origins: origins)
    }
  }

  private static func path(_ value: YAMLValue) throws -> String {
    let text = try value.string()
    if let problem = RelativePathRule.problem(in: text) {
      throw value.error(problem, hint: "secret files must stay inside the repository")
    }
    return RelativePathRule.normalized(text)
  }
}
