import Foundation
import RippleConfig
import RippleCore
import Yams

/// Reads and validates `rippled.yml`, the daemon's configuration (annotated example: `Config/rippled.yml`).
///
/// Every error names the file, line, column and key path (`repositories[1].branches[0].pattern`); unknown
/// keys are errors with a "did you mean" hint. Relative paths are resolved against the config file's
/// directory, so the result holds absolute paths only.
public enum DaemonConfigLoader {
  /// Where `rippled.yml` is installed for the system service (`make install-daemon`).
  public static let systemPath = "/etc/ripple/rippled.yml"

  /// Reads and validates the file at `path`.
  public static func load(path: String) throws -> DaemonConfiguration {
    guard FileManager.default.fileExists(atPath: path) else {
      throw ConfigError(
        file: path, message: "config file not found",
        hint: "pass --config PATH, or copy the annotated Config/rippled.yml there")
    }
    return try parse(ConfigLoader.read(path), path: path)
  }

  /// Validates the YAML text of a daemon config; `path` is used in error messages and to resolve
  /// relative paths.
  public static func parse(_ text: String, path: String) throws -> DaemonConfiguration {
    let root: Node?
    do {
      root = try Yams.compose(yaml: text, .basic)  // tags: PlainScalarTag
    } catch let error as YamlError {
      throw ConfigLoader.syntaxError(error, file: path)
    }
    guard let root else { throw nothingToWatch(file: path, line: nil) }
    let document = YAMLValue(node: root, file: path, keyPath: "")
    var configuration = DaemonConfiguration()
    var sawRepositories = false
    for (key, value) in try document.mappingEntries(allowedKeys: TopLevelKey.allCases.map(\.rawValue)) {
      switch TopLevelKey(rawValue: key)! {
      case .http: configuration.http = try http(value)
      case .stateDirectory: configuration.stateDirectory = try value.optionalPath()
      case .cacheDirectory: configuration.cacheDirectory = try value.optionalPath()
      case .logsDirectory: configuration.logsDirectory = try value.optionalPath()
      case .concurrency: configuration.concurrency = try value.count(atLeast: 1)
      case .shutdownGrace: configuration.shutdownGrace = try value.duration()
      case .retention: configuration.retention = try retention(value)
      case .records: configuration.records = try DaemonRecordsParser.parse(value)
      case .runs:
        (configuration.sandbox, configuration.network, configuration.runEnvironment, configuration.assetFolders) =
          try runs(value)
      case .repositories:
        sawRepositories = true
        configuration.repositories = try DaemonRepositoriesParser.parse(value)
        if configuration.repositories.isEmpty {
          throw nothingToWatch(file: path, line: value.node.mark?.line, column: value.node.mark?.column)
        }
      }
    }
    if !sawRepositories { throw nothingToWatch(file: path, line: nil) }
    for index in configuration.repositories.indices {
      configuration.repositories[index].assetFolders += configuration.assetFolders
    }
    return configuration
  }

  /// Top-level keys, in the order `Config/rippled.yml` documents them.
  enum TopLevelKey: String, CaseIterable {
    case http, stateDirectory, cacheDirectory, logsDirectory, concurrency, shutdownGrace, retention, runs, repositories
    case records
  }

  static let httpKeys = [
    "address", "tokenFile", "webhookSecretFile", "publicURL", "maxConnections", "maxLogFollowers",
  ]
  static let retentionKeys = ["maxRuns", "maxAge", "maxLogSize"]

  private static func http(_ value: YAMLValue) throws -> HTTPSettings {
    var settings = HTTPSettings()
    for (key, child) in try value.mappingEntries(allowedKeys: httpKeys) {
      switch key {
      case "address": (settings.host, settings.port) = try child.listenAddress()
      case "tokenFile": settings.tokenFile = try child.optionalPath()
      case "publicURL": settings.publicURL = try child.webURL(allowLoopbackHTTP: true).trimmingSuffix("/")
      case "maxConnections": settings.maxConnections = try child.count(atLeast: 8)
      case "maxLogFollowers": settings.maxLogFollowers = try child.count(atLeast: 1)
      default: settings.webhookSecretFile = try child.optionalPath()
      }
    }
    return settings
  }

  private static func retention(_ value: YAMLValue) throws -> Retention {
    var retention = Retention()
    for (key, child) in try value.mappingEntries(allowedKeys: retentionKeys) {
      switch key {
      case "maxRuns": retention.maxRuns = try child.count(atLeast: 1)
      case "maxAge": retention.maxAge = try child.duration()
      default: retention.maxLogBytes = try child.byteSize()
      }
    }
    return retention
  }

  /// `runs:`: how a run's processes are isolated (`sandbox: auto|required|off`, `network: isolated|host`,
  /// `environment: [NAME, …]`) and which folders its `file:` assets may read (`assetFolders`).
  private static func runs(_ value: YAMLValue) throws -> (SandboxMode, RunNetwork, [String], [String]) {
    var mode = SandboxMode.auto
    var network = RunNetwork.isolated
    var environment = DaemonConfiguration.defaultRunEnvironment
    var folders: [String] = []
    for (key, child) in try value.mappingEntries(allowedKeys: ["sandbox", "network", "environment", "assetFolders"]) {
      switch key {
      case "assetFolders":
        folders = try DaemonRepositoriesParser.assetFolders(child)
      case "environment":
        environment = try child.stringList()
        if let bad = environment.first(where: { $0.isEmpty || $0.contains("=") }) {
          throw child.error("`\(bad)` is not a variable name", hint: "list names only, e.g. [PATH, HOME, LANG, TMPDIR]")
        }
      case "network":
        let text = try child.scalarText()
        guard let parsed = RunNetwork(rawValue: text) else {
          throw child.error(
            "`\(text)` is not a run network",
            hint: "use isolated (only the sandbox's own loopback) or host (the host's network, rippled's API too)")
        }
        network = parsed
      default:
        let text = try child.scalarText()
        guard let parsed = SandboxMode(rawValue: text) else {
          throw child.error(
            "`\(text)` is not a sandbox mode",
            hint: "use auto (bubblewrap when it works), required (refuse to start without it) or off")
        }
        mode = parsed
      }
    }
    return (mode, network, environment, folders)
  }

  private static func nothingToWatch(file: String, line: Int?, column: Int? = nil) -> ConfigError {
    ConfigError(
      file: file, line: line, column: column, keyPath: "repositories",
      message: "nothing to watch: no repositories are configured",
      hint: "add one with `remote:` (a URL or bare repository to fetch) or `path:` (a working tree to watch)")
  }
}
