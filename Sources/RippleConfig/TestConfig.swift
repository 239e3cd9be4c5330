/// A platform a test run can happen on.
public enum Platform: String, Sendable, Hashable, CaseIterable, Codable {
  case linux
  case macos

  /// The platform this process runs on.
  public static var host: Platform {
    #if os(macOS)
      .macos
    #else
      .linux
    #endif
  }
}

/// What builds and runs a test run's targets.
public enum TestRunnerKind: String, Sendable, Hashable, CaseIterable {
  /// `swift build --build-tests` and `swift test`.
  case swift
  /// `xcodebuild build-for-testing` and `test-without-building` of a shared scheme (macOS only; see
  /// `XcodebuildRunSpec`).
  case xcodebuild
}

/// One entry of `test.runs`: where and how a part of the tests runs (docs/DESIGN.md, "Test runs").
public struct TestRunSpec: Sendable, Hashable {
  public var name: String
  /// Set for `swift build` and `swift test` (and for evaluating the manifests of this run's graph).
  public var environment: [String: String]
  public var platforms: [Platform]
  public var runner: TestRunnerKind
  /// The scheme, container and destination of a `runner: xcodebuild` run; nil for `swift`.
  public var xcodebuild: XcodebuildRunSpec?

  public init(
    name: String, environment: [String: String] = [:], platforms: [Platform] = Platform.allCases,
    runner: TestRunnerKind = .swift, xcodebuild: XcodebuildRunSpec? = nil
  ) {
    self.name = name
    self.environment = environment
    self.platforms = platforms
    self.runner = runner
    self.xcodebuild = xcodebuild
  }

  public func runs(on platform: Platform) -> Bool { platforms.contains(platform) }
}

/// A prerequisite the tests need but Ripple does not start (a database, a simulator), checked before
/// building: `command` must exit 0.
public struct TestRequirement: Sendable, Hashable {
  public var name: String
  /// argv, no shell.
  public var command: [String]
  /// Where it is declared, for errors.
  public var location: ConfigLocation

  public init(name: String, command: [String], location: ConfigLocation) {
    self.name = name
    self.command = command
    self.location = location
  }
}

/// How finely `ripple test` selects: whole test targets, or single tests of them from per-test coverage maps
/// (`test.granularity`, `--granularity`; docs/DESIGN.md, "Below the target").
public enum TestGranularity: String, Sendable, Hashable, CaseIterable {
  case target
  case test
}

/// `test:` — how the selected tests run.
public struct TestConfig: Sendable, Hashable {
  /// As declared; empty means one run per manifest environment (`runs(manifestEnvironments:)`).
  public var declaredRuns: [TestRunSpec]
  public var requires: [TestRequirement]
  /// `test.quarantine`, in file order.
  public var quarantine: [QuarantineEntry]
  /// `test.resultCache`: pass records (on by default, in a local folder).
  public var resultCache: ResultCacheConfig
  /// `test.granularity`: select whole test targets (the default) or single tests from coverage maps.
  public var granularity: TestGranularity = .target
  /// `test.alwaysRun`: tests (`Target.Suite/test`) that run whenever their target is selected below the target.
  public var alwaysRun: [String] = []

  public init(
    declaredRuns: [TestRunSpec] = [], requires: [TestRequirement] = [], quarantine: [QuarantineEntry] = [],
    resultCache: ResultCacheConfig = ResultCacheConfig()
  ) {
    self.declaredRuns = declaredRuns
    self.requires = requires
    self.quarantine = quarantine
    self.resultCache = resultCache
  }

  /// The runs to plan, in order: the declared ones, or one per manifest environment on every platform,
  /// named after its variables ("default" for none). When only `runner: xcodebuild` runs are declared, the
  /// default `swift` runs come first: declaring the Xcode side does not take package tests away.
  public func runs(manifestEnvironments: [[String: String]]) -> [TestRunSpec] {
    if declaredRuns.contains(where: { $0.runner == .swift }) { return declaredRuns }
    let environments = manifestEnvironments.isEmpty ? [[:]] : manifestEnvironments
    let defaults = environments.map { TestRunSpec(name: Self.name(of: $0), environment: $0) }
    return defaults.filter { run in !declaredRuns.contains { $0.name == run.name } } + declaredRuns
  }

  /// `TEST_SERVER=1` for `{TEST_SERVER: "1"}`; "default" for no variables.
  public static func name(of environment: [String: String]) -> String {
    environment.isEmpty
      ? "default" : environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
  }
}

extension RippleConfiguration {
  /// The runs `ripple test` plans (`test.runs`, or one per manifest environment).
  public var testRuns: [TestRunSpec] { test.runs(manifestEnvironments: selection.manifestEnvironments) }

  /// The environments every manifest is evaluated in: `selection.manifestEnvironments`, then each test
  /// run's environment not already among them, so every run's graph is known.
  public var graphEnvironments: [[String: String]] {
    var environments = selection.manifestEnvironments
    for run in testRuns where run.runner == .swift && !environments.contains(run.environment) {
      environments.append(run.environment)
    }
    return environments
  }
}
