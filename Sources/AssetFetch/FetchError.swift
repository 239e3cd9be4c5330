import RippleCore

/// A failed fetch, as a sentence a user can act on. Every message is redacted: no credential values,
/// no query strings (presigned URLs carry signatures there), no userinfo.
public struct FetchError: RippleError, Hashable {
  public enum Kind: Sendable, Hashable {
    /// The credentials the config names are not available (variable unset, no netrc entry).
    case missingCredentials
    /// The server refused the credentials (401/403, S3 AccessDenied, SignatureDoesNotMatch, …).
    case accessDenied
    /// 404/410, S3 NoSuchKey/NoSuchBucket.
    case notFound
    /// A `file` source whose path does not exist: the config names the wrong path (or the share is not mounted).
    case missingFile
    /// A `file` source rippled refuses: outside the repository and the folders rippled.yml lists.
    case outsideAllowedFolders
    /// A configured `http://` URL without `allowInsecureHTTP`: the config or the invocation is wrong.
    case plainHTTP
    /// The host name does not resolve (DNS).
    case unknownHost
    /// Nothing accepts connections at the host and port.
    case connectionRefused
    /// A 200 response with an HTML page (a login or error page) instead of the asset.
    case htmlPage
    /// The server announced or sent a size different from the expected one.
    case sizeMismatch
    /// An https→http redirect.
    case insecure
    /// Too many redirects or a redirect without a usable `Location`.
    case redirect
    /// The TLS handshake failed (untrusted certificate, wrong host name, …).
    case tls
    /// Connection errors, timeouts, truncated bodies.
    case network
    /// Any other unexpected HTTP status (5xx after retries, 400, …).
    case server
    /// The source itself is unusable (bad URL, wrong credential kind for the source, bad CA bundle).
    case invalidSource
    /// Reading the local source or writing the destination failed.
    case localFile
    /// Every mirror failed; `failures` holds one error per mirror.
    case allMirrorsFailed
  }

  public var kind: Kind
  public var assetID: String
  /// The full sentence, already redacted.
  public var message: String
  /// For `.allMirrorsFailed`: each mirror's failure, in mirror order.
  public var failures: [FetchError]

  public init(_ kind: Kind, assetID: String, _ message: String, failures: [FetchError] = []) {
    self.kind = kind
    self.assetID = assetID
    self.message = message
    self.failures = failures
  }

  public var description: String { message }

  public var category: ErrorCategory {
    switch kind {
    case .invalidSource, .missingFile, .outsideAllowedFolders, .plainHTTP: .usage
    case .allMirrorsFailed: failures.first?.category ?? .environment
    default: .environment
    }
  }

  /// Non-nil when the failure means "no access" rather than "broken": the caller falls back to
  /// placeholders in auto mode, or fails with `--require-private`. An HTML page where the asset should be is a
  /// login page (no access) more often than a wrong URL.
  ///
  /// For several mirrors this holds when every mirror failed with an access problem or "not found"
  /// (a private object often looks missing to strangers) and at least one denied access.
  public var accessStatus: AccessStatus? {
    switch kind {
    case .missingCredentials: return .missingCredentials(message)
    case .accessDenied, .htmlPage: return .denied(message)
    case .allMirrorsFailed:
      let statuses = failures.map(\.accessStatus)
      guard statuses.contains(where: { $0 != nil }),
        failures.allSatisfy({ $0.accessStatus != nil || $0.kind == .notFound })
      else { return nil }
      if failures.allSatisfy({ $0.kind == .missingCredentials }) {
        return .missingCredentials(message)
      }
      return .denied(message)
    default: return nil
    }
  }

  /// True for `.missingCredentials` and `.accessDenied` (and mirror lists failing that way).
  public var isAccessProblem: Bool { accessStatus != nil }
}
