import AsyncHTTPClient
import Foundation
import NIOCore

extension HTTPTransfer {
  /// The failure for a non-success status; reads at most 64 KiB of the body (S3 error XML).
  func statusFailure(_ response: HTTPClientResponse, target: HTTPTarget) async -> AttemptFailure {
    let code = Int(response.status.code)
    let body = (try? await response.body.collect(upTo: 64 * 1024)).map { String(buffer: $0) } ?? ""
    let s3 = S3ErrorBody(body)
    let s3Detail = s3.map { ": \($0.code), \($0.hint)" } ?? ""
    let asset = target.assetID
    let whereText = "\(target.display) answered HTTP \(code)\(s3Detail)"

    if s3?.isAccessProblem == true || code == 401 || code == 403 {
      return AttemptFailure(
        error: FetchError(
          .accessDenied, assetID: asset,
          "access to asset '\(asset)' was denied: \(whereText); check the credentials configured for it "
            + "(without access, run without private assets and placeholders are installed)"),
        disposition: .nextMirror)
    }
    if s3?.isNotFound == true || code == 404 || code == 410 {
      return AttemptFailure(
        error: FetchError(
          .notFound, assetID: asset,
          "asset '\(asset)': \(whereText) (not found); check the URL, bucket and key in ripple.yml"),
        disposition: .nextMirror)
    }
    if code == 429 || code == 408 || code >= 500 {
      let retryAfter = runtime.parseRetryAfter(response.headers.first(name: "Retry-After"))
      return AttemptFailure(
        error: FetchError(
          .server, assetID: asset,
          "asset '\(asset)': \(whereText) (\(code == 429 ? "rate limited" : "server error")); try again later"),
        disposition: .retry(after: retryAfter))
    }
    return AttemptFailure(
      error: FetchError(
        .server, assetID: asset, "asset '\(asset)': \(whereText), which Ripple cannot handle; check the URL"),
      disposition: .nextMirror)
  }
}

/// `Content-Range: bytes 100-199/1000` (or `bytes */1000` on a 416).
struct ContentRange: Equatable {
  var start: Int64?
  var end: Int64?
  var total: Int64?

  init?(_ header: String?) {
    guard let header, header.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
    let parts = spec.split(separator: "/", maxSplits: 1)
    guard parts.count == 2 else { return nil }
    total = Int64(parts[1])
    if parts[0] == "*" {
      start = nil
      end = nil
    } else {
      let bounds = parts[0].split(separator: "-")
      guard bounds.count == 2, let s = Int64(bounds[0]), let e = Int64(bounds[1]) else { return nil }
      start = s
      end = e
    }
  }
}
