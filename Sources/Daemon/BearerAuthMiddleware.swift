import HTTPTypes
import Hummingbird

/// The one check of `Authorization: Bearer <token>` (constant-time) in front of every state change: 403 when
/// no token is configured (`http.tokenFile`), 401 when it is missing or wrong.
struct BearerAuthMiddleware<Context: RequestContext>: RouterMiddleware {
  var token: [UInt8]?

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard let token else { throw HTTPError(.forbidden, message: "no API token is configured (http.tokenFile)") }
    let header = request.headers[.authorization] ?? ""
    guard header.hasPrefix("Bearer "), Self.constantTimeEqual(Array(header.utf8.dropFirst(7)), token) else {
      throw HTTPError(.unauthorized, message: "a valid 'Authorization: Bearer <token>' is required")
    }
    return try await next(request, context)
  }

  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
  }
}
