import Foundation
import RippleConfig
import RippleCore
import RunModel
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

/// At shutdown the commit statuses and branch notifications of the runs that ended go out before rippled exits
/// (those of a run that ended during the shutdown too), within a cap that really ends the wait.
@Suite struct FinalDeliveriesTests {
  static func settings(_ fixture: DaemonRunFixture) throws -> RepositorySettings {
    try "s3cret-token\n".write(toFile: fixture.folder + "/token", atomically: true, encoding: .utf8)
    var settings = fixture.settings
    settings.status = CommitStatusSettings(
      provider: .github, api: "https://api.github.com", repository: "acme/app", tokenFile: fixture.folder + "/token")
    settings.notify = NotifySettings(webhook: "https://hooks.example.com/T0/B0")
    return settings
  }

  /// A run passes, the next one is still testing when shutdown begins and fails during it: once the shutdown and
  /// the final deliveries returned, its failure status and the branch's "failed" notification were sent.
  @Test func aRunThatEndsDuringShutdownHasItsStatusAndNotificationSentBeforeTheDaemonExits() async throws {
    let calls = Locked(0)
    let gate = Latch()
    let fixture = try DaemonRunFixture(
      swiftTest: .run { request in
        let call = calls.withLock { count -> Int in
          count += 1
          return count
        }
        if call == 1 { return try DaemonRunFixture.swiftTestResult(request, failing: 0) }
        guard await gate.wait() else { throw CancellationError() }
        return try DaemonRunFixture.swiftTestResult(request, failing: 1)
      })
    let settings = try Self.settings(fixture)
    let sent = Locked<[String]>([])
    let send: HTTPDelivery.Send = { request in
      sent.withLock { $0.append(request.url + " " + String(decoding: request.body, as: UTF8.self)) }
      return 201
    }
    let statuses = CommitStatusReporter(repositories: [settings], publicURL: nil, log: fixture.log, send: send)
    let notifications = BranchNotifier(
      repositories: [settings], publicURL: nil, store: fixture.store, log: fixture.log, send: send)
    let changes = Locked<[String]>([])
    let scheduler = fixture.scheduler(
      settings: settings, statuses: statuses, notifications: notifications,
      onChange: { text in changes.withLock { $0.append(text) } })

    let newRun = NewRun(repository: "app", branch: "main", head: fixture.head, trigger: .api)
    let passing = try #require(await scheduler.submit(newRun))
    #expect(await DaemonRunFixture.waitFor("the first run to end") { await scheduler.runningIDs.isEmpty })
    #expect(try fixture.store.run(passing.id)?.state == .passed)
    let change = try fixture.commitAndFetch("break it")
    let failing = try #require(
      await scheduler.submit(NewRun(repository: "app", branch: "main", head: change, trigger: .api)))
    #expect(await DaemonRunFixture.waitFor("the second run's tests to start") { calls.withLock { $0 } == 2 })

    let deliveries = FinalDeliveries(statuses: statuses, notifications: notifications, clock: fixture.clock.client)
    let shutdown = Task {
      await scheduler.shutdown(grace: .seconds(3600))
      await deliveries.send()
    }
    #expect(
      await DaemonRunFixture.waitFor("the shutdown to begin") {
        changes.withLock { $0 }.contains { $0.hasPrefix("stopping") }
      })
    gate.open()
    await shutdown.value

    #expect(try fixture.store.run(failing.id)?.state == .failed, "it ended during the grace period")
    let bodies = sent.withLock { $0 }
    #expect(
      bodies.contains { $0.contains("/statuses/\(change)") && $0.contains(#""state":"failure""#) }, "\(bodies)")
    #expect(
      bodies.contains { $0.hasPrefix("https://hooks.example.com/") && $0.contains("run #\(failing.id)) failed") },
      "\(bodies)")
  }

  /// A forge or a webhook that does not answer: the shutdown waits for it (whichever it is) until the cap, then
  /// cancels it and says it was not sent. Deterministic: a shutdown that did not wait for it would never cancel it.
  @Test(arguments: ["commit status", "notification"])
  func theShutdownWaitsForADeliveryUnderWayUntilTheCapThenCancelsIt(_ hanging: String) async throws {
    let fixture = try DaemonRunFixture()
    let settings = try Self.settings(fixture)
    let attempts = Locked(0)
    let stopped = Locked(0)
    let answer = Latch()
    let send: HTTPDelivery.Send = { request in
      let isHook = request.url.hasPrefix("https://hooks.")
      guard isHook == (hanging == "notification") else { return 201 }
      attempts.withLock { $0 += 1 }
      guard await answer.wait() else {
        stopped.withLock { $0 += 1 }
        throw CancellationError()
      }
      return 201
    }
    let statuses = CommitStatusReporter(
      repositories: [settings], publicURL: nil, log: fixture.log, send: send, retryDelays: [.zero, .zero])
    let notifications = BranchNotifier(
      repositories: [settings], publicURL: nil, store: fixture.store, log: fixture.log, send: send,
      retryDelays: [.zero, .zero])
    // The branch passed, then failed: a failure status and a "failed" notification to send.
    for state in [RunState.passed, .failed] {
      let run = try fixture.runningRun()
      let ended = try fixture.store.finish(run.id, state: state, reason: nil)
      statuses.finished(ended)
      notifications.finished(ended)
    }
    let clock = ManualClock()
    let ended = Locked(false)
    let deliveries = Task {
      await FinalDeliveries(statuses: statuses, notifications: notifications, cap: .seconds(5), clock: clock.client)
        .send()
      ended.withLock { $0 = true }
    }
    #expect(await DaemonRunFixture.waitFor("the \(hanging) to be under way") { attempts.withLock { $0 } == 1 })
    #expect(await clock.waitForSleepers(1), "the cap's timer is armed")
    clock.advance(by: .seconds(5))
    let cancelled = await DaemonRunFixture.waitFor("the \(hanging) to be cancelled") { stopped.withLock { $0 } >= 1 }
    let endedInTime = await DaemonRunFixture.waitFor("the wait to end") { ended.withLock { $0 } }
    answer.open()  // lets a delivery that was not cancelled (a failure) finish, so the test ends either way
    await deliveries.value
    #expect(cancelled, "the shutdown waited for the \(hanging) until the cap, then cancelled it")
    #expect(endedInTime, "the cap ended the wait")
    #expect(attempts.withLock { $0 } == 1, "cancelled: not tried again, and what was queued behind it not sent")
    let warning = hanging == "notification" ? "notification webhook of app" : "commit status of app"
    #expect(fixture.daemonLog.withLock { $0 }.contains { $0.contains(warning) }, "\(fixture.daemonLog.withLock { $0 })")
  }
}
