import Foundation
import RippleCore

/// A shared store's base URL taken apart: where requests go, what may be shown, and what is secret.
///
/// `https://user:pw@cache.example/ripple?token=t` sends requests to `https://cache.example/ripple/<path>?token=t`
/// with `Authorization: Basic` from the user and password (unless the config names other credentials); its
/// `display`, the store's `name`, is `https://cache.example`: a path can hold a token, and the name is in
/// every warning and in `--report-json`.
struct StoreURL: Sendable {
  /// `scheme://host[:port][/path]`, without userinfo, query or a trailing slash.
  var base: String
  /// Kept on every request (some caches take a token there), never shown.
  var query: String?
  /// `Basic …` from the URL's userinfo.
  var basicAuthorization: String?
  /// The `Host` header: the host, and the port when it is not the scheme's.
  var hostHeader: String
  var host: String
  var display: String
  /// The userinfo and query values: scrubbed from library texts.
  var secrets: [String]

  /// Nil unless `text` is an http(s) URL with a host.
  init?(_ text: String) {
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
    else { return nil }
    let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    let defaultPort = scheme == "https" ? 443 : 80
    let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
    self.host = host
    hostHeader = port.map { "\(bracketed):\($0)" } ?? bracketed
    var path = components.percentEncodedPath
    while path.hasSuffix("/") { path.removeLast() }
    base = "\(scheme)://\(hostHeader)\(path)"
    query = components.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
    var secrets: [String] = []
    if let user = components.user {
      let password = components.password ?? ""
      let encoded = Data("\(user):\(password)".utf8).base64EncodedString()
      basicAuthorization = "Basic \(encoded)"
      secrets +=
        [user, password, encoded]
        + [components.percentEncodedUser, components.percentEncodedPassword]
        .compactMap { $0 }
    }
    if let query {
      secrets.append(query)
      secrets += (components.queryItems ?? []).compactMap(\.value)
      secrets += query.split(separator: "&").compactMap { $0.split(separator: "=", maxSplits: 1).last.map(String.init) }
    }
    self.secrets = secrets.filter { !$0.isEmpty }
    display = Self.shown(text)
  }

  /// What may be shown of any URL text: its scheme and host (and port), never userinfo, path or query; also
  /// for a URL `init` refused.
  static func shown(_ text: String) -> String {
    let redacted = Redaction.url(text)
    guard let end = redacted.range(of: "://") else { return String(redacted.prefix { $0 != "/" }) }
    return String(redacted[..<end.upperBound]) + redacted[end.upperBound...].prefix { $0 != "/" }
  }

  /// `base + path`, with the query.
  func url(_ path: String) -> String { base + path + (query.map { "?\($0)" } ?? "") }
}
