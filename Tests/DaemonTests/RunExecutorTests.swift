import Foundation
import RippleCore
import RunModel
import RunStore
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

/// `RunExecutor` in process: a real mirror and store, the toolchain a `ScriptedProcess`, every other service
/// `failing` (a download or an unscripted command would be a test issue).
@Suite struct RunExecutorTests {
  @Test func aPassingRunIsRecordedWithItsAnalysisAndItsTarget() async throws {
    let fixture = try DaemonRunFixture()
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil)
    #expect(outcome == .passed(nil))
    let recorded = try #require(try fixture.store.run(run.id))
    #expect(recorded.selectedTestTargets == 1 && recorded.totalTestTargets == 1)
    #expect(recorded.failedTests == 0)
    let analysis = try #require(try fixture.store.detail(run.id)?.analysis)
    #expect(analysis.runAllReasons.first?.contains("no passing run of main yet") == true, "\(analysis.runAllReasons)")
    #expect(fixture.process.requests(matching: .command("swift", "build")).count == 1)
    #expect(fixture.process.requests(matching: .command("swift", "test")).count >= 1)
  }

  @Test func aTestFailureIsAFailedOutcomeNamingTheCountAndThePackage() async throws {
    let fixture = try DaemonRunFixture(swiftTest: DaemonRunFixture.swiftTest(failing: 2))
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil)
    #expect(outcome == .failed("2 tests failed in the root package"))
    #expect(try fixture.store.run(run.id)?.failedTests == 2)
  }

  @Test func aCommandThatCannotStartIsAnErrorOfTheRunNotAFailureOfTheCode() async throws {
    let fixture = try DaemonRunFixture(swiftTest: .fail(ProcessError.notFound(executable: "swift")))
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil)
    guard case .error(let message) = outcome else {
      Issue.record("expected an error outcome, got \(outcome)")
      return
    }
    #expect(message.contains("swift"), "\(message)")
  }

  @Test func theRepositorysShorterDeadlineStopsTheTestsAndIsAnError() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(rippleYML: "daemon:\n  runTimeout: 5m\n", swiftTest: held.response)
    let run = try fixture.runningRun()
    let executor = fixture.executor
    let settings = fixture.settings
    let execution = Task { await executor.execute(run, settings: settings, logFile: nil) }
    // The tests are running and the deadline's timer is armed: only then does the time move.
    #expect(await DaemonRunFixture.waitFor("swift test to start") { held.startedCount == 1 })
    #expect(await fixture.clock.waitForSleepers(1))
    fixture.clock.advance(by: .seconds(5 * 60))
    let outcome = await execution.value
    #expect(
      outcome == .error("timed out after 300.0 seconds (daemon.runTimeout in ripple.yml); its processes were stopped"))
  }

  @Test func aRunWithoutAMirrorEndsInAnErrorWithoutRunningAnything() async throws {
    let fixture = try DaemonRunFixture()
    try FileManager.default.removeItem(atPath: fixture.paths.mirror("app"))
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil)
    guard case .error = outcome else {
      Issue.record("expected an error outcome, got \(outcome)")
      return
    }
    #expect(fixture.process.requests.isEmpty)
  }
}
