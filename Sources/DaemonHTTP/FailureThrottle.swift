import Foundation
import RippleCore

/// Slows down guessing of the API token (bearer header or `/login`) and of webhook signatures
/// (docs/DESIGN.md, "Throttling"): per client address, the first `free` failures cost nothing; each one after that
/// locks the address out for a time that doubles (1 s, 2 s, 4 s … at most `maxLockout`), during which its wrong
/// answers get 429 with `Retry-After`. Only wrong answers: the callers check the credential first, so a right one
/// is always served, whoever else shares the address (loopback, a reverse proxy). A success does not clear the
/// count either (a right client beside a guesser would hand it new free tries); a client quiet for `forgetAfter`
/// starts over. The warning lines are limited too: at most one per client and `logInterval`, naming how many were
/// left out.
package final class FailureThrottle: Sendable {
  package struct Policy: Sendable {
    var free = 5
    var firstLockout: TimeInterval = 1
    var maxLockout: TimeInterval = 300
    var forgetAfter: TimeInterval = 900
    var logInterval: TimeInterval = 60
  }

  /// What a failure means for the client and for the log.
  struct Verdict: Equatable, Sendable {
    /// Seconds the client is now locked out for (0: not locked).
    var lockout: TimeInterval
    /// The warning to write, or nil when one was written for this client less than `logInterval` ago.
    var logSuffix: String?
  }

  private struct Entry {
    var failures = 0
    var lockedUntil = Date.distantPast
    var last = Date.distantPast
    var loggedAt = Date.distantPast
    var unlogged = 0
  }

  let policy: Policy
  private let now: @Sendable () -> Date
  private let table = Locked<[String: Entry]>([:])

  /// - Parameter now: the clock (tests move it instead of sleeping).
  package init(policy: Policy = Policy(), now: @escaping @Sendable () -> Date = { Date() }) {
    self.policy = policy
    self.now = now
  }

  /// Whole seconds `client` must still wait, or nil when it may try.
  func retryAfter(_ client: String) -> Int? {
    let current = now()
    return table.withLock { table in
      guard let entry = table[client], entry.lockedUntil > current else { return nil }
      return max(1, Int(entry.lockedUntil.timeIntervalSince(current).rounded(.up)))
    }
  }

  /// Counts a failure of `client`.
  func failed(_ client: String) -> Verdict {
    let current = now()
    return table.withLock { table in
      var entry = table[client] ?? Entry()
      if current.timeIntervalSince(entry.last) > policy.forgetAfter { entry.failures = 0 }
      entry.failures += 1
      entry.last = current
      var lockout: TimeInterval = 0
      if entry.failures > policy.free {
        let exponent = Double(min(entry.failures - policy.free - 1, 30))
        lockout = min(policy.maxLockout, policy.firstLockout * pow(2, exponent))
        entry.lockedUntil = current.addingTimeInterval(lockout)
      }
      var suffix: String?
      if current.timeIntervalSince(entry.loggedAt) >= policy.logInterval {
        suffix =
          "from \(client)" + (entry.unlogged > 0 ? "; \(entry.unlogged) more not logged" : "")
          + (lockout > 0 ? "; locked out for \(Int(lockout)) s" : "")
        entry.loggedAt = current
        entry.unlogged = 0
      } else {
        entry.unlogged += 1
      }
      // Keep the table small: clients quiet for long are forgotten.
      if table.count > 10_000 {
        table = table.filter { current.timeIntervalSince($0.value.last) <= policy.forgetAfter }
      }
      table[client] = entry
      return Verdict(lockout: lockout, logSuffix: suffix)
    }
  }
}
