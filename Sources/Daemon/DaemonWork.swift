import DaemonSources
import DaemonSupport
import RippleConfig
import RippleCore
import RunModel
import ServiceLifecycle
import SystemClients

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The daemon's runs as a ServiceLifecycle service: resumes the queue, does the first scan, sends READY
/// once the port listens (opening `started` for the `SourceService`s), and at shutdown drains the runs.
/// ServiceGroup shuts services down in reverse order, so the sources have stopped by then and the HTTP
/// server still answers.
struct DaemonWork: Service {
  var scheduler: Scheduler
  var branchSources: [BranchSource]
  var worktreeSources: [WorktreeSource]
  var notifier: ServiceNotifier
  var log: DaemonLog
  var configuration: DaemonConfiguration
  var ready: Locked<Bool>
  /// Opened once the HTTP server listens.
  var listening: Latch
  /// Opened after READY: the sources start following.
  var started: Latch
  /// The last commit statuses and notifications get a few seconds after the runs drained.
  var deliveries: FinalDeliveries
  var queued: [RunRecord]

  func run() async throws {
    await scheduler.resume(queued)
    notifier.status("first scan of \(branchSources.count + worktreeSources.count) repositories")
    // The first scan: every remote fetched once (successfully or not), every working tree looked at.
    await withTaskGroup(of: Void.self) { group in
      for source in branchSources { group.addTask { await source.poll() } }
      for source in worktreeSources { group.addTask { await source.check(reason: "start-up") } }
    }
    // READY only once the port accepts connections (a failed bind ends the group, cancelling this wait).
    guard await cancelWhenGracefulShutdown({ await listening.wait() }) else {
      await scheduler.shutdown(grace: .zero)
      return
    }
    ready.withLock { $0 = true }
    let activity = await scheduler.activity
    notifier.ready(status: activity)
    log.info("ready: \(configuration.repositories.count) repositories; \(activity)")
    started.open()

    try? await gracefulShutdown()
    log.info("stopping: no new runs; running runs have \(configuration.shutdownGrace) to finish")
    notifier.stopping(status: "stopping: \(await scheduler.activity)")
    await scheduler.shutdown(grace: configuration.shutdownGrace)
    await deliveries.send()
  }
}

/// At shutdown, once the runs drained: the commit statuses and branch notifications still queued (those of the
/// runs that ended during the shutdown too) go out, within `cap` in all on `clock`. Past it, what is left is
/// dropped: the drain is cancelled, which cancels the deliveries themselves (a task group waits for its
/// children, so a wait that ignored cancellation would outlast the cap).
struct FinalDeliveries: Sendable {
  var statuses: CommitStatusReporter?
  var notifications: BranchNotifier?
  var cap: Duration = .seconds(5)
  var clock: ClockClient = .live

  func send() async {
    guard statuses != nil || notifications != nil else { return }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        async let statusesSent: Void? = statuses?.drain()
        async let notificationsSent: Void? = notifications?.drain()
        _ = await (statusesSent, notificationsSent)
      }
      group.addTask { try? await clock.sleep(cap) }
      await group.next()
      group.cancelAll()
    }
  }
}
