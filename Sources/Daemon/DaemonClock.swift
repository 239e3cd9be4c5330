import Foundation

/// The time, behind a small client: tests move it and never sleep (the canary schedule; issue 10's "clock behind
/// a client where tests need it").
struct DaemonClock: Sendable {
  var now: @Sendable () -> Date
  var sleep: @Sendable (Duration) async throws -> Void

  static let live = DaemonClock(now: { Date() }, sleep: { try await Task.sleep(for: $0) })

  /// Fails the test that reaches it: for code that must not look at the time.
  static let failing = DaemonClock(
    now: { preconditionFailure("DaemonClock.failing: now() was not expected") },
    sleep: { duration in preconditionFailure("DaemonClock.failing: sleep(\(duration)) was not expected") })
}
