import Foundation
import RippleConfig
import RunModel
import RunStore
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

/// The `Scheduler` actor in process, over the real executor with a scripted toolchain and a manual clock: the
/// tests act once a run is provably running (its `swift test` started), never after a guessed delay.
@Suite struct SchedulerTests {
  static func newRun(_ fixture: DaemonRunFixture) -> NewRun {
    NewRun(repository: "app", branch: "main", head: fixture.head, trigger: .api)
  }

  static func idle(_ scheduler: Scheduler) async -> Bool {
    let running = await scheduler.runningIDs
    let queued = await scheduler.queueLength
    return running.isEmpty && queued == 0
  }

  @Test func queuedRunsOfOneBranchCoalesceIntoTheNewest() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(swiftTest: held.response)
    let scheduler = fixture.scheduler()
    let first = try #require(await scheduler.submit(Self.newRun(fixture)))
    #expect(await DaemonRunFixture.waitFor("the first run's tests to start") { held.startedCount == 1 })
    let second = try #require(await scheduler.submit(Self.newRun(fixture)))
    let third = try #require(await scheduler.submit(Self.newRun(fixture)))
    #expect(await scheduler.queueLength == 1, "the second run gave way to the third")
    #expect(try fixture.store.run(second.id)?.state == .superseded)
    #expect(try fixture.store.run(second.id)?.reason == "superseded by run \(third.id) before it started")
    held.release()
    #expect(await DaemonRunFixture.waitFor("every run to end") { await Self.idle(scheduler) })
    #expect(try fixture.store.run(first.id)?.state == .passed)
    #expect(try fixture.store.run(third.id)?.state == .passed)
    #expect(try fixture.store.run(second.id)?.startedAt == nil, "the superseded run never ran")
  }

  /// Runs `fixture`'s one run under `runTimeout` (rippled.yml), its `swift test` held, and moves the clock by
  /// `elapsed` once the run's tests are running and its timer is armed. Returns the run as recorded once it ended.
  static func timedOutRun(_ fixture: DaemonRunFixture, held: HeldProcess, runTimeout: Duration, elapsed: Duration)
    async throws -> RunRecord
  {
    var settings = fixture.settings
    settings.runTimeout = runTimeout
    let scheduler = fixture.scheduler(settings: settings)
    let run = try #require(await scheduler.submit(Self.newRun(fixture)))
    // A limit from ripple.yml is reported (and its timer armed) before the tests start: only then does time move.
    #expect(await DaemonRunFixture.waitFor("the run's tests to start") { held.startedCount == 1 })
    #expect(await fixture.clock.waitForSleepers(1), "the scheduler's timer is armed")
    fixture.clock.advance(by: elapsed)
    #expect(await DaemonRunFixture.waitFor("the run to end") { await Self.idle(scheduler) })
    return try #require(try fixture.store.run(run.id))
  }

  @Test func aRunLongerThanRippledYmlsTimeoutIsStoppedWithItsProcessesAndTheRecordNamesTheSetting() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(swiftTest: held.response)
    let recorded = try await Self.timedOutRun(fixture, held: held, runTimeout: .seconds(600), elapsed: .seconds(600))
    #expect(recorded.state == .error)
    #expect(recorded.reason == "timed out after 600.0 seconds (runTimeout in rippled.yml); its processes were stopped")
    #expect(held.stoppedCount == 1, "its swift test was stopped, not left running")
    let warning = "run \(recorded.id): timed out after 600.0 seconds (runTimeout in rippled.yml): stopping its process"
    #expect(fixture.daemonLog.withLock { $0 }.contains { $0.contains(warning) })
    let runLog = try String(contentsOfFile: fixture.paths.log(run: recorded.id), encoding: .utf8)
    #expect(runLog.contains("timed out after 600.0 seconds (runTimeout in rippled.yml)"), "\(runLog)")
  }

  @Test func aShorterTimeoutInTheRepositorysRippleYmlStopsTheRunTheSameWayAndIsNamed() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(rippleYML: "daemon:\n  runTimeout: 5m\n", swiftTest: held.response)
    // 300 s: past ripple.yml's limit, half of rippled.yml's.
    let recorded = try await Self.timedOutRun(fixture, held: held, runTimeout: .seconds(600), elapsed: .seconds(300))
    #expect(recorded.state == .error)
    #expect(
      recorded.reason == "timed out after 300.0 seconds (daemon.runTimeout in ripple.yml); its processes were stopped")
    #expect(held.stoppedCount == 1, "its swift test was stopped, not left running")
    let runLog = try String(contentsOfFile: fixture.paths.log(run: recorded.id), encoding: .utf8)
    #expect(runLog.contains("ripple.yml sets daemon.runTimeout: 300.0 seconds"), "\(runLog)")
    #expect(runLog.contains("timed out after 300.0 seconds (daemon.runTimeout in ripple.yml)"), "\(runLog)")
    #expect(fixture.clock.sleepsStarted == 2, "one timer for rippled.yml's limit, then one for ripple.yml's")
  }

  @Test func aLongerTimeoutInTheRepositorysRippleYmlDoesNotExtendRippledYmls() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(rippleYML: "daemon:\n  runTimeout: 1h\n", swiftTest: held.response)
    let recorded = try await Self.timedOutRun(fixture, held: held, runTimeout: .seconds(300), elapsed: .seconds(300))
    #expect(recorded.reason == "timed out after 300.0 seconds (runTimeout in rippled.yml); its processes were stopped")
    #expect(held.stoppedCount == 1)
    #expect(fixture.clock.sleepsStarted == 1, "rippled.yml's timer was kept")
  }

  @Test func aCancelledRunningRunIsRecordedCancelledAndTheNextOneStarts() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(swiftTest: held.response)
    let scheduler = fixture.scheduler()
    let first = try #require(await scheduler.submit(Self.newRun(fixture)))
    #expect(await DaemonRunFixture.waitFor("the run's tests to start") { held.startedCount == 1 })
    let other = try #require(
      await scheduler.submit(NewRun(repository: "app", branch: "feature", head: fixture.head, trigger: .api)))
    #expect(await scheduler.cancel(first.id))
    #expect(await DaemonRunFixture.waitFor("the next run to start") { held.startedCount == 2 })
    #expect(try fixture.store.run(first.id)?.state == .cancelled)
    held.release()
    #expect(await DaemonRunFixture.waitFor("every run to end") { await Self.idle(scheduler) })
    #expect(try fixture.store.run(other.id)?.state == .passed)
  }
}
