import Foundation
import RippleConfig
import RippleCore
import SystemClients

/// The exact commands a run executes, per package; pure, so `--dry-run` prints what would happen.
public struct TestPlan: Sendable, Hashable {
  public var packages: [PackageStep]
  /// Packages of the selection left out because they had nothing selected (or nothing in this shard).
  public var skippedPackages: [String]

  public init(packages: [PackageStep], skippedPackages: [String] = []) {
    self.packages = packages
    self.skippedPackages = skippedPackages
  }

  public var isEmpty: Bool { packages.isEmpty }

  /// Every command, shell-quoted for copy and paste, in execution order per package.
  public var commands: [String] {
    packages.flatMap { [$0.build.commandLine, $0.test.commandLine] }
  }

  /// The plan for people: one block per package.
  public var rendered: String {
    if packages.isEmpty { return "Nothing to build or test.\n" }
    var out = ""
    for step in packages {
      let what = step.runAll ? "all test targets" : step.testTargets.joined(separator: ", ")
      let assignments = step.run.map(\.assignments).flatMap { $0.isEmpty ? nil : $0 + " " } ?? ""
      out += "\(step.label): \(what)\n"
      out += "  \(assignments)\(step.build.commandLine)\n  \(assignments)\(step.test.commandLine)\n"
    }
    let temporary = packages.first?.build.environment["TMPDIR"] ?? nil
    if let temporary { out += "Every command runs with TMPDIR=\(ShellQuote.quote(temporary)).\n" }
    if (commands + [temporary ?? ""]).contains(where: { $0.contains(RunDirectory.placeholder) }) {
      out += "\(RunDirectory.placeholder): a temporary folder made for the run and removed after it.\n"
    }
    return out
  }

  /// Plans `selection`: one build and one test command per package that has selected test targets.
  ///
  /// - Parameters:
  ///   - xunitDirectory: where each package's `swift test --xunit-output` file goes.
  ///   - temporaryDirectory: the TMPDIR of every command (nil: inherited).
  public static func make(
    selection: TestSelection, options: TestRunOptions, xunitDirectory: String, temporaryDirectory: String? = nil,
    coverageDirectory: String? = nil
  ) -> TestPlan {
    let temporary: [String: String?] = temporaryDirectory.map { ["TMPDIR": $0] } ?? [:]
    var steps: [PackageStep] = []
    var skipped: [String] = []
    for package in selection.packages {
      guard package.hasWork else {
        skipped.append(package.path)
        continue
      }
      let targets = Array(Set(package.testTargets)).sorted()
      let environment = temporary.merging(package.run?.environment ?? [:]) { _, run in run }
      let directory = absolutePackagePath(package.path, root: options.repositoryRoot)
      if let run = package.run, let xcodebuild = run.xcodebuild {
        steps.append(
          xcodebuildStep(
            package, run: run, xcodebuild, targets: targets, environment: environment, directory: directory,
            options: options, resultDirectory: xunitDirectory))
        continue
      }
      var common = ["--package-path", directory]
      let measured = options.coverage != nil && coverageDirectory != nil
      let scratch =
        measured
        ? coverageScratchPath(for: package.path, run: package.run, options: options)
        : scratchPath(for: package.path, run: package.run, options: options)
      if let scratch { common += ["--scratch-path", scratch] }
      var build = ProcessRequest(
        options.swiftExecutable, ["build", "--build-tests"] + common + options.extraArguments,
        environment: environment)
      // Streamed line by line; only the end is kept in memory (the errors are picked out as it comes).
      build.retainedOutput = TestRunner.retainedBuildOutput
      let filter = package.runAll ? nil : TestFilter.targets(targets, suites: package.suites)
      let xunitName = (package.run?.scratchFolder.map { "\($0)-" } ?? "") + folderName(for: package.path)
      let xunit = (xunitDirectory as NSString).appendingPathComponent("\(xunitName).xml")
      var testArguments = ["test", "--skip-build"] + common
      if let filter { testArguments += ["--filter", filter] }
      if !package.runAll, let skip = TestFilter.skip(targets, suites: package.suites) {
        testArguments += ["--skip", skip]
      }
      testArguments += ["--xunit-output", xunit] + options.extraArguments
      let test = ProcessRequest(options.swiftExecutable, testArguments, environment: environment)
      let list = ProcessRequest(
        options.swiftExecutable, ["test", "list", "--skip-build"] + common + options.extraArguments,
        environment: environment)
      let binaryListing = TestBinaryListing.forPackage(
        directory: directory, scratch: scratch, extraArguments: options.extraArguments, environment: environment)
      if let coverage = options.coverage, let coverageDirectory {
        steps += coverageSteps(
          package, targets: targets, coverage: coverage, directory: directory, common: common, build: build,
          test: test, list: list, binaryListing: binaryListing, xunit: xunit,
          profiles: coverageDirectory + "/" + xunitName, options: options)
        continue
      }
      steps.append(
        PackageStep(
          package: package.path, directory: directory, testTargets: package.runAll ? [] : targets,
          runAll: package.runAll, filter: filter, build: build, test: test, run: package.run,
          backend: .swiftPM(SwiftPMTests(list: list, binaryListing: binaryListing, xunitPath: xunit))))
    }
    // Stable sort: the runs of one package stay in run order.
    let ordered = steps.enumerated().sorted { ($0.element.package, $0.offset) < ($1.element.package, $1.offset) }
    return TestPlan(packages: ordered.map(\.element), skippedPackages: skipped.sorted())
  }

