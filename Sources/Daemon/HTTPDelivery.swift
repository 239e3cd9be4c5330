import AsyncHTTPClient
import Foundation
import NIOCore

/// An HTTP POST the daemon sends in the background (commit statuses, notifications).
struct HTTPPost: Sendable, Hashable {
  var url: String
  var headers: [String: String]
  var body: Data
}

/// The one delivery loop of the daemon's background POSTs (CommitStatusReporter, BranchNotifier): network errors
/// and 5xx are retried after each of `retryDelays`, then given up; any other answer is final.
enum HTTPDelivery {
  /// Sends one request; returns the HTTP status code. Throws on network errors.
  typealias Send = @Sendable (HTTPPost) async throws -> Int

  enum Outcome: Equatable, Sendable {
    case delivered
    /// A 4xx (or other non-retried) answer.
    case refused(Int)
    /// Still 5xx or unreachable after the retries: why.
    case gaveUp(String)
  }

  static func post(_ request: HTTPPost, send: Send, retryDelays: [Duration]) async -> Outcome {
    var attempt = 0
    while true {
      // Cancelled (shutdown's cap): nothing more is sent.
      if Task.isCancelled { return .gaveUp("was cancelled: the daemon is stopping") }
      let problem: String
      do {
        let code = try await send(request)
        switch code {
        case 200..<300: return .delivered
        case 500..<600: problem = "answered \(code)"
        default: return .refused(code)
        }
      } catch {
        problem = "could not be reached (\(error))"
      }
      guard attempt < retryDelays.count, !Task.isCancelled else { return .gaveUp(problem) }
      try? await Task.sleep(for: retryDelays[attempt])
      attempt += 1
    }
  }

  static let liveSend: Send = { request in
    var http = HTTPClientRequest(url: request.url)
    http.method = .POST
    for (name, value) in request.headers { http.headers.add(name: name, value: value) }
    http.body = .bytes(ByteBuffer(bytes: request.body))
    let response = try await HTTPClient.shared.execute(http, timeout: .seconds(30))
    _ = try? await response.body.collect(upTo: 1 << 20)
    return Int(response.status.code)
  }
}
