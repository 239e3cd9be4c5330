import RippleConfig

/// Validates the `test:` section into a `TestConfig`.
enum TestParser {
  private static let keys = ["runs", "requires", "quarantine", "resultCache", "granularity", "alwaysRun"]
  private static let runKeys = ["name", "environment", "platforms", "runner"] + XcodebuildRunParser.keys
  private static let requirementKeys = ["name", "command"]

  static func parse(_ value: YAMLValue) throws -> TestConfig {
    var config = TestConfig()
    for (key, child) in try value.mappingEntries(allowedKeys: keys) {
      switch key {
      case "runs": config.declaredRuns = try runs(child)
      case "quarantine": config.quarantine = try QuarantineParser.parse(child)
      case "resultCache": config.resultCache = try ResultCacheParser.parse(child)
      case "granularity": config.granularity = try granularity(child)
      case "alwaysRun":
        config.alwaysRun = try child.listElements().map { element in
          let id = try element.string()
          guard let slash = id.firstIndex(of: "/"), slash != id.startIndex, id.last != "/" else {
            throw element.error(
              "`\(id)` is not a test",
              hint: "name it as its test binary lists it: Target.Suite/test or Target.Suite/test()")
          }
          return id
        }
      default: config.requires = try requirements(child)
      }
    }
    return config
  }

  private static func runs(_ value: YAMLValue) throws -> [TestRunSpec] {
    var names: Set<String> = []
    return try value.listElements().map { element in
      var run = TestRunSpec(name: "")
      var named = false
      var platformsGiven = false
      var xcodebuildEntries: [(key: String, value: YAMLValue)] = []
      for (key, child) in try element.mappingEntries(allowedKeys: runKeys) {
        switch key {
        case "name":
          run.name = try child.string()
          guard !run.name.isEmpty else { throw child.error("a run's name cannot be empty") }
          guard names.insert(run.name).inserted else {
            throw child.error("the run name `\(run.name)` is used twice", hint: "give each run its own name")
          }
          named = true
        case "environment": run.environment = try environment(child)
        case "platforms":
          run.platforms = try platforms(child)
          platformsGiven = true
        case "runner": run.runner = try runner(child)
        default: xcodebuildEntries.append((key, child))
        }
      }
      guard named else { throw element.error("a run needs a `name`", hint: "e.g. `name: server`") }
      try XcodebuildRunParser.complete(
        &run, entries: xcodebuildEntries, element: element, platformsGiven: platformsGiven)
      return run
    }
  }

  /// Variable name → value; values must be strings (quote numbers: `TEST_SERVER: "1"`).
  private static func environment(_ value: YAMLValue) throws -> [String: String] {
    var environment: [String: String] = [:]
    for (name, variable) in try value.mappingEntries() {
      guard case .scalar = variable.node, variable.tagName == .str else {
        throw variable.error(
          "the value of `\(name)` must be a string, found \(variable.typeDescription)",
          hint: "quote it: \(name): \"…\"")
      }
      environment[name] = try variable.string()
    }
    return environment
  }

  private static func platforms(_ value: YAMLValue) throws -> [Platform] {
    let choices = "expected one of: " + Platform.allCases.map(\.rawValue).joined(separator: ", ")
    let platforms = try value.listElements().map { element -> Platform in
      guard let platform = Platform(rawValue: try element.string()) else {
        throw element.error("`\(try element.string())` is not a platform", hint: choices)
      }
      return platform
    }
    guard !platforms.isEmpty else { throw value.error("a run needs at least one platform", hint: choices) }
    return platforms
  }

  /// `target` or `test` (`test.granularity`, and a repository's `granularity` in rippled.yml).
  static func granularity(_ value: YAMLValue) throws -> TestGranularity {
    let text = try value.string()
    guard let granularity = TestGranularity(rawValue: text) else {
      throw value.error(
        "`\(text)` is not a granularity",
        hint: "expected one of: " + TestGranularity.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return granularity
  }

  private static func runner(_ value: YAMLValue) throws -> TestRunnerKind {
    let choices = "expected one of: " + TestRunnerKind.allCases.map(\.rawValue).joined(separator: ", ")
    let text = try value.string()
    guard let runner = TestRunnerKind(rawValue: text) else {
      throw value.error("`\(text)` is not a test runner", hint: choices)
    }
    return runner
  }

  private static func requirements(_ value: YAMLValue) throws -> [TestRequirement] {
    try value.listElements().map { element in
      var name: String?
      var command: [String] = []
      for (key, child) in try element.mappingEntries(allowedKeys: requirementKeys) {
        switch key {
        case "name": name = try child.string()
        default:
          command = try child.listElements().map { try $0.string() }
          guard !command.isEmpty, !command[0].isEmpty else {
            throw child.error("a check's command cannot be empty", hint: "an argv list, e.g. [pg_isready, -q]")
          }
        }
      }
      guard let name, !name.isEmpty else { throw element.error("a check needs a `name`") }
      guard !command.isEmpty else {
        throw element.error("the check `\(name)` needs a `command`", hint: "an argv list, e.g. [pg_isready, -q]")
      }
      return TestRequirement(name: name, command: command, location: element.location)
    }
  }
}
