import RippleConfig
import RippleCore

/// One download: an asset's source, written to `destination` (appending when resuming).
public struct FetchRequest: Sendable, Hashable {
  public var assetID: String
  public var source: AssetSource
  public var credentials: CredentialReference
  public var expectedSize: Int64?
  /// The file to write. When `resumeFrom` > 0 it already holds that many bytes of the same object
  /// (same sha256) and the fetcher continues with an HTTP Range request, or starts over if it cannot.
  public var destination: String
  public var resumeFrom: Int64
  /// Where a run-time URL in `source` came from (`$AUDIO_URL`, a `urlCommand`): such a URL is a secret
  /// (a pre-signed link carries its token in the path as often as in the query), so messages show its
  /// scheme and host and this name, never its path.
  public var link: String?

  public init(
    assetID: String, source: AssetSource, credentials: CredentialReference = .none, expectedSize: Int64? = nil,
    destination: String, resumeFrom: Int64 = 0, link: String? = nil
  ) {
    self.assetID = assetID
    self.source = source
    self.credentials = credentials
    self.expectedSize = expectedSize
    self.destination = destination
    self.resumeFrom = resumeFrom
    self.link = link
  }
}

public struct FetchProgress: Sendable, Hashable {
  public var assetID: String
  public var receivedBytes: Int64
  public var totalBytes: Int64?

  public init(assetID: String, receivedBytes: Int64, totalBytes: Int64?) {
    self.assetID = assetID
    self.receivedBytes = receivedBytes
    self.totalBytes = totalBytes
  }
}

public struct FetchResult: Sendable, Hashable {
  /// Size of `destination` when done.
  public var bytes: Int64
  /// Where it came from, safe to print: no credentials, no presigned query strings.
  public var origin: String

  public init(bytes: Int64, origin: String) {
    self.bytes = bytes
    self.origin = origin
  }
}

/// Whether the configured credentials give access to a source (for auto mode and doctor).
///
/// Only `missingCredentials` and `denied` mean "no access", for which placeholders may stand in. A source that
/// is broken or misconfigured (404, refused connection, unknown host, plain http, a missing `file` path) is
/// `broken`: a placeholder would hide the mistake, so the asset fails.
public enum AccessStatus: Sendable, Hashable {
  case granted
  /// No credentials configured or available (e.g. the variable is unset).
  case missingCredentials(String)
  /// The server refused them (401/403, S3 AccessDenied/SignatureDoesNotMatch, an HTML login page).
  case denied(String)
  /// The source cannot be used whatever the credentials: the error says why (and its category, the exit code).
  case broken(FetchError)
}

/// Settings shared by every fetch of a run.
public struct FetchOptions: Sendable, Hashable {
  /// A PEM bundle of extra trusted CAs (a company mirror, tests); the system roots stay trusted.
  public var caBundlePath: String?
  /// Allow plain `http://` sources (air-gapped mirrors, tests). https→http redirects stay refused.
  public var allowInsecureHTTP: Bool
  /// Per attempt: connect and idle-read timeout.
  public var timeout: Duration
  /// Retries per mirror for transient failures (connection errors, timeouts, 5xx, 429), with backoff:
  /// each mirror gets up to `1 + retries` attempts.
  public var retries: Int
  /// Where credential variables are read from (the process environment in production).
  public var environment: [String: String]
  /// Relative `file` sources resolve against it.
  public var repositoryRoot: String
  /// Which files a `file` source may name: anything for the CLI, the repository and listed folders in rippled.
  public var fileSources: FileSourceScope

  public init(
    caBundlePath: String? = nil, allowInsecureHTTP: Bool = false, timeout: Duration = .seconds(30), retries: Int = 3,
    environment: [String: String] = [:], repositoryRoot: String, fileSources: FileSourceScope = .anywhere
  ) {
    self.fileSources = fileSources
    self.caBundlePath = caBundlePath
    self.allowInsecureHTTP = allowInsecureHTTP
    self.timeout = timeout
    self.retries = retries
    self.environment = environment
    self.repositoryRoot = repositoryRoot
  }
}

/// Downloads asset sources. `live(options:)` speaks HTTPS, S3 (SigV4) and files; tests inject their own.
public struct Fetcher: Sendable {
  public var fetch:
    @Sendable (FetchRequest, _ progress: @escaping @Sendable (FetchProgress) -> Void) async throws -> FetchResult
  public var checkAccess: @Sendable (FetchRequest) async -> AccessStatus
  /// Releases the network client of `live(options:)` (no-op for test doubles). Call it once, when
  /// the run is done; `withLive(options:_:)` does it for you.
  public var shutdown: @Sendable () async -> Void

  public init(
    fetch:
      @escaping @Sendable (FetchRequest, _ progress: @escaping @Sendable (FetchProgress) -> Void) async throws
      -> FetchResult,
    checkAccess: @escaping @Sendable (FetchRequest) async -> AccessStatus,
    shutdown: @escaping @Sendable () async -> Void = {}
  ) {
    self.fetch = fetch
    self.checkAccess = checkAccess
    self.shutdown = shutdown
  }
}

extension Fetcher {
  /// Runs `body` with this fetcher, then shuts it down, also when `body` throws.
  public func using<T: Sendable>(_ body: (Fetcher) async throws -> T) async throws -> T {
    do {
      let result = try await body(self)
      await shutdown()
      return result
    } catch {
      await shutdown()
      throw error
    }
  }
}

extension Fetcher {
  /// The test double to start from: a download or an access check is reported to the test that reaches it; the
  /// download throws, the check answers `.denied` (it cannot throw).
  public static var failing: Fetcher {
    Fetcher(
      fetch: { request, _ in throw unimplemented("Fetcher", "download \(request.assetID) to \(request.destination)") },
      checkAccess: { request in
        unimplemented("Fetcher", "check access to \(request.assetID)", placeholder: .denied("unimplemented"))
      })
  }
}
