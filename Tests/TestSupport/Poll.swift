/// A bounded poll: `condition` every `interval` until it holds (true) or `timeout` has passed (false).
///
/// The condition is checked once more at the deadline. In a loaded parallel run a sleep may resume seconds late
/// (a 100 ms `Task.sleep` of the rippled harness resumed after 14.7 s in a full `make test` on 2 cores): a condition
/// that became true meanwhile is not a timeout.
public func poll(
  every interval: Duration = .milliseconds(10), timeout: Duration, until condition: () async throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline && !Task.isCancelled {
    if try await condition() { return true }
    try? await Task.sleep(for: interval)
  }
  return try await condition()
}
