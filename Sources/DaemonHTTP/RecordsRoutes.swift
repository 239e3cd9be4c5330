import Crypto
import DaemonSupport
import Foundation
import HTTPTypes
import Hummingbird
import PassRecords
import ResultStore

/// Who may use rippled's store of pass records (`records:` in rippled.yml).
package struct RecordsAccess: Sendable {
  var readToken: [UInt8]?
  var writeToken: [UInt8]?
  var maxBytes: Int64
  /// The keys whose signed shared history the dashboard believes (rippled's own): CI runners that use rippled as
  /// their store write their team history here, and the flaky panel reads the protected branches' part of it.
  var trustedKeys: [(name: String, key: Curve25519.Signing.PublicKey)] = []

  package init(
    readToken: [UInt8]?, writeToken: [UInt8]?, maxBytes: Int64,
    trustedKeys: [(name: String, key: Curve25519.Signing.PublicKey)] = []
  ) {
    self.readToken = readToken
    self.writeToken = writeToken
    self.maxBytes = maxBytes
    self.trustedKeys = trustedKeys
  }

  package static let off = RecordsAccess(readToken: nil, writeToken: nil, maxBytes: 0)
}

/// `GET /api/v1/records/{key}` (read or write token) and `PUT /api/v1/records/{key}` (write token): rippled as
/// the team's store of pass records (docs/DESIGN.md, "Pass records"). Bytes by key: readers judge the records
/// (signatures, key, branch); the one rule rippled applies is that no write lowers trust (409, the record there
/// stays: `replacementRule`). A valid token is always served; wrong ones count against the client (429 while
/// locked out).
package struct RecordsRoutes {
  var api: APIContext

  var collection: RouteCollection<RippledRequestContext> {
    let routes = RouteCollection(context: RippledRequestContext.self)
    routes.get(":key") { request, context in
      try authorize(request, context, write: false)
      let key = try Self.key(context)
      guard let data = try api.read({ try api.store.passRecord(key.hex) }) else {
        throw HTTPError(.notFound, message: "no pass record at \(key.hex)")
      }
      return Response(
        status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
    routes.put(":key") { request, context in
      try authorize(request, context, write: true)
      let key = try Self.key(context)
      let body = try await request.body.collect(upTo: ResultStoreLimits.maximumRecordBytes)
      let data = Data(buffer: body)
      let maxBytes = api.records.maxBytes
      let rule = Self.replacementRule(api.records)
      let kept = try api.read {
        try api.store.savePassRecord(key.hex, data, maxBytes: maxBytes) { existing in
          if case .keep(let reason) = rule.decide(existing: existing, replacement: data) { return reason }
          return nil
        }
      }
      if let kept { throw HTTPError(.conflict, message: "the record at \(key.hex) stays: \(kept)") }
      return Response(status: .noContent)
    }
    return routes
  }

  /// No write lowers trust, decided in the database's write transaction: a record signed (by any key) is never
  /// replaced by an unsigned one, nor one signed by rippled's key by one that is not, nor a signed record by
  /// another branch's. rippled knows no repository's `protectedBranches`: every signed record counts as a
  /// protected branch's (only protected runs sign). Without a signing key of its own, any key counts as trusted.
  static func replacementRule(_ access: RecordsAccess) -> RecordReplacement {
    access.trustedKeys.isEmpty
      ? RecordReplacement(trustedKeys: nil, protectedBranches: nil)
      : RecordReplacement(trusting: access.trustedKeys.map(\.key), protectedBranches: nil)
  }

  static func key(_ context: RippledRequestContext) throws -> RecordKey {
    let text = try context.parameters.require("key")
    guard let key = RecordKey(hex: text) else {
      throw HTTPError(.badRequest, message: "a record key is 64 lowercase hex digits")
    }
    return key
  }

  /// The write token for writes, either token for reads; 404 when the store is not offered (no read token).
  func authorize(_ request: Request, _ context: RippledRequestContext, write: Bool) throws {
    let access = api.records
    guard access.readToken != nil || access.writeToken != nil else {
      throw HTTPError(.notFound, message: "this rippled keeps no pass records for others (records: in rippled.yml)")
    }
    let header = request.headers[.authorization] ?? ""
    let presented = header.hasPrefix("Bearer ") ? Array(header.utf8.dropFirst(7)) : []
    let accepted = write ? [access.writeToken] : [access.readToken, access.writeToken]
    if accepted.contains(where: { token in token.map { WebAuth.constantTimeEqual(presented, $0) } ?? false }) {
      return
    }
    try api.refuseIfLockedOut(context.client)
    if !presented.isEmpty {
      api.recordFailure(context.client, warning: "a pass-record request with a wrong token was refused")
    }
    throw HTTPError(
      write && !presented.isEmpty && access.readToken.map({ WebAuth.constantTimeEqual(presented, $0) }) == true
        ? .forbidden : .unauthorized,
      message: write ? "writing pass records needs the write token" : "reading pass records needs a records token")
  }
}