  /// A `runner: xcodebuild` step: `build-for-testing` into the run's own derived data folder (kept, like
  /// a `.build`, so the next run builds incrementally), `test-without-building -only-testing:…` into a
  /// result bundle among the run's files, then `xcresulttool` reads it. `options.extraArguments` are for
  /// `swift` and are not given to xcodebuild (the run's `arguments` are).
  static func xcodebuildStep(
    _ package: PackageSelection, run: TestRunContext, _ xcodebuild: XcodebuildRunSpec, targets: [String],
    environment: [String: String?], directory: String, options: TestRunOptions, resultDirectory: String
  ) -> PackageStep {
    let base = options.scratchPath ?? (options.repositoryRoot as NSString).appendingPathComponent(".build/ripple/runs")
    let runFolder = run.scratchFolder ?? folderName(for: run.name)
    let derivedData = ((base as NSString).appendingPathComponent(runFolder) as NSString)
      .appendingPathComponent(folderName(for: package.path) + "-DerivedData")
    let bundle = (resultDirectory as NSString).appendingPathComponent(
      "\(runFolder)-\(folderName(for: package.path)).xcresult")
    let commands = XcodebuildCommands(
      spec: xcodebuild, root: options.repositoryRoot, derivedData: derivedData, environment: environment,
      xcodebuildExecutable: options.xcodebuildExecutable, xcrunExecutable: options.xcrunExecutable)
    let onlyTesting = targets.map(XcodebuildCommands.onlyTesting)
    return PackageStep(
      package: package.path, directory: directory, testTargets: targets, runAll: false,
      filter: onlyTesting.joined(separator: " "), build: commands.build, test: commands.test(onlyTesting, bundle),
      run: run, backend: .xcodebuild(XcodebuildTests(commands: commands, resultBundle: bundle)))
  }

  static func absolutePackagePath(_ path: String, root: String) -> String {
    let rootURL = URL(fileURLWithPath: root, isDirectory: true)
    guard path != "." && !path.isEmpty else { return rootURL.standardizedFileURL.path }
    return rootURL.appendingPathComponent(path, isDirectory: true).standardizedFileURL.path
  }

