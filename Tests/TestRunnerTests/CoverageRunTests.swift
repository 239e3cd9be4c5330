import Coverage
import Foundation
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

/// `--coverage` in the runner: one process per target with its own profiles, exported by the toolchain's
/// llvm tools (scripted here; the real ones in RippleIntegrationTests/CoverageTests).
@Suite struct CoverageRunTests {
  static let listing = "ATests.ACase/testA\nBTests.BCase/testB\n"

  static func console(_ target: String, crash: Bool = false) -> String {
    let name = target == "ATests" ? "ACase.testA" : "BCase.testB"
    return "Test Case '\(name)' started at 2026-11-22 13:26:17.377\n"
      + (crash ? "" : "Test Case '\(name)' passed (0.001 seconds)\n")
  }

  static let lcov = """
    SF:/repo/Sources/Lib/Lib.swift
    DA:1,2
    DA:3,0
    end_of_record
    SF:/repo/.build/x86_64-unknown-linux-gnu/debug/Lib.build/DerivedSources/resource_bundle_accessor.swift
    DA:1,1
    end_of_record
    SF:/repo/Sources/Lib/Mit Leerzeichen ü.swift
    DA:2,1
    end_of_record

    """

  /// The package's toolchain, scripted: `crashing` targets end mid-test, `exportStderr` is llvm-cov's.
  static func toolchain(bin: String, crashing: Set<String> = [], exportStderr: String = "") -> ScriptedProcess {
    ScriptedProcess { request in
      if request.executable.hasSuffix("llvm-profdata") { return ScriptedProcess.result(request) }
      if request.executable.hasSuffix("llvm-cov") {
        return ScriptedProcess.result(request, stdout: lcov, stderr: exportStderr)
      }
      switch request.subcommand {
      case "build":
        return ScriptedProcess.result(request, stdout: request.arguments.contains("--show-bin-path") ? bin + "\n" : "")
      case "list": return ScriptedProcess.result(request, stdout: listing)
      default:
        let target = request.value(after: "--filter") == #"^(ATests)\."# ? "ATests" : "BTests"
        // The test binary writes its profile where LLVM_PROFILE_FILE says.
        let pattern = try #require(request.environment["LLVM_PROFILE_FILE"] ?? nil)
        let folder = (pattern as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if !crashing.contains(target) {
          try Data("profile".utf8).write(to: URL(fileURLWithPath: folder + "/4242.profraw"))
        }
        let crash = crashing.contains(target)
        return ScriptedProcess.result(request, status: crash ? 1 : 0, stdout: console(target, crash: crash))
      }
    }
  }

  static func options(_ dir: String) -> TestRunOptions {
    var options = TestRunOptions(repositoryRoot: "/repo", workDirectory: dir)
    options.coverage = CoverageRunOptions(toolDirectory: "/toolchain/usr/bin")
    return options
  }

  static func binFolder(_ dir: String) throws -> String {
    let bin = dir + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try Data().write(to: URL(fileURLWithPath: bin + "/PPackageTests.xctest"))
    return bin
  }

  @Test func anInstrumentedBuildHasAFolderOfItsOwnBesideThePlainOne() {
    // Alternating runs with and without --coverage in one folder would rebuild every module each time.
    let selection = TestSelection(packages: [
      PackageSelection(path: "Packages/P", testTargets: ["ATests"]),
      PackageSelection(
        path: "Packages/P", testTargets: ["ATests"], run: TestRunContext(name: "client", scratchFolder: "client")),
    ])
    var plain = TestRunOptions(repositoryRoot: "/repo")
    var measured = plain
    measured.coverage = CoverageRunOptions(toolDirectory: "/toolchain/usr/bin")
    let folders = { (options: TestRunOptions) in
      TestRunner.plan(selection, options: options).packages.flatMap { step in
        [step.build.value(after: "--scratch-path"), step.test.value(after: "--scratch-path")]
      }
    }
    #expect(folders(plain) == [nil, "/repo/.build/ripple/runs/client/Packages_2FP"].flatMap { [$0, $0] })
    #expect(
      folders(measured)
        == ["/repo/Packages/P/.build/ripple-coverage", "/repo/.build/ripple/runs/client/Packages_2FP-coverage"]
        .flatMap { [$0, $0] })
    // Under a base of the user's (`--scratch-path` of ripple test), beside the plain folder too.
    plain.scratchPath = "/scratch"
    measured.scratchPath = "/scratch"
    #expect(folders(plain) == ["/scratch/Packages_2FP", "/scratch/client/Packages_2FP"].flatMap { [$0, $0] })
    #expect(
      folders(measured)
        == ["/scratch/Packages_2FP-coverage", "/scratch/client/Packages_2FP-coverage"].flatMap {
          [$0, $0]
        })
    // A folder given to swift itself (after --) is the user's, with or without coverage.
    measured.extraArguments = ["--scratch-path", "/mine"]
    #expect(folders(measured).allSatisfy { $0 == "/mine" })
  }

  @Test func eachTargetRunsInItsOwnProcessWithItsOwnProfilesAndOneBuild() {
    var options = TestRunOptions(repositoryRoot: "/repo")
    options.coverage = CoverageRunOptions(toolDirectory: "/toolchain/usr/bin")
    let plan = TestRunner.plan(
      TestSelection(packages: [PackageSelection(path: "Packages/P", testTargets: ["BTests", "ATests"])]),
      options: options)
    #expect(plan.packages.count == 2)
    #expect(plan.packages.map(\.testTargets) == [["ATests"], ["BTests"]])
    #expect(plan.packages[0].build.arguments.prefix(3) == ["build", "--build-tests", "--enable-code-coverage"])
    #expect(plan.packages.map { $0.coverage?.reusesBuild } == [false, true])
    #expect(plan.packages.map { $0.test.value(after: "--filter") } == [#"^(ATests)\."#, #"^(BTests)\."#])
    let profiles = plan.packages.map { $0.test.environment["LLVM_PROFILE_FILE"] ?? nil }
    #expect(
      profiles == [
        "<run directory>/coverage/Packages_2FP-ATests/%p.profraw",
        "<run directory>/coverage/Packages_2FP-BTests/%p.profraw",
      ])
    // `swift test list` runs the instrumented binary too: its profile goes where nothing reads it, never
    // into the working directory (a default.profraw there would change the repository).
    let list = try? plan.packages[0].swiftPM.list
    #expect((list?.environment["LLVM_PROFILE_FILE"] ?? nil)?.hasPrefix("<run directory>/coverage/") == true)
    #if os(Linux)
      // Each step lists the tests from the built binary, as a run without coverage does (not one more SwiftPM
      // process per target); the instrumented binary's profile goes where the listing's goes.
      for step in plan.packages {
        let listing = try? step.swiftPM.binaryListing
        #expect(listing != nil)
        #expect((listing?.environment["LLVM_PROFILE_FILE"] ?? nil) == (list?.environment["LLVM_PROFILE_FILE"] ?? nil))
      }
    #endif
    #expect(Set(plan.packages.compactMap { $0.coverage?.packageFilter }) == [#"^(ATests|BTests)\."#])
  }

  @Test func aTargetRunInPartIsNotMeasuredAndAUserFilterIsKept() {
    var options = TestRunOptions(repositoryRoot: "/repo", extraArguments: ["--skip", "Slow"])
    options.coverage = CoverageRunOptions(toolDirectory: "/toolchain/usr/bin")
    let plan = TestRunner.plan(
      TestSelection(packages: [PackageSelection(path: ".", testTargets: ["ATests"])]), options: options)
    #expect(plan.packages.first?.test.arguments.suffix(2) == ["--skip", "Slow"])
    #expect(plan.packages.first?.coverage?.partial == "the run's own --filter or --skip (after --) ran part of it")
  }

  @Test func measuresEachTargetAndReportsOnePackage() async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.toolchain(bin: try Self.binFolder(dir))
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["ATests", "BTests"])]),
        options: Self.options(dir))
      #expect(
        process.requests.filter { $0.subcommand == "build" && !$0.arguments.contains("--show-bin-path") }.count == 1)
      #expect(
        process.requests.filter { $0.arguments.contains("--show-bin-path") }.count == 1, "asked once per package")
      // The second target's step reuses the first one's build, and its listing: one per package.
      #expect(process.requests.filter { $0.subcommand == "list" }.count == 1, "listed once per package")
      let package = try #require(result.packages.first)
      #expect(result.packages.count == 1)
      #expect(package.status == .passed)
      #expect(package.filter == #"^(ATests|BTests)\."#)
      #expect(package.targets.map(\.name) == ["ATests", "BTests"])
      #expect(result.freshCoverage.map(\.target) == ["ATests", "BTests"])
      let expected = LineCoverage(files: [
        "Sources/Lib/Lib.swift": [1: 2, 3: 0], "Sources/Lib/Mit Leerzeichen ü.swift": [2: 1],
      ])
      #expect(result.freshCoverage.map(\.outcome) == [.measured(expected), .measured(expected)])
      let export = try #require(process.requests.first { $0.executable.hasSuffix("llvm-cov") })
      #expect(export.executable == "/toolchain/usr/bin/llvm-cov")
      #expect(export.arguments.contains("-ignore-filename-regex=/\\.build/"))
      #expect(export.arguments.contains(dir + "/bin/PPackageTests.xctest"))
      let merge = try #require(process.requests.first { $0.executable.hasSuffix("llvm-profdata") })
      #expect(merge.arguments.last?.hasSuffix("-ATests/4242.profraw") == true)
    }
  }

  @Test func aTargetWhoseTestProcessCrashedIsNotMeasured() async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.toolchain(bin: try Self.binFolder(dir), crashing: ["BTests"])
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["ATests", "BTests"])]),
        options: Self.options(dir))
      #expect(result.packages.first?.status == .failed)
      let b = try #require(result.freshCoverage.first { $0.target == "BTests" })
      guard case .notMeasured(let reason) = b.outcome else {
        Issue.record("BTests measured after a crash: \(b.outcome)")
        return
      }
      #expect(reason.contains("crashed") && reason.contains("incomplete"), "\(reason)")
      guard case .measured = result.freshCoverage.first(where: { $0.target == "ATests" })?.outcome else {
        Issue.record("ATests ran in its own process and passed: it is measured")
        return
      }
    }
  }

  /// What llvm-cov 17 prints (exit 0, the unmatched functions left out of its export) for a profile of another
  /// build of the binary.
  @Test(arguments: [
    "warning: 3 functions have mismatched data\n",
    "warning: /p/.build/debug/PPackageTests.xctest: profile data may be out of date - object is newer\n",
  ])
  func profilesThatDoNotMatchTheBinaryAreNeverMerged(_ warning: String) async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.toolchain(bin: try Self.binFolder(dir), exportStderr: warning)
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["ATests"])]), options: Self.options(dir))
      #expect(
        result.freshCoverage.map(\.outcome) == [
          .notMeasured("its profiles do not match the test binary (from another build): not merged")
        ])
    }
  }

  @Test func aBuildFailureIsSharedByTheTargetsThatReuseIt() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        ScriptedProcess.result(request, status: 1, stderr: "error: no\n")
      }
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["ATests", "BTests"])]),
        options: Self.options(dir))
      #expect(process.requests.count == 1, "one build, no second attempt: \(process.requests.map(\.commandLine))")
      #expect(result.packages.map(\.status) == [.buildFailed])
      #expect(
        result.freshCoverage.map(\.outcome) == [
          .notMeasured("the package did not build"), .notMeasured("the package did not build"),
        ])
    }
  }
}
