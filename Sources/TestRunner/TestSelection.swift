import Foundation
import RippleConfig
import RippleCore
import SystemClients

/// What to test: per package, the test targets the affected analysis selected.
///
/// A plain value so the runner does not depend on the `Affected` module; the CLI converts.
public struct TestSelection: Sendable, Codable, Hashable {
  public var packages: [PackageSelection]

  public init(packages: [PackageSelection]) {
    self.packages = packages
  }

  /// True when no package has anything to run.
  public var isEmpty: Bool { packages.allSatisfy { !$0.hasWork } }

  /// Every selected (package, target) pair; a `runAll` package appears once with `target == nil`.
  public var units: [TestUnit] {
    packages.flatMap { package -> [TestUnit] in
      if package.runAll { return [TestUnit(package: package.path, target: nil)] }
      return package.testTargets.map { TestUnit(package: package.path, target: $0) }
    }
  }
}

/// The test targets to run in one package (in one test run).
public struct PackageSelection: Sendable, Codable, Hashable {
  /// Repo-relative package directory, "." for the root package.
  public var path: String
  /// Test target names to run (ignored when `runAll`).
  public var testTargets: [String]
  /// Run every test of the package, without a filter.
  public var runAll: Bool
  /// The test run (`test.runs`) these targets belong to; nil: the one default run.
  public var run: TestRunContext?
  /// Targets that run only in part, by name (a shard of a target split by suites); the others run whole.
  public var suites: [String: SuiteScope]

  public init(
    path: String, testTargets: [String], runAll: Bool = false, run: TestRunContext? = nil,
    suites: [String: SuiteScope] = [:]
  ) {
    self.path = path
    self.testTargets = testTargets
    self.runAll = runAll
    self.run = run
    self.suites = suites
  }

  public var hasWork: Bool { runAll || !testTargets.isEmpty }
}

/// One test run of `test.runs`: its name, the environment its `swift build` and `swift test` see, and its
/// own build folder.
public struct TestRunContext: Sendable, Codable, Hashable {
  public var name: String
  /// Variables set (a value) or removed (nil: another run sets it, so it must not leak in from the shell).
  public var environment: [String: String?]
  /// A build folder of its own, under the scratch base (or `<root>/.build/ripple/runs`): two environments are
  /// two build graphs and never share a `.build`. nil: the package's usual build folder (the first run).
  public var scratchFolder: String?
  /// Set for a `runner: xcodebuild` run, as ripple.yml declares it: its steps call xcodebuild instead of
  /// `swift` (`TestBackend.xcodebuild`).
  public var xcodebuild: XcodebuildRunSpec?

  public init(
    name: String, environment: [String: String?] = [:], scratchFolder: String? = nil,
    xcodebuild: XcodebuildRunSpec? = nil
  ) {
    self.name = name
    self.environment = environment
    self.scratchFolder = scratchFolder
    self.xcodebuild = xcodebuild
  }

  /// The variables it sets, as a shell would write them before a command: `TEST_SERVER=1`.
  public var assignments: String {
    environment.compactMap { name, value in value.map { "\(name)=\(ShellQuote.quote($0))" } }.sorted()
      .joined(separator: " ")
  }
}

/// One schedulable unit: a test target of a package, or a whole package (`target == nil`, run all).
public struct TestUnit: Sendable, Codable, Hashable, Comparable {
  public var package: String
  public var target: String?

  public init(package: String, target: String?) {
    self.package = package
    self.target = target
  }

  public static func < (lhs: TestUnit, rhs: TestUnit) -> Bool {
    (lhs.package, lhs.target ?? "") < (rhs.package, rhs.target ?? "")
  }
}

/// How to run a selection.
public struct TestRunOptions: Sendable, Hashable {
  /// Absolute path of the repository root; package paths are relative to it.
  public var repositoryRoot: String
  /// Arguments given after `--`, passed to both `swift build` and `swift test` (e.g. `-c release`).
  public var extraArguments: [String]
  /// Base for `--scratch-path`; each package builds in a sub-folder of it. nil: SwiftPM's default
  /// (`<package>/.build`). Ignored when `extraArguments` already choose a scratch or build path.
  public var scratchPath: String?
  /// How many packages build and test at the same time.
  public var jobs: Int
  /// How many times to re-run failing tests; a test that then passes is reported as flaky.
  public var retryFailed: Int
  /// Run only this shard of the selection.
  public var shard: Shard?
  /// The job's fixed plan `shard` takes its part from (`ShardPlan`); nil: planned from the run's history.
  public var shardPlan: ShardPlan?
  /// `swift`, looked up on PATH, or a path to it.
  public var swiftExecutable: String
  /// Where the xunit files of the runs go; nil: a temporary directory, removed afterwards.
  public var workDirectory: String?
  /// A fixed name for the run's folder in `TestRunner.temporaryRoot` instead of a unique one, for a caller that
  /// runs one run at a time there (rippled: per branch). The `swift` children's TMPDIR is then the same path in
  /// every run, and SwiftPM, whose manifest cache key holds the environment, compiles a manifest once instead of
  /// in every run. nil: `ripple-test-<digest of the checkout and scratch path>` while no other run holds it
  /// (`RunDirectory.forCheckout`), else `ripple-test-<UUID>`.
  public var runFolderName: String?
  /// `xcodebuild` and `xcrun` for `runner: xcodebuild` runs, looked up on PATH, or paths to them.
  public var xcodebuildExecutable = "xcodebuild"
  public var xcrunExecutable = "xcrun"
  /// `--coverage`: each selected SwiftPM test target runs in a process of its own with its own profile, and
  /// its line coverage is exported (TestRunner+Coverage.swift); nil: no coverage.
  public var coverage: CoverageRunOptions?

  public init(
    repositoryRoot: String, extraArguments: [String] = [], scratchPath: String? = nil, jobs: Int = 1,
    retryFailed: Int = 0, shard: Shard? = nil, swiftExecutable: String = "swift", workDirectory: String? = nil
  ) {
    self.repositoryRoot = repositoryRoot
    self.extraArguments = extraArguments
    self.scratchPath = scratchPath
    self.jobs = max(1, jobs)
    self.retryFailed = max(0, retryFailed)
    self.shard = shard
    self.swiftExecutable = swiftExecutable
    self.workDirectory = workDirectory
  }
}
