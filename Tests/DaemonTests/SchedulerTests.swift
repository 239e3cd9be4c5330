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

  @Test func aRunLongerThanItsTimeoutIsStoppedAndRecordedAsAnError() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(swiftTest: held.response)
    var settings = fixture.settings
    settings.runTimeout = .seconds(600)
    let scheduler = fixture.scheduler(settings: settings)
    let run = try #require(await scheduler.submit(Self.newRun(fixture)))
    #expect(await DaemonRunFixture.waitFor("the run's tests to start") { held.startedCount == 1 })
    #expect(await fixture.clock.waitForSleepers(1), "the scheduler's timer is armed")
    fixture.clock.advance(by: .seconds(600))
    #expect(await DaemonRunFixture.waitFor("the run to end") { await Self.idle(scheduler) })
    let recorded = try #require(try fixture.store.run(run.id))
    #expect(recorded.state == .error)
    #expect(recorded.reason == "timed out after 600.0 seconds; its processes were stopped")
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
