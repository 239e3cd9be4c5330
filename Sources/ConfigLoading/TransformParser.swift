import RippleConfig
import RippleCore

/// Parses `transform:`. Every `{token}` must be known: `{input}`, `{output}`, `{stem}`, `{name}`, or a
/// variable that every variant defines — a typo would otherwise reach the tool as literal text.
enum TransformParser {
  static let builtIns: Set<String> = ["input", "output", "stem", "name"]

  /// Records where each variant destination was written in `origins`.
  static func parse(_ value: YAMLValue, origins: inout PathOrigins) throws -> TransformSpec {
    let keys = ["command", "files", "output", "requireVersion", "variants"]
    let entries = try value.entries(allowed: keys, required: ["command", "output"])
    let commandValue = entries["command"]!
    let command = try commandValue.listElements().map { try $0.scalarText() }
    guard let tool = command.first, !tool.isEmpty else {
      throw commandValue.error(
        "the command is empty", hint: "write argv as a list, e.g. [ffmpeg, -i, \"{input}\", \"{output}\"]")
    }
    for token in ["input", "output"] where !command.contains(where: { tokens(in: $0).contains(token) }) {
      throw commandValue.error(
        "the command never mentions `{\(token)}`",
        hint: "the tool must read `{input}` and write `{output}`; Ripple substitutes both per file")
    }
    let files = try entries["files"].map { try $0.globList() } ?? []
    let outputValue = entries["output"]!
    let output = try outputValue.string()
    if output.isEmpty || output.contains("/") || output == "." || output == ".." {
      throw outputValue.error("`\(output)` is not a file name", hint: "e.g. \"{stem}.mp3\"")
    }
    let requireVersion = try entries["requireVersion"].map(versionCheck)
    let variants = try entries["variants"].map { try variantList($0, origins: &origins) } ?? []

    var known = builtIns
    if let first = variants.first {
      known.formUnion(variants.dropFirst().reduce(Set(first.variables.keys)) { $0.intersection($1.variables.keys) })
    }
    for (argument, element) in zip(command, try commandValue.listElements()) {
      try checkTokens(argument, known: known, at: element)
    }
    try checkTokens(output, known: known.subtracting(["input", "output"]), at: outputValue)
    return TransformSpec(
      command: command, files: files, outputName: output, requireVersion: requireVersion, variants: variants)
  }

  /// The `{name}` tokens of an argument.
  static func tokens(in text: String) -> [String] {
    var result: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: "}") else { break }
      let name = after[..<close]
      if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { result.append(String(name)) }
      rest = after[after.index(after: close)...]
    }
    return result
  }

  private static func checkTokens(_ text: String, known: Set<String>, at value: YAMLValue) throws {
    for token in tokens(in: text) where !known.contains(token) {
      throw value.error(
        "`{\(token)}` is not a known variable",
        hint: "known: " + known.sorted().map { "{\($0)}" }.joined(separator: ", ")
          + " (variant variables must be defined by every variant)")
    }
  }

  private static func versionCheck(_ value: YAMLValue) throws -> (command: [String], contains: String) {
    let entries = try value.entries(allowed: ["command", "contains"], required: ["command", "contains"])
    let command = try entries["command"]!.listElements().map { try $0.scalarText() }
    guard !command.isEmpty else { throw entries["command"]!.error("the command is empty") }
    return (command, try entries["contains"]!.scalarText())
  }

  private static func variantList(_ value: YAMLValue, origins: inout PathOrigins) throws -> [TransformVariant] {
    var names: Set<String> = []
    var destinations: Set<String> = []
    return try value.listElements().map { element in
      let entries = try element.entries(
        allowed: ["name", "variables", "destination"], required: ["name", "destination"])
      let name = try entries["name"]!.assetIdentifier()
      guard names.insert(name).inserted else { throw entries["name"]!.error("duplicate variant `\(name)`") }
      let variables = try entries["variables"]?.stringMapping() ?? [:]
      for key in variables.keys where builtIns.contains(key) {
        throw entries["variables"]!.error("`\(key)` is reserved", hint: "Ripple sets {\(key)} itself")
      }
      let destination = try entries["destination"]!.repoDestination()
      guard destinations.insert(destination).inserted else {
        throw entries["destination"]!.error("two variants install into `\(destination)`")
      }
      origins[destination] = entries["destination"]!.location
      return TransformVariant(name: name, variables: variables, destination: destination)
    }
  }
}
