import Foundation

/// Backoff, jitter, `Retry-After` and the clock, injectable so tests never sleep.
struct FetchRuntime: Sendable {
  var sleep: @Sendable (Duration) async throws -> Void
  var now: @Sendable () -> Date
  /// A number in 0..<1 for jitter.
  var random: @Sendable () -> Double
  var backoffBase: Duration = .milliseconds(500)
  var backoffMax: Duration = .seconds(8)
  /// A server cannot make us wait longer than this per retry.
  var retryAfterCap: Duration = .seconds(30)
  /// Redirect hops per request.
  var maxRedirects = 10

  static let live = FetchRuntime(
    sleep: { try await Task.sleep(for: $0) },
    now: { Date() },
    random: { Double.random(in: 0..<1) }
  )

  /// Exponential backoff with jitter for retry number `retry` (1-based): base·2^(retry-1), capped,
  /// then scaled by 50–100 % so parallel clients spread out. `Retry-After` wins when given (capped).
  func delay(beforeRetry retry: Int, retryAfter: Duration?) -> Duration {
    if let retryAfter { return min(max(retryAfter, .zero), retryAfterCap) }
    let exponent = min(max(retry - 1, 0), 20)
    let raw = min(backoffBase * (1 << exponent), backoffMax)
    return raw * (0.5 + 0.5 * random())
  }

  /// `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT`.
  func parseRetryAfter(_ value: String?) -> Duration? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Int(value) { return .seconds(max(seconds, 0)) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: value) {
        return .milliseconds(max(Int64(date.timeIntervalSince(now()) * 1000), 0))
      }
    }
    return nil
  }
}
