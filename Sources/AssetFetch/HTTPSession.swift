import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// Owns the one `HTTPClient` of a live `Fetcher`: redirects disabled (we follow them ourselves),
/// system roots plus the optional CA bundle, no connection-establishment retries inside the pool
/// (our retry loop decides), no decompression (we store the bytes the server sends).
///
/// `shutdown()` releases it; if the owner forgets, `deinit` starts a non-blocking shutdown so the
/// client never reaches its own deinit alive (which traps in debug builds).
final class HTTPSession: Sendable {
  /// The client, or why it could not be made (an unreadable CA bundle), reported on first use.
  let client: Result<HTTPClient, CABundleError>
  private let isShutDown = NIOLockedValueBox(false)

  struct CABundleError: Error, Sendable {
    var path: String
    var reason: String
  }

  init(options: FetchOptions) {
    var tls = TLSConfiguration.makeClientConfiguration()
    if let path = options.caBundlePath {
      do {
        let certificates = try NIOSSLCertificate.fromPEMFile(path)
        guard !certificates.isEmpty else { throw CABundleError(path: path, reason: "it holds no PEM certificate") }
        tls.additionalTrustRoots = [.certificates(certificates)]
      } catch let error as CABundleError {
        client = .failure(error)
        return
      } catch {
        client = .failure(CABundleError(path: path, reason: "it is missing or not a PEM certificate bundle (\(error))"))
        return
      }
    }
    let timeout = TimeAmount(options.timeout)
    var configuration = HTTPClient.Configuration(
      tlsConfiguration: tls, redirectConfiguration: .disallow,
      timeout: .init(connect: timeout, read: timeout), decompression: .disabled)
    configuration.connectionPool.retryConnectionEstablishment = false
    // NIOPosix on every platform: NIOSSL (and so the extra CA bundle) is used on macOS too.
    client = .success(HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration))
  }

  func shutdown() async {
    guard case .success(let client) = client, markShutDown() else { return }
    try? await client.shutdown()
  }

  deinit {
    guard case .success(let client) = client, markShutDown() else { return }
    client.shutdown { _ in }
  }

  /// True the first time only.
  private func markShutDown() -> Bool {
    isShutDown.withLockedValue { done in
      defer { done = true }
      return !done
    }
  }
}

extension TimeAmount {
  init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
