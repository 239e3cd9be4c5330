import Foundation
import PassRecords
import ResultStore
import ResultStoreLive
import RippleConfig
import Testing

/// The S3 store against moto with SigV4 enforced.
@Suite(.moto) struct S3StoreTests {
  private func store(secretKey: String? = nil, prefix: String = "ci/records") throws -> ResultStoreClient {
    let server = try MotoServer.suiteServer()
    return try ResultStores.make(
      .s3(server.location(prefix: prefix), credentials: MotoServer.credentials), config: config(),
      environment: server.environment(secretKey: secretKey), cacheDirectory: "/c")
  }

  @Test func roundTripSignedAndAMissingObjectIsNil() async throws {
    let store = try store()
    #expect(store.name == "s3://records", "the bucket only: a prefix is a path, never shown")
    let key = freshKey()
    #expect(try await store.load(key) == nil)
    let data = recordBytes("s3")
    try await store.save(key, data)
    #expect(try await store.load(key) == data)
    // Without a prefix the key is the object's whole name.
    let bare = try self.store(prefix: "")
    #expect(try await bare.load(key) == nil)
    try await bare.save(key, data)
    #expect(try await bare.load(key) == data)
  }

  /// Issue 48: no write lowers trust. The check and the write are one conditional PUT (`If-Match` the ETag
  /// read, `If-None-Match: *` for a new key): two writers racing never leave an unsigned record over a signed one.
  @Test func anUnsignedWriteNeverReplacesASignedRecordEvenRacingIt() async throws {
    let store = try store()
    let key = freshKey()
    let signed = try sealedRecord(key, branch: "main", signed: true)
    let unsigned = try sealedRecord(key, branch: "feature/x", signed: false)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for data in [unsigned, signed] {
        group.addTask {
          for _ in 0..<10 { _ = try await store.save(key, data, unlessLowering: lowerNoTrust) }
        }
      }
      try await group.waitForAll()
    }
    #expect(try await store.load(key) == signed)
    let decision = try await store.save(key, unsigned, unlessLowering: lowerNoTrust)
    #expect(decision == .keep(reason: "a signed record is never replaced by an unsigned one"))
    #expect(try await store.load(key) == signed)
    // A new key is written only while it is still new; a signed record replaces an unsigned one.
    let fresh = freshKey()
    #expect(
      try await store.save(fresh, try sealedRecord(fresh, branch: "x", signed: false), unlessLowering: lowerNoTrust)
        == .replace)
    let main = try sealedRecord(fresh, branch: "main", signed: true)
    #expect(try await store.save(fresh, main, unlessLowering: lowerNoTrust) == .replace)
    #expect(try await store.load(fresh) == main)
  }

  @Test func aWrongSecretIsRefusedWith403AndNeverShown() async throws {
    let secret = "wrong-secret-\(UUID().uuidString)"
    let store = try store(secretKey: secret)
    let key = freshKey()
    let loadError = await #expect(throws: ResultStoreError.self) { try await store.load(key) }
    #expect(loadError?.kind == .refused(status: 403))
    let saveError = await #expect(throws: ResultStoreError.self) { try await store.save(key, recordBytes("x")) }
    #expect(saveError?.kind == .refused(status: 403))
    for error in [loadError, saveError].compactMap({ $0 }) {
      #expect(!error.description.contains(secret))
    }
  }

  @Test func aMissingBucketIsRefusedNotAMiss() async throws {
    let server = try MotoServer.suiteServer()
    var location = server.location()
    location.bucket = "no-such-bucket"
    let store = try ResultStores.make(
      .s3(location, credentials: MotoServer.credentials), config: config(), environment: server.environment(),
      cacheDirectory: "/c")
    let error = await #expect(throws: ResultStoreError.self) { try await store.load(freshKey()) }
    #expect(error?.kind == .refused(status: 404))
    #expect(error?.description.contains("the bucket does not exist") == true)
  }

  @Test func anUnsetCredentialVariableIsASetupErrorNamingIt() throws {
    let server = try MotoServer.suiteServer()
    let error = #expect(throws: ResultStoreSetupError.self) {
      try ResultStores.make(
        .s3(server.location(), credentials: MotoServer.credentials), config: config(), environment: [:],
        cacheDirectory: "/c")
    }
    #expect(error?.description.contains("RIPPLE_TEST_AWS_KEY") == true)
  }
}
