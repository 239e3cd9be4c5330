import Hummingbird
import NIOCore

/// The context of every request rippled answers: Hummingbird's basic one plus the peer's address, so that failed
/// logins and webhook signatures are throttled per client (`FailureThrottle`).
struct RippledRequestContext: RequestContext, RemoteAddressRequestContext {
  var coreContext: CoreRequestContextStorage
  var remoteAddress: SocketAddress?

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }

  /// The client a failure is counted against: its IP address (no port); "unknown" without one.
  var client: String { remoteAddress?.ipAddress ?? remoteAddress?.pathname ?? "unknown" }
}
