import Foundation

/// Stops what is left of a cancelled child: its process group, and every group a process of its session
/// or a descendant leads.
///
/// swift-subprocess tears down the child's group, but stops once the child has exited, and a grandchild
/// that outlives it would keep running and hold the output pipes open. SwiftPM and llbuild start the test
/// runner and each compile job in a process group of their own, out of reach of a signal to the child's
/// group; they stay in the child's session (`ProcessTable`). On cancellation this sends SIGINT, then
/// SIGTERM after 3 s, then SIGKILL after 5 s to each of those groups; each step looks again and keeps
/// the groups it found before. Where there is no /proc (macOS), only the child's group is signalled.
final class ProcessGroupReaper: @unchecked Sendable {
  private let lock = NSLock()
  private var group: pid_t?
  private var reached: Set<pid_t> = []
  private var cancelled = false

  /// Called once the child runs; it leads a session and a group of its own (`createSession`). swift-subprocess
  /// calls it from a task of its own, which a busy thread pool may start after the cancellation came.
  func started(_ pid: pid_t) {
    let cancelledBefore = lock.withLock {
      group = pid
      return cancelled
    }
    ProcessClient.groupObserver?.started(pid)
    if cancelledBefore { scheduleSignals() }
  }

  func cancel() {
    let known = lock.withLock {
      cancelled = true
      return group != nil
    }
    if known { scheduleSignals() }
  }

  /// Seconds from the cancellation to SIGKILL.
  static let killDelay = 5.0

  /// Signals from a Dispatch queue rather than a task: the cooperative thread pool may be saturated
  /// (it has one thread per core), and stopping children must not wait for it.
  private func scheduleSignals() {
    for (signal, delay) in [(SIGINT, 0.0), (SIGTERM, 3.0), (SIGKILL, Self.killDelay)] {
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) { self.signalAll(signal) }
    }
  }

  /// The groups to signal now: those found before, the child's, and those the processes of its session or
  /// group and their descendants are in (never this process's own group).
  func groupsToSignal(in table: [ProcessEntry]) -> Set<pid_t> {
    lock.withLock {
      guard let group else { return [] }
      reached = ProcessTable.groups(
        reachedFrom: reached.union([group]), user: getuid(), in: table, excluding: getpgrp())
      return reached
    }
  }

  private func signalAll(_ signal: Int32) {
    for group in groupsToSignal(in: ProcessTable.current()) { _ = kill(-group, signal) }
  }

  /// Runs `operation`, reaping the child's group if the task is cancelled.
  static func reaping<T>(_ operation: (ProcessGroupReaper) async throws -> T) async throws -> T {
    let reaper = ProcessGroupReaper()
    let observer = ProcessClient.groupObserver
    defer {
      if let observer, let group = reaper.lock.withLock({ reaper.group }) { observer.ended(group) }
    }
    return try await withTaskCancellationHandler {
      try await operation(reaper)
    } onCancel: {
      reaper.cancel()
    }
  }
}
