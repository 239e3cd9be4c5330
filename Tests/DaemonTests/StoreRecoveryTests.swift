import Foundation
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import ServiceMetrics
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport
@testable import RunStore

/// Issue 23, item 5: after the runs database refused writes (a full disk) and takes them again, the scheduler
/// recovers by itself: the run that ended meanwhile is recorded with its real outcome, queued runs start, and the
/// daemon is healthy again. The full disk is an injected failing writer in process (SQLite triggers that refuse
/// the writes, dropped to "free the space"), not a real file system: deterministic and needing no mount.
@Suite struct StoreRecoveryTests {
  final class Fixture: Sendable {
    let folder: String
    let store: RunStore
    let health = HealthBoard()
    let scheduler: Scheduler

    init() throws {
      folder = NSTemporaryDirectory() + "ripple-recovery-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: folder + "/logs", withIntermediateDirectories: true)
      store = try RunStore(path: folder + "/runs.sqlite")
      let paths = DaemonPaths(state: folder + "/state", cache: folder + "/cache", logs: folder + "/logs")
      // No mirror exists: every run ends quickly as `error` ("not fetched"), its real outcome here.
      // The scheduler arms a timer per run: a clock that never moves (the runs end long before).
      var services = RippleServices.failing
      services.clock = ManualClock().client
      let executor = RunExecutor(paths: paths, store: store, services: services)
      scheduler = Scheduler(
        limit: 1, store: store, executor: executor,
        repositories: [RepositorySettings(name: "app", source: .remote(url: folder + "/remote.git"))],
        log: DaemonLog(minimum: .error, sink: { _ in }), metrics: DaemonMetrics(repositories: ["app"]),
        health: health, maxLogBytes: 1 << 20, onChange: { _ in })
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Every change of state refused, as SQLite refuses them on a full disk.
    func fillDisk(refusing condition: String = "1") throws {
      try store.execute(
        sql: """
          CREATE TRIGGER full BEFORE UPDATE OF state ON runs WHEN \(condition)
          BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
          """)
    }

    func freeDisk() throws { try store.execute(sql: "DROP TRIGGER full") }

    func waitFor(_ what: String, _ condition: () async throws -> Bool) async throws {
      if try await !poll(every: .milliseconds(20), timeout: .seconds(60), until: condition) {
        Issue.record("timed out waiting for \(what)")
      }
    }
  }

  @Test func aRunThatEndedDuringAFullDiskIsRecordedWithItsRealOutcomeAfterwards() async throws {
    let fixture = try Fixture()
    // Starting may be written; ending may not.
    try fixture.fillDisk(refusing: "NEW.state NOT IN ('queued', 'running')")
    let run = try #require(
      await fixture.scheduler.submit(NewRun(repository: "app", branch: "main", head: "abc", trigger: .api)))
    try await fixture.waitFor("the run to end unrecorded") {
      await fixture.scheduler.runningIDs.isEmpty && !fixture.health.isHealthy
    }
    #expect(try fixture.store.run(run.id)?.state == .running, "the store could not take its end")

    await fixture.scheduler.retryStoreWrites()
    #expect(!fixture.health.isHealthy, "still full: still unhealthy")
    try fixture.freeDisk()
    await fixture.scheduler.retryStoreWrites()
    #expect(fixture.health.isHealthy)
    let recorded = try #require(try fixture.store.run(run.id))
    #expect(recorded.state == .error)
    #expect(recorded.reason?.isEmpty == false)
  }

  @Test func queuedRunsThatCouldNotStartStartOnceTheDiskHasRoom() async throws {
    let fixture = try Fixture()
    let queued = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .api))
    try fixture.fillDisk()
    await fixture.scheduler.resume([queued])
    #expect(!fixture.health.isHealthy)
    #expect(try fixture.store.run(queued.id)?.state == .queued)
    #expect(await fixture.scheduler.runningIDs.isEmpty)

    try fixture.freeDisk()
    await fixture.scheduler.retryStoreWrites()
    #expect(fixture.health.isHealthy)
    try await fixture.waitFor("the queued run to start and end") {
      try fixture.store.run(queued.id)?.state.isFinal == true
    }
    #expect(try fixture.store.run(queued.id)?.state == .error)
  }
}