  /// A package's own scratch folder under the base, unless the user chose a build location. A run with a
  /// build folder of its own builds under `<base>/<run folder>/`, or `<root>/.build/ripple/runs/<run folder>/`
  /// without a base.
  static func scratchPath(for package: String, run: TestRunContext? = nil, options: TestRunOptions) -> String? {
    if userChoseScratch(options) { return nil }
    if let runFolder = run?.scratchFolder {
      let base =
        options.scratchPath ?? (options.repositoryRoot as NSString).appendingPathComponent(".build/ripple/runs")
      return ((base as NSString).appendingPathComponent(runFolder) as NSString)
        .appendingPathComponent(folderName(for: package))
    }
    guard let base = options.scratchPath else { return nil }
    return (base as NSString).appendingPathComponent(folderName(for: package))
  }

  /// Where a `--coverage` run builds: a folder of its own beside the plain build's (`<scratch>-coverage`, or the
  /// package's `.build/ripple-coverage`), so that the instrumented build and the plain one each stay warm; in the
  /// same folder, each run that switches rebuilds every module (as Bazel keeps `bazel coverage`'s outputs in a
  /// configuration of their own). A `--scratch-path` after `--` is the user's choice, for both.
  static func coverageScratchPath(for package: String, run: TestRunContext? = nil, options: TestRunOptions) -> String? {
    if userChoseScratch(options) { return nil }
    if let plain = scratchPath(for: package, run: run, options: options) { return plain + "-coverage" }
    return absolutePackagePath(package, root: options.repositoryRoot) + "/.build/ripple-coverage"
  }

  /// A `--scratch-path` or `--build-path` after `--`: the build folder is the user's.
  static func userChoseScratch(_ options: TestRunOptions) -> Bool {
    options.extraArguments.contains {
      $0 == "--scratch-path" || $0 == "--build-path" || $0.hasPrefix("--scratch-path=") || $0.hasPrefix("--build-path=")
    }
  }

  /// A package directory's folder name: "." → "_root", else `PathComponent.escaped` ("a/b" → "a_2Fb").
  static func folderName(for package: String) -> String {
    package == "." || package.isEmpty ? "_root" : PathComponent.escaped(package)
  }
}

/// One package's commands in one test run: the build, the test command of the first attempt, and what its
/// backend needs to read the results and to retry failed tests (`TestBackend`).
public struct PackageStep: Sendable, Hashable {
  /// Repo-relative package directory (for xcodebuild: the project or workspace).
  public var package: String
  /// Absolute package directory.
  public var directory: String
  /// Sorted, unique; empty when `runAll`.
  public var testTargets: [String]
  public var runAll: Bool
  /// What selects the targets, as reported: the `--filter` regex, or the `-only-testing:` arguments; nil
  /// when `runAll`.
  public var filter: String?
  public var build: ProcessRequest
  /// The first attempt's test command (`swift test …`, `xcodebuild test-without-building …`).
  public var test: ProcessRequest
  /// The test run (`test.runs`) this step belongs to; nil: the one default run.
  public var run: TestRunContext? = nil
  public var backend: TestBackend
  /// `--coverage`: this step runs one target for its coverage (TestPlan+Coverage.swift).
  public var coverage: StepCoverage? = nil

  public init(
    package: String, directory: String, testTargets: [String], runAll: Bool, filter: String?,
    build: ProcessRequest, test: ProcessRequest, run: TestRunContext? = nil, backend: TestBackend
  ) {
    self.package = package
    self.directory = directory
    self.testTargets = testTargets
    self.runAll = runAll
    self.filter = filter
    self.build = build
    self.test = test
    self.run = run
    self.backend = backend
  }

  /// The package path, or "Packages/Server (run server)" for a step of a declared run: progress events.
  public var eventName: String { run.map { "\(package) (run \($0.name))" } ?? package }

  /// "root package", "Packages/Server" or "Packages/Server (run server)": how the dry run names the step.
  public var label: String {
    let name = package == "." ? "root package" : package
    return run.map { "\(name) (run \($0.name))" } ?? name
  }
}
