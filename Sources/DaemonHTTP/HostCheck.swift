import Foundation
import HTTPTypes
import Hummingbird
import RippleCore

/// Which `Host` headers rippled answers (docs/DESIGN.md, "Host check"). DNS rebinding points a name the attacker
/// controls at the box, so a page of theirs could read the dashboard and logs as same-origin; its requests carry
/// that name as Host. Accepted: the listen address, the loopback names, `http.publicURL`'s host, and, when
/// listening on every interface (`0.0.0.0`, `::`), any IP address literal (a literal cannot be rebound). The port
/// is not compared (a proxy may forward another one). A request without Host (HTTP/1.0) is not a browser's.
package struct HostPolicy: Sendable, Hashable {
  var names: Set<String>
  var anyAddressLiteral: Bool

  package init(listenHost: String, publicURL: String?) {
    var names: Set<String> = ["localhost", "127.0.0.1", "::1"]
    let listen = Self.normalized(listenHost)
    names.insert(listen)
    if let publicURL, let host = URLComponents(string: publicURL)?.host { names.insert(Self.normalized(host)) }
    self.names = names
    anyAddressLiteral = ["0.0.0.0", "::", ""].contains(listen)
  }

  /// Whether a request with this Host (`host`, `host:port`, `[v6]:port`) is answered.
  func accepts(_ authority: String?) -> Bool {
    guard let authority else { return true }
    guard let host = Self.host(ofAuthority: authority) else { return false }
    if names.contains(host) || Self.isLoopback(host) { return true }
    return anyAddressLiteral && Self.isAddressLiteral(host)
  }

  /// The host of an authority, lowercased, without port, brackets or a trailing dot; nil when malformed.
  static func host(ofAuthority authority: String) -> String? {
    let text = authority.lowercased()
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      let rest = text[text.index(after: close)...]
      guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
      return String(text[text.index(after: text.startIndex)..<close])
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 2, let name = parts.first, !name.isEmpty else { return nil }
    if parts.count == 2, parts[1].isEmpty || !parts[1].allSatisfy(\.isNumber) { return nil }
    return normalized(String(name))
  }

  static func normalized(_ host: String) -> String {
    var host = host.lowercased()
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    while host.hasSuffix(".") { host.removeLast() }
    return host
  }

  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host.hasSuffix(".localhost") || host == "::1"
      || (isIPv4(host) && host.hasPrefix("127."))
  }

  static func isAddressLiteral(_ host: String) -> Bool {
    isIPv4(host) || (host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." })
  }

  static func isIPv4(_ host: String) -> Bool {
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
          && Int(part).map { $0 <= 255 } == true
      }
  }
}

/// Answers 421 to a request whose Host the `HostPolicy` does not accept, before any route sees it.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
  var policy: HostPolicy

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    // HTTP/1's Host becomes the authority; a Host field left beside it must pass too.
    for host in [request.head.authority, request.headers[HTTPField.Name("Host")!]].compactMap({ $0 })
    where !policy.accepts(host) {
      throw HTTPError(
        .misdirectedRequest,
        message: "this server does not answer for the host '\(host)' (set http.publicURL for a proxy's name)")
    }
    return try await next(request, context)
  }
}

/// A counted resource with a fixed number of places (the log followers): `take` fails when all are in use.
package final class Slots: Sendable {
  let limit: Int
  private let used = Locked<Int>(0)

  package init(limit: Int) { self.limit = limit }

  func take() -> Bool {
    used.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
  }

  func give() { used.withLock { $0 = max(0, $0 - 1) } }

  var inUse: Int { used.withLock { $0 } }
}
