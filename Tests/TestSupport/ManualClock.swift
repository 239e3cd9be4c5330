import Foundation
import RippleCore
import SystemClients

/// A clock that only moves when the test says so: `sleep` suspends until `advance(by:)` passes its deadline (or
/// its task is cancelled). `sleepers` counts the sleeps waiting, so a test knows a timer is armed before it moves
/// the time: a signal, not a guess.
public final class ManualClock: Sendable {
  private struct Sleeper {
    var id: UInt64
    var deadline: Date
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Date
    var next: UInt64 = 0
    var sleepers: [Sleeper] = []
    var slept = 0
  }

  private let state: Locked<State>

  public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    state = Locked(State(now: now))
  }

  public var now: Date { state.withLock { $0.now } }
  /// Sleeps waiting now.
  public var sleepers: Int { state.withLock { $0.sleepers.count } }
  /// Sleeps started so far (waiting or done).
  public var sleepsStarted: Int { state.withLock { $0.slept } }

  public var client: ClockClient {
    ClockClient(now: { self.now }, sleep: { try await self.sleep($0) })
  }

  /// Moves the time on and wakes every sleep whose deadline has come.
  public func advance(by duration: Duration) {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    let due = state.withLock { state -> [Sleeper] in
      state.now += seconds
      let due = state.sleepers.filter { $0.deadline <= state.now }
      state.sleepers.removeAll { $0.deadline <= state.now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Waits (a bounded poll) until `count` sleeps are waiting: a timer the code under test armed.
  public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(60)) async -> Bool {
    await poll(every: .milliseconds(5), timeout: timeout) { sleepers >= count }
  }

  private func sleep(_ duration: Duration) async throws {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    let id = state.withLock { state -> UInt64 in
      state.next += 1
      state.slept += 1
      return state.next
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          if seconds <= 0 { return true }
          state.sleepers.append(Sleeper(id: id, deadline: state.now + seconds, continuation: continuation))
          return false
        }
        if resumeNow {
          if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
        }
      }
    } onCancel: {
      let cancelled = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }
}
