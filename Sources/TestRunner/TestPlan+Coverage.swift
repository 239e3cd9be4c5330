import Foundation
import RippleCore
import SystemClients

/// `--coverage`: what the run needs to tell each test target's coverage from the others'.
public struct CoverageRunOptions: Sendable, Hashable {
  /// The toolchain folder with `llvm-profdata` and `llvm-cov` (the one `swift` is in: another LLVM's tools
  /// cannot read its profiles).
  public var toolDirectory: String

  public init(toolDirectory: String) { self.toolDirectory = toolDirectory }

  public var profdata: String { toolDirectory + "/llvm-profdata" }
  public var cov: String { toolDirectory + "/llvm-cov" }
}

/// A step that runs one test target for its coverage: its profiles' folder, and how to find the test binary.
public struct StepCoverage: Sendable, Hashable {
  public var target: String
  /// Where its test processes write their profiles (`LLVM_PROFILE_FILE=<profiles>/%p.profraw`); made new
  /// for each run, so no other build's profile is ever in it.
  public var profiles: String
  /// `swift build --show-bin-path …`: the folder of the `…PackageTests.xctest` the profiles belong to.
  public var binPath: ProcessRequest
  /// The package's earlier step built it; this one only runs tests.
  public var reusesBuild: Bool
  /// The package's filter over all its selected targets, as a run without coverage reports it.
  public var packageFilter: String?
  /// Why the step runs only part of the target (split by suites across shards, a `--filter`/`--skip` after
  /// `--`): its coverage is then not the target's, and is not measured.
  public var partial: String?
}

extension TestPlan {
  /// With `--coverage`, a package's selected targets run one after another, one `swift test --filter
  /// '^Target\.'` each, every process with `LLVM_PROFILE_FILE` in the target's own folder: a target's
  /// coverage is then exactly what its tests executed. The build adds `--enable-code-coverage` (once, in the
  /// first step); the first step lists the tests from the built binary, as a run without coverage does (`swift
  /// test list` where it cannot), the steps that reuse its build take that listing (`TestRunner.runPackage`), and
  /// a listing writes its profile where nothing reads it. A package run unfiltered (`runAll`) has no target to
  /// attribute coverage to: it runs as one step, not measured.
  static func coverageSteps(
    _ package: PackageSelection, targets: [String], coverage: CoverageRunOptions, directory: String,
    common: [String], build: ProcessRequest, test: ProcessRequest, list: ProcessRequest,
    binaryListing: TestBinaryListing?, xunit: String, profiles: String, options: TestRunOptions
  ) -> [PackageStep] {
    var build = build
    build.arguments.insert("--enable-code-coverage", at: 2)
    var list = list
    list.environment["LLVM_PROFILE_FILE"] = profiles + "-list/%p.profraw"
    var binaryListing = binaryListing
    binaryListing?.environment["LLVM_PROFILE_FILE"] = profiles + "-list/%p.profraw"
    let backend = { (xunit: String) in
      TestBackend.swiftPM(SwiftPMTests(list: list, binaryListing: binaryListing, xunitPath: xunit))
    }
    let packageFilter = package.runAll ? nil : TestFilter.targets(targets, suites: package.suites)
    guard !package.runAll else {
      var test = test
      test.environment["LLVM_PROFILE_FILE"] = profiles + "-all/%p.profraw"
      return [
        PackageStep(
          package: package.path, directory: directory, testTargets: [], runAll: true, filter: nil, build: build,
          test: test, run: package.run, backend: backend(xunit))
      ]
    }
    let userFiltered = options.extraArguments.contains {
      $0 == "--filter" || $0 == "--skip" || $0.hasPrefix("--filter=") || $0.hasPrefix("--skip=")
    }
    let userFilter = "the run's own --filter or --skip (after --) ran part of it"
    let binPath = ProcessRequest(
      options.swiftExecutable, ["build", "--show-bin-path"] + common + options.extraArguments,
      environment: build.environment)
    return targets.enumerated().map { index, target in
      let folder = profiles + "-" + PathComponent.escaped(target)
      let targetXunit = (xunit as NSString).deletingPathExtension + "-" + PathComponent.escaped(target) + ".xml"
      let filter = TestFilter.targets([target], suites: package.suites.filter { $0.key == target })
      var request = test
      // Built again rather than `SwiftPMTests.replacing`, which would also replace a `--filter` after `--`.
      request.arguments =
        ["test", "--skip-build"] + common + ["--filter", filter]
        + (TestFilter.skip([target], suites: package.suites).map { ["--skip", $0] } ?? [])
        + ["--xunit-output", targetXunit] + options.extraArguments
      request.environment["LLVM_PROFILE_FILE"] = folder + "/%p.profraw"
      var step = PackageStep(
        package: package.path, directory: directory, testTargets: [target], runAll: false, filter: filter,
        build: build, test: request, run: package.run, backend: backend(targetXunit))
      step.coverage = StepCoverage(
        target: target, profiles: folder, binPath: binPath, reusesBuild: index > 0, packageFilter: packageFilter,
        partial: package.suites[target] != nil
          ? "only some of its suites ran here (split across shards)" : userFiltered ? userFilter : nil)
      return step
    }
  }
}
