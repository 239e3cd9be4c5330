import RippleConfig
import RippleCore

/// Validates the `daemon:` section of `ripple.yml`.
enum DaemonOverridesParser {
  static let keys = ["runTimeout", "testArguments", "bootstrap", "coverage", "retryFailed"]

  static func parse(_ value: YAMLValue) throws -> RepositoryDaemonSettings {
    var settings = RepositoryDaemonSettings()
    for (key, child) in try value.mappingEntries(allowedKeys: keys) {
      switch key {
      case "runTimeout": settings.runTimeout = try child.duration()
      case "testArguments": settings.testArguments = try DaemonRepositoriesParser.testArguments(child)
      case "coverage": settings.coverage = try child.boolean()
      case "retryFailed": settings.retryFailed = Int(try child.integer(in: 0...100))
      default: settings.bootstrap = try child.boolean()
      }
    }
    return settings
  }
}
