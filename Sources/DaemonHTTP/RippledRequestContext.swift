import Hummingbird
import NIOCore

/// The context of every request rippled answers: Hummingbird's basic one plus the peer's address, so that failed
/// logins and webhook signatures are throttled per client (`FailureThrottle`).
package struct RippledRequestContext: RequestContext, RemoteAddressRequestContext {
  package var coreContext: CoreRequestContextStorage
  package var remoteAddress: SocketAddress?

  package init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }

  /// The client a failure is counted against: its IP address (no port); "unknown" without one.
  package var client: String { remoteAddress?.ipAddress ?? remoteAddress?.pathname ?? "unknown" }
}
