import Crypto
import Foundation
import RippleCore

/// The browser's logins (docs/DESIGN.md, "Web login"): `POST /login` with the API token creates a random session
/// id kept here in memory, sent back as an `HttpOnly; SameSite=Strict` cookie. The cookie never holds the token;
/// logging out forgets the id; a restart logs everyone out. Sessions expire after `lifetime`.
package final class WebSessions: Sendable {
  static let cookieName = "rippled_session"
  static let lifetime: TimeInterval = 12 * 3600

  /// Whether the cookie gets `Secure` (the dashboard is reached over https: `http.publicURL`).
  let secure: Bool
  private let now: @Sendable () -> Date
  private let expiries = Locked<[String: Date]>([:])

  /// - Parameter now: the clock the expiry is checked against (tests move it).
  package init(secure: Bool = false, now: @escaping @Sendable () -> Date = { Date() }) {
    self.secure = secure
    self.now = now
  }

  /// A new session: 32 random bytes, hex.
  func create() -> String {
    let id = SymmetricKey(size: .bits256).withUnsafeBytes { bytes in
      bytes.map { String(format: "%02x", $0) }.joined()
    }
    let expiry = now().addingTimeInterval(Self.lifetime)
    expiries.withLock { table in
      let current = now()
      table = table.filter { $0.value > current }
      table[id] = expiry
    }
    return id
  }

  /// Whether `id` is a live session (known, not expired).
  func isValid(_ id: String) -> Bool {
    let current = now()
    return expiries.withLock { table in
      guard let expiry = table[id] else { return false }
      guard expiry > current else {
        table[id] = nil
        return false
      }
      return true
    }
  }

  func end(_ id: String) {
    _ = expiries.withLock { $0.removeValue(forKey: id) }
  }

  /// The `Set-Cookie` value for a new session.
  func setCookie(_ id: String) -> String {
    "\(Self.cookieName)=\(id); Path=/; Max-Age=\(Int(Self.lifetime)); HttpOnly; SameSite=Strict"
      + (secure ? "; Secure" : "")
  }

  /// The `Set-Cookie` value that removes the cookie.
  var clearCookie: String {
    "\(Self.cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
  }

  /// The session id a `Cookie` header carries, if any.
  static func id(fromCookieHeader header: String?) -> String? {
    guard let header else { return nil }
    for part in header.split(separator: ";") {
      let pair = part.trimmingCharacters(in: .whitespaces)
      if pair.hasPrefix(cookieName + "=") {
        let value = String(pair.dropFirst(cookieName.count + 1))
        return value.isEmpty ? nil : value
      }
    }
    return nil
  }
}
