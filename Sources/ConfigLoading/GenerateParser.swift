import RippleConfig
import RippleCore

/// Validates the `generate:` section (a list of commands that build resources) into `[GenerateSpec]`.
///
/// Each entry alone is checked by `parse`; what refers to other entries or to `assets:` (unique ids,
/// `after`, `private`, cycles) by `crossCheck`, once every section is read (their order in the file is free).
enum GenerateParser {
  static let keys = [
    "id", "command", "inputs", "destination", "after", "private", "environment", "toolchain", "outputs",
    "timeout",
  ]

  /// An entry and the YAML it came from, for errors found by `crossCheck`.
  struct Parsed {
    var spec: GenerateSpec
    var node: YAMLValue
    var entries: [String: YAMLValue]
  }

  static func parse(_ value: YAMLValue) throws -> [Parsed] {
    var seen: [String: Int] = [:]
    return try value.listElements().map { element in
      let parsed = try parseEntry(element)
      if let line = seen[parsed.spec.id] {
        throw element.error("duplicate generate id `\(parsed.spec.id)`", hint: "the first one is at line \(line)")
      }
      seen[parsed.spec.id] = element.node.mark?.line ?? 0
      return parsed
    }
  }

  private static func parseEntry(_ value: YAMLValue) throws -> Parsed {
    let entries = try value.entries(allowed: keys, required: ["id", "command", "destination"])
    let id = try entries["id"]!.assetIdentifier()
    let command = try argv(entries["command"]!, example: "[gzip, --keep, Resources/words.txt]")
    let inputs = try entries["inputs"].map(inputGlobs) ?? []
    let destinationValue = entries["destination"]!
    let destination = try destinationValue.repoDestination()
    var origins = PathOrigins()
    origins[destination] = destinationValue.location
    let after = try entries["after"].map { try $0.listElements().map { try $0.assetIdentifier() } } ?? []
    let privateAsset = try entries["private"].map { try $0.assetIdentifier() }
    let environment = try entries["environment"].map { try $0.listElements().map(SourceParser.variableName) } ?? []
    let toolchain = try entries["toolchain"].map { try argv($0, example: "[sqlite3, -version]") }
    let outputs = try entries["outputs"].map(outputPaths) ?? []
    let timeout = try entries["timeout"].map { try $0.duration() } ?? GenerateSpec.defaultTimeout
    let spec = GenerateSpec(
      id: id, command: command, inputs: inputs, destination: destination, after: after, privateAsset: privateAsset,
      environment: environment, toolchain: toolchain, outputs: outputs, timeout: timeout, origins: origins)
    return Parsed(spec: spec, node: value, entries: entries)
  }

  /// A non-empty argv list (no shell: a pipeline needs `[sh, -c, "…"]`, written by the user).
  private static func argv(_ value: YAMLValue, example: String) throws -> [String] {
    let command = try value.listElements().map { try $0.scalarText() }
    guard let tool = command.first, !tool.isEmpty else {
      throw value.error("the command is empty", hint: "write argv as a list, e.g. \(example)")
    }
    return command
  }

  /// Input globs are anchored at the repository root and may not leave it.
  private static func inputGlobs(_ value: YAMLValue) throws -> [Glob] {
    let globs = try value.globList()
    for (glob, element) in zip(globs, try value.listElements()) {
      if let problem = RelativePathRule.problem(in: glob.pattern) {
        throw element.error(problem, hint: "inputs are files of the repository, matched from its root")
      }
    }
    return globs
  }

  private static func outputPaths(_ value: YAMLValue) throws -> [String] {
    try value.listElements().map { element in
      let path = try element.string()
      if let problem = RelativePathRule.problem(in: path) {
        throw element.error(problem, hint: "outputs are relative to $RIPPLE_OUTPUT_DIR")
      }
      return RelativePathRule.normalized(path)
    }
  }

  /// Ids unique among assets and entries (they share receipts), `after` and `private` naming what
  /// exists, a private asset installing where its entry does, and no cycle in `after`.
  static func crossCheck(_ parsed: [Parsed], assets: [AssetSpec]) throws {
    let assetsByID = Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let generateIDs = Set(parsed.map(\.spec.id))
    var privateUsers: [String: String] = [:]
    for entry in parsed {
      let spec = entry.spec
      if assetsByID[spec.id] != nil {
        throw entry.entries["id"]!.error(
          "`\(spec.id)` is also the id of an asset", hint: "assets and generate entries share one namespace")
      }
      for (index, dependency) in spec.after.enumerated() {
        let element = try entry.entries["after"]!.listElements()[index]
        if dependency == spec.id {
          throw element.error("`\(spec.id)` cannot run after itself")
        }
        guard assetsByID[dependency] != nil || generateIDs.contains(dependency) else {
          throw element.error(
            "`\(dependency)` is neither an asset nor a generate entry",
            hint: "`after` lists ids from `assets:` or `generate:`")
        }
      }
      if let assetID = spec.privateAsset {
        let value = entry.entries["private"]!
        guard let asset = assetsByID[assetID] else {
          throw value.error("`\(assetID)` is not an asset", hint: "`private` names the asset used with access")
        }
        if let other = privateUsers[assetID] {
          throw value.error("asset `\(assetID)` is already the private variant of `\(other)`")
        }
        privateUsers[assetID] = spec.id
        if asset.destination != spec.destination {
          throw value.error(
            "asset `\(assetID)` installs into `\(asset.installDestinations.joined(separator: ", "))`,"
              + " this entry into `\(spec.destination)`",
            hint: "the private variant replaces the command's files, so both need the same destination")
        }
      }
    }
    if case .failure(let cycle) = GenerateOrder.sorted(parsed.map(\.spec)) {
      let first = parsed.first { $0.spec.id == cycle.ids[0] }!
      throw (first.entries["after"] ?? first.node).error(
        "generate entries wait for each other in a cycle: \(cycle)", hint: "remove one of these `after` ids")
    }
  }
}
