import Foundation
import RippleCore

/// The time, behind a client: tests move it and never sleep.
public struct ClockClient: Sendable {
  public var now: @Sendable () -> Date
  public var sleep: @Sendable (Duration) async throws -> Void

  public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
    self.now = now
    self.sleep = sleep
  }

  public static let live = ClockClient(now: { Date() }, sleep: { try await Task.sleep(for: $0) })

  /// Reports the test that reaches it: for code that must not look at the time. `now` cannot throw, so it
  /// reports and answers the epoch; `sleep` reports and throws.
  public static let failing = ClockClient(
    now: { unimplemented("ClockClient", "tell the time", placeholder: Date(timeIntervalSince1970: 0)) },
    sleep: { duration in throw unimplemented("ClockClient", "sleep \(duration)") })
}
