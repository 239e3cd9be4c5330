import Foundation
import RippleCore

/// One URL to download from (a mirror, or an S3 object's URL) and how to authorize it.
struct HTTPTarget: Sendable {
  var assetID: String
  var url: String
  /// Safe to print: `Redaction.url(url)`, or `s3://bucket/key` for S3.
  var display: String
  /// Adds `Authorization` (and for S3 the signed `x-amz-*` headers). Called for every request to the
  /// original origin, never after a redirect to another one.
  var authorize: @Sendable (_ headers: inout [String: String]) -> Void
  /// Credential values to scrub from any text we did not write ourselves.
  var secrets: [String]
  /// A path ending in .html/.htm: an HTML response is the asset, not a login page.
  var expectsHTML: Bool {
    let path = (URLComponents(string: url)?.path ?? "").lowercased()
    return path.hasSuffix(".html") || path.hasSuffix(".htm")
  }
}

/// scheme + host + port: credentials go to this origin only.
struct Origin: Hashable {
  var scheme: String
  var host: String
  var port: Int

  init?(_ url: URL) {
    guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
    self.scheme = scheme
    self.host = host
    port = url.port ?? (scheme == "https" ? 443 : 80)
  }
}
