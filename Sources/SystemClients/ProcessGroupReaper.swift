import Foundation

/// Stops what is left of a cancelled child's process group.
///
/// swift-subprocess tears down the child it started, but stops once that process has exited, and a
/// grandchild that outlives it (a shell's background job, a test runner started by `swift test`)
/// would keep running and hold the output pipes open. On cancellation this sends the whole group
/// SIGINT, then SIGTERM after 3 s, then SIGKILL after 5 s — whoever is still in it.
final class ProcessGroupReaper: @unchecked Sendable {
  private let lock = NSLock()
  private var group: pid_t?

  /// Called once the child runs; it leads its own group (`processGroupID = 0`).
  func started(_ pid: pid_t) {
    lock.withLock { group = pid }
    ProcessClient.groupObserver?.started(pid)
  }

  /// Signals from a Dispatch queue rather than a task: the cooperative thread pool may be saturated
  /// (it has one thread per core), and stopping children must not wait for it.
  func cancel() {
    guard let group = lock.withLock({ group }) else { return }
    for (signal, delay) in [(SIGINT, 0.0), (SIGTERM, 3.0), (SIGKILL, 5.0)] {
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) { _ = kill(-group, signal) }
    }
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
