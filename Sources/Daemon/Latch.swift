import RippleCore

/// A one-way gate: tasks wait until it opens (true), or until they are cancelled (false).
final class Latch: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    var nextWaiter = 0
  }

  private let state = Locked(State())

  var isOpen: Bool { state.withLock { $0.isOpen } }
  /// Tasks waiting now (what a test waits on before it opens the latch).
  var waiting: Int { state.withLock { $0.waiters.count } }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: true) }
  }

  /// True once open; false when the waiting task is cancelled first.
  func wait() async -> Bool {
    let id = state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow: Bool? = state.withLock { state in
          if state.isOpen { return true }
          if Task.isCancelled { return false }
          state.waiters[id] = continuation
          return nil
        }
        if let resumeNow { continuation.resume(returning: resumeNow) }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(returning: false)
    }
  }
}
