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

  /// A cheap probe: `GET` with `Range: bytes=0-0` on each mirror until one grants access.
  ///
  /// `.granted` on 2xx (and 416); `.missingCredentials` when the referenced secret is unavailable;
  /// `.denied` on 401/403/S3 access errors or an HTML login page — and also, with the reason in the
  /// message, when no mirror could be checked (404, 5xx, network): access is not confirmed.
  static func checkAccess(_ request: FetchRequest, session: HTTPSession, options: FetchOptions, runtime: FetchRuntime)
    async -> AccessStatus
  {
    if case .file(let path) = request.source {
      let resolved = FileFetch.resolve(path, root: options.repositoryRoot)
      return FileManager.default.isReadableFile(atPath: resolved)
        ? .granted : .denied("asset '\(request.assetID)': \(resolved) does not exist or is not readable")
    }
    let targets: [HTTPTarget]
    let transfer: HTTPTransfer
    do {
      transfer = try Fetcher.transfer(session, options: options, runtime: runtime, assetID: request.assetID)
      targets = try Targets.make(request, options: options, runtime: runtime)
    } catch {
      if let status = error.accessStatus { return status }
      return .denied(error.message)
    }
    var failures: [FetchError] = []
    for target in targets {
      do {
        let response = try await transfer.send(target, extraHeaders: ["Range": "bytes=0-0"])
        let code = response.status.code
        let contentType = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        if (200..<300).contains(code) || code == 416 {
          _ = try? await response.body.collect(upTo: 4 * 1024)
          if contentType.hasPrefix("text/html") && !target.expectsHTML {
            failures.append(
              FetchError(
                .htmlPage, assetID: request.assetID,
                "server returned an HTML page (a login or error page?) instead of \(request.assetID) at \(target.display)"
              ))
            continue
          }
          return .granted
        }
        failures.append(await transfer.statusFailure(response, target: target).error)
      } catch {
        failures.append(error.error)
      }
    }
    let combined = HTTPTransfer.combine(failures, assetID: request.assetID)
    return combined.accessStatus ?? .denied(combined.message)
  }
}
