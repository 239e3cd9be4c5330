import Coverage
import Foundation
import RippleConfig
import RunModel
import RunStore
import TestSupport
import Testing

@testable import Daemon

/// `coverage: true`: the run asks for the suite's coverage and records it; a toolchain without llvm-cov is the
/// run's error, as it is `ripple test --coverage`'s (the toolchain is a `ScriptedProcess`: nothing really builds).
@Suite struct RunCoverageTests {
  /// A folder standing in for a toolchain: `swift` and, unless left out, `llvm-profdata` and `llvm-cov` (never
  /// run: the scripted process answers), so `CoverageRunOptions.locate` finds what it looks for.
  static func toolchain(in fixture: DaemonRunFixture, tools: [String]) throws -> String {
    let folder = fixture.folder + "/toolchain"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for tool in ["swift"] + tools {
      FileManager.default.createFile(
        atPath: folder + "/" + tool, contents: Data("#!/bin/sh\nexit 1\n".utf8), attributes: [.posixPermissions: 0o755])
    }
    return folder + "/swift"
  }

  static func executor(_ fixture: DaemonRunFixture, swift: String) -> RunExecutor {
    var executor = fixture.executor
    executor.services.environment["RIPPLE_SWIFT"] = swift
    return executor
  }

  @Test func aToolchainWithoutLLVMCovIsTheRunsErrorBeforeAnythingBuilds() async throws {
    let fixture = try DaemonRunFixture()
    let swift = try Self.toolchain(in: fixture, tools: [])
    var settings = fixture.settings
    settings.coverage = true
    let run = try fixture.runningRun()
    let outcome = await Self.executor(fixture, swift: swift).execute(run, settings: settings, logFile: nil)
    guard case .error(let reason) = outcome else {
      Issue.record("expected an error outcome, got \(outcome)")
      return
    }
    #expect(reason.hasPrefix("coverage is on for app (coverage: true), but"), "\(reason)")
    #expect(reason.contains("llvm-profdata and llvm-cov"), "\(reason)")
    #expect(fixture.process.requests(matching: .command("swift", "build")).isEmpty)
    #expect(try fixture.store.run(run.id)?.coverage == nil)
  }

  /// The scripted tests write no profile, so the one test target is not measured: the run still passes, and its
  /// coverage is recorded as partial with no line measured (never 0 %).
  @Test func aRunWithCoverageOnRecordsItsFiguresAndPasses() async throws {
    let fixture = try DaemonRunFixture()
    let swift = try Self.toolchain(in: fixture, tools: ["llvm-profdata", "llvm-cov"])
    var settings = fixture.settings
    settings.coverage = true
    let run = try fixture.runningRun()
    let outcome = await Self.executor(fixture, swift: swift).execute(run, settings: settings, logFile: nil)
    #expect(outcome == .passed(nil))
    let coverage = try #require(try fixture.store.run(run.id)?.coverage)
    #expect(coverage == RunCoverage(linesCovered: 0, linesTotal: 0, targetsMeasured: 0, targetsNotMeasured: 1))
    #expect(coverage.percent == nil && coverage.isPartial)
    let build = try #require(fixture.process.requests(matching: .command("swift", "build")).first)
    #expect(build.arguments.contains("--enable-code-coverage"), "\(build.arguments)")
    let test = try #require(fixture.process.requests(matching: .command("swift", "test")).last)
    #expect(test.environment["LLVM_PROFILE_FILE"] != nil, "each target's profile in its own folder")
  }

  @Test func withoutCoverageTheRunRecordsNone() async throws {
    let fixture = try DaemonRunFixture()
    let run = try fixture.runningRun()
    #expect(await fixture.executor.execute(run, settings: fixture.settings, logFile: nil) == .passed(nil))
    #expect(try fixture.store.run(run.id)?.coverage == nil)
  }

  @Test func theStoredFiguresCountTheTargetsBySource() throws {
    // The `coverage` of `ripple test --report-json`: 2 targets measured (fresh, recorded), 1 not.
    let json = """
      {"lines": 200, "covered": 150, "percent": 75, "files": [], "notMeasured": [], "targets": [
        {"unit": ".:ATests", "source": "fresh", "totals": {"lines": 100, "covered": 80}},
        {"unit": ".:BTests", "source": "recorded", "detail": "run 3", "totals": {"lines": 100, "covered": 70}},
        {"unit": ".:CTests", "source": "notMeasured", "detail": "no record", "totals": {"lines": 0, "covered": 0}}]}
      """
    let document = try JSONDecoder().decode(CoverageDocument.self, from: Data(json.utf8))
    let coverage = RunExecutor.coverage(of: document)
    #expect(coverage == RunCoverage(linesCovered: 150, linesTotal: 200, targetsMeasured: 2, targetsNotMeasured: 1))
    #expect(
      RunExecutor.describe(coverage)
        == "line coverage 75.0% (150 of 200 lines; 2 test targets measured, 1 not: partial)")
  }
}
