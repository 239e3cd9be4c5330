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
  }

  func cancel() {
    guard let group = lock.withLock({ group }) else { return }
    Task.detached {
      for (signal, delay) in [(SIGINT, 0), (SIGTERM, 3), (SIGKILL, 2)] as [(Int32, Int)] {
        if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
        if kill(-group, signal) != 0 && errno == ESRCH { return }  // the group is gone
      }
    }
  }

  /// Runs `operation`, reaping the child's group if the task is cancelled.
  static func reaping<T>(_ operation: (ProcessGroupReaper) async throws -> T) async throws -> T {
    let reaper = ProcessGroupReaper()
    return try await withTaskCancellationHandler {
      try await operation(reaper)
    } onCancel: {
      reaper.cancel()
    }
  }
}
