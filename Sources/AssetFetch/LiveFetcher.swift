import AsyncHTTPClient
import Foundation
import RippleConfig

extension Fetcher {
  /// HTTPS (mirrors, retries, resume, strict redirects), S3 (SigV4) and files, over one HTTP client.
  /// Call `shutdown()` when done (or use `withLive`); a forgotten shutdown happens on release.
  public static func live(options: FetchOptions) -> Fetcher {
    live(options: options, runtime: .live)
  }

  /// `live(options:)` for the duration of `body`, shut down afterwards, also when `body` throws.
  public static func withLive<T: Sendable>(
    options: FetchOptions, _ body: (Fetcher) async throws -> T
  ) async throws -> T {
    try await live(options: options).using(body)
  }

  /// Tests inject a runtime whose `sleep` records instead of waiting.
  static func live(options: FetchOptions, runtime: FetchRuntime) -> Fetcher {
    let session = HTTPSession(options: options)
    return Fetcher(
      fetch: { request, progress in
        if case .file(let path) = request.source {
          return try FileFetch.copy(path: path, request: request, options: options, progress: progress)
        }
        let http = try Fetcher.transfer(session, options: options, runtime: runtime, assetID: request.assetID)
        let targets = try Targets.make(request, options: options, runtime: runtime)
        return try await http.download(targets, request: request, progress: progress)
      },
      checkAccess: { request in
        await checkAccess(request, session: session, options: options, runtime: runtime)
      },
      shutdown: { await session.shutdown() }
    )
  }

  private static func transfer(_ session: HTTPSession, options: FetchOptions, runtime: FetchRuntime, assetID: String)
    throws(FetchError) -> HTTPTransfer
  {
    switch session.client {
    case .success(let client):
      return HTTPTransfer(client: client, options: options, runtime: runtime)
    case .failure(let error):
      throw FetchError(
        .invalidSource, assetID: assetID,
        "cannot use the CA bundle \(error.path) for asset '\(assetID)': \(error.reason); pass a PEM file of CA certificates"
      )
    }
  }

  /// A cheap probe: `GET` with `Range: bytes=0-0` on each mirror until one grants access, each retried for
  /// transient failures as a download is (a 503 then a 404 is a 404).
  ///
  /// `.granted` on 2xx (and 416); `.missingCredentials` when the referenced secret is unavailable;
  /// `.denied` on 401/403/S3 access errors or an HTML login page; `.broken` for everything else (404, refused
  /// connection, unknown host, plain http, a missing file, server errors after the retries): a source that
  /// cannot work with any credentials is not "no access".
  static func checkAccess(_ request: FetchRequest, session: HTTPSession, options: FetchOptions, runtime: FetchRuntime)
    async -> AccessStatus
  {
    if case .file(let path) = request.source {
      let resolved: String
      do {
        resolved = try FileFetch.existingFile(path, assetID: request.assetID, options: options)
      } catch {
        return .broken(error)
      }
      return FileManager.default.isReadableFile(atPath: resolved)
        ? .granted : .denied("asset '\(request.assetID)': \(resolved) is not readable")
    }
    let targets: [HTTPTarget]
    let transfer: HTTPTransfer
    do {
      transfer = try Fetcher.transfer(session, options: options, runtime: runtime, assetID: request.assetID)
      targets = try Targets.make(request, options: options, runtime: runtime)
    } catch {
      return error.accessStatus ?? .broken(error)
    }
    var failures: [FetchError] = []
    for target in targets {
      switch await transfer.probe(target) {
      case .success: return .granted
      case .failure(let error): failures.append(error)
      }
    }
    let combined = HTTPTransfer.combine(failures, assetID: request.assetID)
    return combined.accessStatus ?? .broken(combined)
  }
}

extension HTTPTransfer {
  /// One mirror's access probe, with the download's retries and backoff for transient failures.
  func probe(_ target: HTTPTarget) async -> Result<Void, FetchError> {
    var attempt = 0
    while true {
      attempt += 1
      let failure: AttemptFailure
      do {
        try await probeOnce(target)
        return .success(())
      } catch {
        failure = error
      }
      guard case .retry(let retryAfter) = failure.disposition, attempt <= max(options.retries, 0) else {
        return .failure(failure.error)
      }
      do {
        try await runtime.sleep(runtime.delay(beforeRetry: attempt, retryAfter: retryAfter))
      } catch {
        return .failure(failure.error)  // cancelled
      }
    }
  }

  private func probeOnce(_ target: HTTPTarget) async throws(AttemptFailure) {
    let response = try await send(target, extraHeaders: ["Range": "bytes=0-0"])
    let code = response.status.code
    guard (200..<300).contains(code) || code == 416 else { throw await statusFailure(response, target: target) }
    let contentType = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
    _ = try? await response.body.collect(upTo: 4 * 1024)
    if contentType.hasPrefix("text/html") && !target.expectsHTML {
      throw AttemptFailure(
        error: FetchError(
          .htmlPage, assetID: target.assetID,
          "server returned an HTML page (a login or error page?) instead of \(target.assetID) at \(target.display)"),
        disposition: .nextMirror)
    }
  }
}
