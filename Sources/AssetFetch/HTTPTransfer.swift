import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import RippleCore

/// One request (with redirects followed by hand) and one download attempt.
struct HTTPTransfer: Sendable {
  var client: HTTPClient
  var options: FetchOptions
  var runtime: FetchRuntime

  /// GETs `target.url`, following up to `runtime.maxRedirects` redirects: https→http is refused,
  /// credentials are sent to the original origin only. Returns the first non-redirect response.
  func send(_ target: HTTPTarget, extraHeaders: [String: String]) async throws(AttemptFailure) -> HTTPClientResponse {
    guard let original = URL(string: target.url), let originalOrigin = Origin(original) else {
      throw AttemptFailure(
        error: FetchError(
          .invalidSource, assetID: target.assetID,
          "asset '\(target.assetID)': \(target.display) is not a valid URL; fix the source in ripple.yml"),
        disposition: .nextMirror)
    }
    try checkScheme(original, target: target, redirectedFrom: nil)
    var current = original
    for _ in 0...runtime.maxRedirects {
      var headers = extraHeaders
      headers["User-Agent"] = "ripple"
      headers["Host"] = hostHeader(current)
      if Origin(current) == originalOrigin { target.authorize(&headers) }

      var request = HTTPClientRequest(url: current.absoluteString)
      request.method = .GET
      for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.add(name: name, value: value) }

      let response: HTTPClientResponse
      do {
        response = try await client.execute(request, deadline: .now() + .hours(24))
      } catch {
        throw mapTransportError(error, target: target)
      }
      guard [301, 302, 303, 307, 308].contains(response.status.code) else { return response }

      _ = try? await response.body.collect(upTo: 64 * 1024)
      guard let location = response.headers.first(name: "Location"),
        let next = URL(string: location, relativeTo: current)?.absoluteURL
      else {
        throw AttemptFailure(
          error: FetchError(
            .redirect, assetID: target.assetID,
            "asset '\(target.assetID)': \(Redaction.url(current.absoluteString)) answered HTTP \(response.status.code) "
              + "without a usable Location header; check the URL"),
          disposition: .nextMirror)
      }
      try checkScheme(next, target: target, redirectedFrom: current)
      current = next
    }
    throw AttemptFailure(
      error: FetchError(
        .redirect, assetID: target.assetID,
        "asset '\(target.assetID)': \(target.display) redirected more than \(runtime.maxRedirects) times "
          + "(last to \(Redaction.url(current.absoluteString))); check the URL for a redirect loop"),
      disposition: .nextMirror)
  }

  /// https always; http only with `allowInsecureHTTP`, and never as a downgrade from https.
  private func checkScheme(_ url: URL, target: HTTPTarget, redirectedFrom: URL?) throws(AttemptFailure) {
    let scheme = url.scheme?.lowercased() ?? ""
    if scheme == "https" { return }
    if scheme == "http" {
      if let from = redirectedFrom, from.scheme?.lowercased() == "https" {
        throw AttemptFailure(
          error: FetchError(
            .insecure, assetID: target.assetID,
            "asset '\(target.assetID)': \(Redaction.url(from.absoluteString)) redirected to the insecure URL "
              + "\(Redaction.url(url.absoluteString)); an https download is never continued over plain http, "
              + "ask the server's owner to fix the redirect or use another mirror"),
          disposition: .nextMirror)
      }
      if options.allowInsecureHTTP { return }
      throw AttemptFailure(
        error: FetchError(
          .plainHTTP, assetID: target.assetID,
          "asset '\(target.assetID)': \(target.display) uses plain http; use an https URL, "
            + "or pass --allow-insecure-http for a trusted network mirror"),
        disposition: .nextMirror)
    }
    throw AttemptFailure(
      error: FetchError(
        .invalidSource, assetID: target.assetID,
        "asset '\(target.assetID)': \(Redaction.url(url.absoluteString)) is not an http(s) URL; "
          + "use https://, or an s3 or file source"),
      disposition: .nextMirror)
  }

  private func hostHeader(_ url: URL) -> String {
    let host = url.host ?? ""
    let bracketed = host.contains(":") ? "[\(host)]" : host
    guard let port = url.port else { return bracketed }
    let defaultPort = url.scheme?.lowercased() == "https" ? 443 : 80
    return port == defaultPort ? bracketed : "\(bracketed):\(port)"
  }

  /// Connection-level failures: TLS problems move on to the next mirror (retrying cannot fix a
  /// certificate), everything else is transient.
  func mapTransportError(_ error: any Error, target: HTTPTarget, duringBody: Bool = false) -> AttemptFailure {
    if let failure = error as? AttemptFailure { return failure }
    if !duringBody, let failure = ConnectFailure(error) {
      return AttemptFailure(error: failure.error(target), disposition: .retry(after: nil))
    }
    let detail = Redaction.text(String(describing: error), secrets: target.secrets)
    if !duringBody && Self.isTLSError(error) {
      return AttemptFailure(
        error: FetchError(
          .tls, assetID: target.assetID,
          "asset '\(target.assetID)': the TLS handshake with \(target.display) failed (\(detail)); if the server "
            + "uses a private certificate authority, pass its PEM bundle with --ca-bundle"),
        disposition: .nextMirror)
    }
    let what: String
    switch error as? HTTPClientError {
    case .some(.connectTimeout): what = "timed out connecting to"
    case .some(.readTimeout): what = "timed out reading from"
    case .some(.remoteConnectionClosed): what = "lost the connection to"
    default: what = "could not download from"
    }
    return AttemptFailure(
      error: FetchError(
        .network, assetID: target.assetID,
        "asset '\(target.assetID)': \(what) \(target.display) (\(detail)); check the network and try again"),
      disposition: .retry(after: nil))
  }

  /// Handshake and certificate failures; an unclean TLS close mid-body is a network failure.
  static func isTLSError(_ error: any Error) -> Bool {
    if let error = error as? NIOSSLError {
      if case .uncleanShutdown = error { return false }
      return true
    }
    return error is BoringSSLError || error is NIOSSLExtraError
  }
}
