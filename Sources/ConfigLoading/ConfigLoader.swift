import Foundation
import RippleConfig
import RippleCore
import Yams

/// Finds, reads and validates `ripple.yml`.
public enum ConfigLoader {
  /// Where the config is looked for at the repo root, in order, when `--config` is not given.
  public static let lookupPaths = ["ripple.yml", ".ripple.yml", "Config/ripple.yml"]

  /// The configuration for the repository at `repoRoot`.
  ///
  /// `explicitPath` (`--config PATH`, relative to the current directory) must exist. Without it, the first
  /// of `lookupPaths` that exists is read; when none does, the default configuration (`sourcePath` nil).
  public static func load(repoRoot: String, explicitPath: String?) throws -> RippleConfiguration {
    if let explicitPath {
      guard FileManager.default.fileExists(atPath: explicitPath) else {
        throw ConfigError(
          file: explicitPath, message: "config file not found", hint: "check the path given to --config")
      }
      return try parse(read(explicitPath), path: explicitPath)
    }
    for candidate in lookupPaths {
      let path = repoRoot.hasSuffix("/") ? repoRoot + candidate : repoRoot + "/" + candidate
      if FileManager.default.fileExists(atPath: path) {
        return try parse(read(path), path: path)
      }
    }
    return RippleConfiguration()
  }

  /// Validates the YAML text of a config file; `path` is used as `sourcePath` and in error messages.
  /// An empty document means the defaults.
  public static func parse(_ text: String, path: String) throws -> RippleConfiguration {
    let root: Node?
    do {
      root = try Yams.compose(yaml: text, .basic)  // tags: PlainScalarTag
    } catch let error as YamlError {
      throw syntaxError(error, file: path)
    }
    var configuration = RippleConfiguration(sourcePath: path)
    guard let root else { return configuration }
    let document = YAMLValue(node: root, file: path, keyPath: "")
    var generate: [GenerateParser.Parsed] = []
    for (key, value) in try document.mappingEntries(allowedKeys: TopLevelKey.allCases.map(\.rawValue)) {
      switch TopLevelKey(rawValue: key)! {
      case .selection:
        configuration.selection = try SelectionParser.parse(value)
      case .assets:
        configuration.assets.assets = try AssetsParser.parse(value)
      case .secrets:
        configuration.assets.secrets = try SecretsParser.parse(value)
      case .daemon:
        configuration.daemon = try DaemonOverridesParser.parse(value)
      case .test:
        configuration.test = try TestParser.parse(value)
      case .generate:
        generate = try GenerateParser.parse(value)
      }
    }
    try GenerateParser.crossCheck(generate, assets: configuration.assets.assets)
    configuration.assets.generate = generate.map(\.spec)
    return configuration
  }

  /// Top-level sections. `generate` holds commands that build resources (GenerateParser.swift);
  /// `daemon` holds this repository's overrides of its `rippled.yml` settings
  /// (`RepositoryDaemonSettings`).
  private enum TopLevelKey: String, CaseIterable {
    case selection, assets, generate, secrets, daemon, test
  }

  static func read(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigError(file: path, message: "config file cannot be read", hint: "check its permissions")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigError(file: path, message: "config file is not valid UTF-8 text")
    }
    return text
  }

  static func syntaxError(_ error: YamlError, file: String) -> ConfigError {
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let detail = context.map { "\($0.text) at line \($0.mark.line), " } ?? ""
      return ConfigError(
        file: file, line: mark.line, column: mark.column, message: "invalid YAML: \(detail)\(problem)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      let keys = duplicates.map { "`\($0)`" }.joined(separator: ", ")
      return ConfigError(
        file: file, line: context.mark.line, column: context.mark.column, message: "duplicate key \(keys)",
        hint: "each key may appear once in a mapping")
    default:
      return ConfigError(file: file, message: "invalid YAML: \(error)")
    }
  }
}
