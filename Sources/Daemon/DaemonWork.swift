import Foundation
import RippleConfig
import RippleCore
import RunModel
import RunStore
import ServiceLifecycle
import SystemClients

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The daemon's own work as a ServiceLifecycle service: ServiceGroup shuts services down in reverse order,
/// so this one drains its runs while the HTTP server still answers.
struct DaemonWork: Service {
  var store: RunStore
  var scheduler: Scheduler
  var branchSources: [BranchSource]
  var worktreeSources: [WorktreeSource]
  var notifier: ServiceNotifier
  var log: DaemonLog
  var health: HealthBoard
  var paths: DaemonPaths
  var configuration: DaemonConfiguration
  var ready: Locked<Bool>
  /// Opened once the HTTP server listens.
  var listening: Latch
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
    guard await listening.wait() else {
      for source in worktreeSources { source.stop() }
      await scheduler.shutdown(grace: .zero)
      return
    }
    ready.withLock { $0 = true }
    let activity = await scheduler.activity
    notifier.ready(status: activity)
    log.info("ready: \(configuration.repositories.count) repositories; \(activity)")

    let background = Task {
      await withTaskGroup(of: Void.self) { group in
        for source in branchSources { group.addTask { await source.run() } }
        for source in worktreeSources { group.addTask { await source.run() } }
        if let interval = notifier.watchdogInterval {
          group.addTask {
            while !Task.isCancelled {
              notifier.watchdog()
              try? await Task.sleep(for: interval)
            }
          }
        }
        group.addTask { await maintenance() }
      }
    }
    try? await gracefulShutdown()

    log.info("stopping: no new runs; running runs have \(configuration.shutdownGrace) to finish")
    notifier.stopping(status: "stopping: \(await scheduler.activity)")
    background.cancel()
    for source in worktreeSources { source.stop() }
    await scheduler.shutdown(grace: configuration.shutdownGrace)
    _ = await background.value
  }

  /// Retention once an hour (and at start); a logs folder that failed is probed every 10 s so the daemon
  /// reports healthy again as soon as it can write.
  private func maintenance() async {
    var sinceRetention = Duration.seconds(3600)
    while !Task.isCancelled {
      if sinceRetention >= .seconds(3600) {
        sinceRetention = .zero
        do {
          let removed = try store.prune(
            maxRuns: configuration.retention.maxRuns, maxAge: configuration.retention.maxAge)
          for path in removed { try? FileManager.default.removeItem(atPath: path) }
          if !removed.isEmpty { log.info("retention: removed \(removed.count) old runs") }
        } catch {
          log.warning("retention failed: \(error)")
        }
      }
      if !health.isHealthy { probeLogs() }
      if health.has(HealthBoard.storeReads), sinceRetention.components.seconds % 30 == 0 { probeStore() }
      try? await Task.sleep(for: .seconds(2))
      sinceRetention += .seconds(2)
    }
  }

  /// A failed read made the daemon unhealthy: healthy again once the whole file checks out.
  private func probeStore() {
    do {
      try store.checkIntegrity()
      health.set(HealthBoard.storeReads, nil)
      log.info("the runs database checks out again")
    } catch {
      health.set(HealthBoard.storeReads, error.description)
    }
  }

  private func probeLogs() {
    let probe = paths.logs + "/.rippled-probe"
    do {
      try FileManager.default.createDirectory(atPath: paths.logs, withIntermediateDirectories: true)
      try Data("ok".utf8).write(to: URL(fileURLWithPath: probe))
      try FileManager.default.removeItem(atPath: probe)
      health.set("logs", nil)
    } catch {
      health.set("logs", "cannot write run logs in \(paths.logs): \(error.localizedDescription)")
    }
  }
}
