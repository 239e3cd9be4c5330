import DaemonSources
import DaemonSupport
import Foundation
import RippleConfig
import RunStore
import ServiceLifecycle
import SystemClients

// The daemon's background work, one ServiceLifecycle `Service` each, all in rippled's one `ServiceGroup`
// (Rippled.swift). The group stops services in reverse order: the watchdog, maintenance and the sources stop
// first, then `DaemonWork` drains the runs, then the HTTP server, which keeps answering until the end.

/// One repository source after the first scan: follows the remote's branches or the working tree until
/// shutdown. Starts once `DaemonWork` has sent READY (`started`).
struct SourceService: Service {
  var name: String
  var started: Latch
  var follow: @Sendable () async -> Void
  var stop: @Sendable () -> Void

  init(_ source: BranchSource, started: Latch) {
    name = source.settings.name
    self.started = started
    follow = { await source.run() }
    stop = {}
  }

  init(_ source: WorktreeSource, started: Latch) {
    name = source.settings.name
    self.started = started
    follow = { await source.run() }
    stop = { source.stop() }
  }

  func run() async throws {
    defer { stop() }
    guard await cancelWhenGracefulShutdown({ await started.wait() }) else { return }
    await cancelWhenGracefulShutdown { await follow() }
  }
}

/// `WATCHDOG=1` every half `WATCHDOG_USEC` while the daemon runs (only added when systemd asks for it).
struct WatchdogService: Service {
  var notifier: ServiceNotifier
  var interval: Duration

  func run() async throws {
    await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        notifier.watchdog()
        try? await Task.sleep(for: interval)
      }
    }
  }
}

/// Retention once an hour (and at start); a logs folder that failed is probed every 2 s, store writes that
/// failed (a full disk) are tried again every 2 s, and a runs database that failed a read is checked every 30 s,
/// so the daemon recovers by itself, and reports healthy again, as soon as it can.
struct MaintenanceService: Service {
  var store: RunStore
  var retention: Retention
  var health: HealthBoard
  var logs: String
  var log: DaemonLog
  /// Retries the store writes a full disk refused (nil in tests of retention alone).
  var scheduler: Scheduler? = nil

  func run() async throws {
    await cancelWhenGracefulShutdown {
      var sinceRetention = Duration.seconds(3600)
      while !Task.isCancelled {
        if sinceRetention >= .seconds(3600) {
          sinceRetention = .zero
          pruneOldRuns()
        }
        if !health.isHealthy { probeLogs() }
        await scheduler?.retryStoreWrites()
        if health.has(HealthBoard.storeReads), sinceRetention.components.seconds % 30 == 0 { probeStore() }
        try? await Task.sleep(for: .seconds(2))
        sinceRetention += .seconds(2)
      }
    }
  }

  private func pruneOldRuns() {
    do {
      let removed = try store.prune(maxRuns: retention.maxRuns, maxAge: retention.maxAge)
      for path in removed { try? FileManager.default.removeItem(atPath: path) }
      if !removed.isEmpty { log.info("retention: removed \(removed.count) old runs") }
    } catch {
      log.warning("retention failed: \(error)")
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
    let probe = logs + "/.rippled-probe"
    do {
      try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
      try Data("ok".utf8).write(to: URL(fileURLWithPath: probe))
      try FileManager.default.removeItem(atPath: probe)
      health.set("logs", nil)
    } catch {
      health.set("logs", "cannot write run logs in \(logs): \(error.localizedDescription)")
    }
  }
}
