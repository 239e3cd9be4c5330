import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PassRecords
import RippleCore
import Testing

@testable import DaemonHTTP
@testable import DaemonSupport

/// rippled as the team's store of pass records: `/api/v1/records/{key}`, read and write tokens apart.
@Suite struct RecordsRoutesTests {
  typealias Fixture = RouterTests.Fixture
  static let key = String(repeating: "ab", count: 32)
  static let access = RecordsAccess(
    readToken: Array("reader".utf8), writeToken: Array("writer".utf8), maxBytes: 1 << 20)

  @Test func theWriteTokenStoresAndEitherTokenReads() async throws {
    let fixture = try Fixture()
    let record = #"{"format":"ripple-pass-record","version":1,"record":"e30="}"#
    try await fixture.application(records: Self.access).test(.router) { client in
      let uri = "/api/v1/records/\(Self.key)"
      try await client.execute(uri: uri, method: .get, headers: RouterTests.bearer("reader")) { response in
        #expect(response.status == .notFound)
      }
      try await client.execute(
        uri: uri, method: .put, headers: RouterTests.bearer("reader"), body: ByteBuffer(string: record)
      ) { response in
        #expect(response.status == .forbidden, "the read token cannot write")
      }
      try await client.execute(
        uri: uri, method: .put, headers: RouterTests.bearer("writer"), body: ByteBuffer(string: record)
      ) { response in
        #expect(response.status == .noContent)
      }
      for token in ["reader", "writer"] {
        try await client.execute(uri: uri, method: .get, headers: RouterTests.bearer(token)) { response in
          #expect(response.status == .ok)
          #expect(String(buffer: response.body) == record)
        }
      }
      try await client.execute(uri: uri, method: .get) { response in
        #expect(response.status == .unauthorized, "no token, no record")
      }
      try await client.execute(uri: uri, method: .get, headers: RouterTests.bearer("s3cret")) { response in
        #expect(response.status == .unauthorized, "the API's own token is not a records token")
      }
    }
  }

  /// Issue 48: no write lowers trust, decided under rippled's own lock: two writers racing one key, main's
  /// signed record and a branch's unsigned one; once the signed one is there no unsigned write replaces it (409),
  /// nor another branch's signed one.
  @Test func anUnsignedWriteNeverReplacesASignedRecordEvenRacingIt() async throws {
    let fixture = try Fixture()
    let signer = Curve25519.Signing.PrivateKey()
    let recordKey = try #require(RecordKey(hex: Self.key))
    func sealed(_ branch: String, _ key: Curve25519.Signing.PrivateKey?) throws -> Data {
      try RecordEnvelope.seal(
        PassRecord(
          key: recordKey, package: ".", target: "CoreTests", commit: "1a2b3c", branch: branch, run: "run",
          writer: "ci", time: Date(), duration: 1, tests: [:]),
        signingKey: key)
    }
    let signed = try sealed("main", signer)
    let unsigned = try sealed("feature/x", nil)
    let otherBranch = try sealed("release-1.x", signer)
    let uri = "/api/v1/records/\(Self.key)"
    try await fixture.application(records: Self.access).test(.router) { client in
      let statuses = try await withThrowingTaskGroup(of: (Data, [HTTPResponse.Status]).self) { group in
        for data in [unsigned, signed] {
          group.addTask {
            var seen: [HTTPResponse.Status] = []
            for _ in 0..<25 {
              seen.append(
                try await client.execute(
                  uri: uri, method: .put, headers: RouterTests.bearer("writer"), body: ByteBuffer(bytes: data)
                ) { $0.status })
            }
            return (data, seen)
          }
        }
        return try await group.reduce(into: [Data: [HTTPResponse.Status]]()) { $0[$1.0] = $1.1 }
      }
      #expect(statuses[signed]?.allSatisfy { $0 == .noContent } == true, "main's signed writes all land")
      let unsignedStatuses = try #require(statuses[unsigned])
      #expect(unsignedStatuses.allSatisfy { $0 == .noContent || $0 == .conflict })
      // After its first refusal, every unsigned write is refused: the signed record stays.
      if let first = unsignedStatuses.firstIndex(of: .conflict) {
        #expect(unsignedStatuses[first...].allSatisfy { $0 == .conflict })
      }
      for (data, reason) in [(unsigned, "unsigned"), (otherBranch, "another branch's")] {
        try await client.execute(
          uri: uri, method: .put, headers: RouterTests.bearer("writer"), body: ByteBuffer(bytes: data)
        ) { response in
          #expect(response.status == .conflict, "\(reason)")
        }
      }
      try await client.execute(uri: uri, method: .get, headers: RouterTests.bearer("reader")) { response in
        #expect(Array(buffer: response.body) == Array(signed))
      }
    }
  }

  @Test func keysThatAreNotSixtyFourHexDigitsAreRefused() async throws {
    let fixture = try Fixture()
    try await fixture.application(records: Self.access).test(.router) { client in
      for bad in ["..", String(repeating: "A", count: 64), String(repeating: "a", count: 63), "%2e%2e%2fetc"] {
        try await client.execute(
          uri: "/api/v1/records/\(bad)", method: .put, headers: RouterTests.bearer("writer"),
          body: ByteBuffer(string: "{}")
        ) { response in
          #expect(response.status == .badRequest || response.status == .notFound, "\(bad): \(response.status)")
          #expect(response.status != .noContent)
        }
      }
    }
    #expect(try fixture.store.passRecordUsage().count == 0)
  }

  @Test func aRecordOverTheLimitIsRefusedAndNothingIsStored() async throws {
    let fixture = try Fixture()
    try await fixture.application(records: Self.access).test(.router) { client in
      try await client.execute(
        uri: "/api/v1/records/\(Self.key)", method: .put, headers: RouterTests.bearer("writer"),
        body: ByteBuffer(repeating: 0x61, count: 5 << 20)
      ) { response in
        #expect(response.status == .contentTooLarge)
      }
    }
    #expect(try fixture.store.passRecordUsage().count == 0)
  }

  @Test func withoutARecordsSectionTheStoreIsNotOffered() async throws {
    let fixture = try Fixture()
    try await fixture.application().test(.router) { client in
      try await client.execute(
        uri: "/api/v1/records/\(Self.key)", method: .get, headers: RouterTests.bearer("s3cret")
      ) { response in
        #expect(response.status == .notFound)
        #expect(String(buffer: response.body).contains("records:"))
      }
    }
  }

  @Test func wrongTokensAreThrottledButTheRightOneIsAlwaysServed() async throws {
    let fixture = try Fixture()
    try fixture.store.savePassRecord(Self.key, Data("{}".utf8), maxBytes: 1 << 20)
    try await fixture.application(records: Self.access).test(.router) { client in
      var throttled = false
      for _ in 0..<30 {
        try await client.execute(
          uri: "/api/v1/records/\(Self.key)", method: .get, headers: RouterTests.bearer("guess")
        ) { response in
          if response.status == .tooManyRequests { throttled = true }
        }
      }
      #expect(throttled, "30 wrong tokens from one client are throttled")
      try await client.execute(
        uri: "/api/v1/records/\(Self.key)", method: .get, headers: RouterTests.bearer("reader")
      ) { response in
        #expect(response.status == .ok, "the right token from the same client is served")
      }
    }
  }
}
