import Foundation
import NIOCore
import NIOPosix

/// A connection that could not be made, told apart from other network failures so the message says what
/// is wrong with the source in words (NIO's own text is `connect(descriptor:addr:size:): Connection refused
/// (errno: 111)`), naming the URL as `HTTPTarget.display` shows it.
package enum ConnectFailure: Equatable {
  /// The host name does not resolve.
  case unknownHost
  /// Every address of the host refused the connection: nothing listens on that port.
  case refused

  package init?(_ error: any Error) {
    if let connection = error as? NIOConnectionError {
      if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
        self = .unknownHost
        return
      }
      if !connection.connectionErrors.isEmpty,
        connection.connectionErrors.allSatisfy({ Self.isRefused($0.error) })
      {
        self = .refused
        return
      }
      return nil
    }
    if error is SocketAddressError.UnknownHost {
      self = .unknownHost
    } else if Self.isRefused(error) {
      self = .refused
    } else {
      return nil
    }
  }

  private static func isRefused(_ error: any Error) -> Bool {
    (error as? IOError)?.errnoCode == ECONNREFUSED
  }

  func error(_ target: HTTPTarget) -> FetchError {
    let components = URLComponents(string: target.url)
    let host = components?.host ?? "?"
    let asset = target.assetID
    switch self {
    case .unknownHost:
      return FetchError(
        .unknownHost, assetID: asset,
        "asset '\(asset)': \(target.display): the host name \(host) does not resolve; check the URL "
          + "and the network's DNS")
    case .refused:
      let port = components?.port ?? (components?.scheme?.lowercased() == "http" ? 80 : 443)
      return FetchError(
        .connectionRefused, assetID: asset,
        "asset '\(asset)': \(target.display): \(host) refused the connection on port \(port) (nothing listens "
          + "there); check the URL and that the server is running")
    }
  }
}
