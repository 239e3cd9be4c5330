import DaemonSupport
import Foundation
import HTTPTypes
import Hummingbird

/// The one check in front of every state change (docs/DESIGN.md, "Web login"): `Authorization: Bearer <token>`
/// (constant-time), or a logged-in browser's session cookie from the same origin. 403 when no token is configured
/// (`http.tokenFile`) or a cookie comes with a foreign Origin; 401 when neither credential is valid.
/// A wrong bearer token counts against the client in `failures`; while it is locked out, its wrong ones get 429
/// (with `Retry-After`) and are not counted. A right credential is never throttled.
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
  var token: [UInt8]?
  var sessions: WebSessions = WebSessions()
  var publicURL: String?
  var failures = FailureThrottle()
  var log = DaemonLog(minimum: .error, sink: { _ in })

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    // Credentials first: a right token or session is served whatever others at the same address tried.
    switch WebAuth.check(request, token: token, sessions: sessions, publicURL: publicURL) {
    case .allowed: return try await next(request, context)
    case .noToken: throw HTTPError(.forbidden, message: WebAuth.Outcome.noToken.message)
    case .crossOrigin: throw HTTPError(.forbidden, message: WebAuth.Outcome.crossOrigin.message)
    case .unauthorized:
      let client = (context as? RippledRequestContext)?.client ?? "unknown"
      if let seconds = failures.retryAfter(client) {
        throw HTTPError(
          .tooManyRequests, headers: [.retryAfter: "\(seconds)"],
          message: "too many failed attempts from \(client); try again in \(seconds) s")
      }
      if request.headers[.authorization] != nil, let suffix = failures.failed(client).logSuffix {
        log.warning("a request with a wrong bearer token was refused (\(suffix))")
      }
      throw HTTPError(
        .unauthorized, message: "a valid 'Authorization: Bearer <token>' (or a login at /login) is required")
    }
  }

  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    WebAuth.constantTimeEqual(a, b)
  }
}

/// Who may change state: the bearer token, or a session cookie whose request comes from the dashboard's own
/// origin. The Origin check (with SameSite=Strict) is the CSRF defence: it needs no per-form token, so the pages
/// stay pure and cacheable-free of secrets; a bearer request needs none, as a browser cannot attach that header
/// across origins without a CORS preflight rippled never answers.
enum WebAuth {
  enum Outcome: Equatable {
    case allowed, noToken, unauthorized, crossOrigin

    var message: String {
      switch self {
      case .allowed: "allowed"
      case .noToken: "no API token is configured (http.tokenFile)"
      case .unauthorized: "a valid 'Authorization: Bearer <token>' is required"
      case .crossOrigin: "the request comes from another origin (Origin/Referer does not match this dashboard)"
      }
    }
  }

  static func check(_ request: Request, token: [UInt8]?, sessions: WebSessions, publicURL: String?) -> Outcome {
    guard let token else { return .noToken }
    let header = request.headers[.authorization] ?? ""
    if header.hasPrefix("Bearer "), constantTimeEqual(Array(header.utf8.dropFirst(7)), token) { return .allowed }
    guard let id = WebSessions.id(fromCookieHeader: request.headers[.cookie]), sessions.isValid(id) else {
      return .unauthorized
    }
    return isSameOrigin(request, publicURL: publicURL) ? .allowed : .crossOrigin
  }

  /// The session id of a logged-in browser (no origin check: for showing pages, never for changes).
  static func isLoggedIn(_ request: Request, sessions: WebSessions) -> Bool {
    guard let id = WebSessions.id(fromCookieHeader: request.headers[.cookie]) else { return false }
    return sessions.isValid(id)
  }

  /// The request's Origin (or, without one, its Referer) is this dashboard's origin: scheme, host and port of the
  /// request as rippled serves it (plain http, the Host header), or of `http.publicURL` (behind a proxy, often
  /// https). Neither header: refused, as every current browser sends Origin on a form POST.
  static func isSameOrigin(_ request: Request, publicURL: String?) -> Bool {
    guard let source = request.headers[.origin] ?? request.headers[.referer], source != "null",
      let sourceOrigin = origin(of: source)
    else { return false }
    var accepted: [String] = []
    if let host = request.head.authority ?? request.headers[HTTPField.Name("Host")!] {
      accepted.append("http://" + host.lowercased())
    }
    if let publicURL, let own = origin(of: publicURL) { accepted.append(own) }
    return accepted.contains(sourceOrigin)
  }

  /// "scheme://host[:port]" of a URL, lowercased; nil if it has no scheme or host.
  static func origin(of url: String) -> String? {
    guard let scheme = URLComponents(string: url)?.scheme, let authority = authority(of: url) else { return nil }
    return scheme.lowercased() + "://" + authority
  }

  /// "host[:port]" of a URL, lowercased; nil if it has no host.
  static func authority(of url: String) -> String? {
    guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
      return nil
    }
    let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return (components.port.map { "\(name):\($0)" } ?? name).lowercased()
  }

  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
  }
}
