import DaemonSupport
import DaemonWeb
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import RunStore

/// The answers every route collection builds: JSON, pages and plain bytes, each with the same security headers.
extension HTTPAPI {
  /// Runs a store call for a request: a store failure makes the daemon unhealthy (listed on /readyz until the
  /// file checks out again), is logged once, and answers 503 instead of an empty 500.
  static func storeRead<T>(health: HealthBoard, log: DaemonLog, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as RunStoreError {
      if !health.has(HealthBoard.storeReads) { log.error("the runs database failed: \(error.description)") }
      health.set(HealthBoard.storeReads, "the runs database failed: \(error.description)")
      throw HTTPError(.serviceUnavailable, message: "the runs database failed; see /readyz")
    }
  }

  static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
    response(status, contentType: "application/json", bytes: try APIJSON.encode(value))
  }

  static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
    response(status, contentType: "text/html; charset=utf-8", bytes: Array(page.utf8))
  }

  static func response(_ status: HTTPResponse.Status, contentType: String, bytes: [UInt8]) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = contentType
    headers[.cacheControl] = "no-store"
    headers[HTTPField.Name("Content-Security-Policy")!] = Dashboard.contentSecurityPolicy
    headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}

/// Any error that is not already an HTTP answer (a bug, an unexpected failure) becomes a 500 with a JSON body,
/// and is logged: never an empty 500 nobody hears about.
struct UnexpectedErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  var log: DaemonLog

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    do {
      return try await next(request, context)
    } catch let error as any HTTPResponseError {
      throw error
    } catch let error as HTTPParserError {
      // A body the client garbled (a bad chunk size, say) is its mistake, not the daemon's.
      throw HTTPError(.badRequest, message: "the request could not be read: \(error)")
    } catch {
      log.error("\(request.method) \(request.uri.path) failed: \(error)")
      throw HTTPError(.internalServerError, message: "internal error: \(error); the daemon's log has it too")
    }
  }
}
