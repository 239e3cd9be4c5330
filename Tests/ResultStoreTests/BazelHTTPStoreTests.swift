import Foundation
import PassRecords
import ResultStore
import RippleConfig
import Testing

@testable import ResultStoreLive

/// Bazel's HTTP cache protocol against a real nginx with WebDAV.
@Suite(.nginx) struct BazelHTTPStoreTests {
  private func store() throws -> (ResultStoreClient, NginxServer) {
    let server = try NginxServer.suiteServer()
    let store = try ResultStores.make(
      .bazelHTTP(url: server.baseURL, credentials: .none), config: config(), environment: [:], cacheDirectory: "/c")
    return (store, server)
  }

  @Test func roundTripThroughAnActionResultThatNamesTheBlob() async throws {
    let (store, server) = try store()
    let key = freshKey()
    let data = recordBytes("bazel")
    try await store.save(key, data)
    #expect(try await store.load(key) == data)
    #expect(store.name == "http://127.0.0.1:\(server.port)", "scheme and host only: a path can hold a token")

    let hash = BazelHTTPStore.sha256(data)
    let blob = try Data(contentsOf: URL(fileURLWithPath: "\(server.cacheRoot)/cas/\(hash)"))
    #expect(blob == data)
    let entry = try Data(contentsOf: URL(fileURLWithPath: "\(server.cacheRoot)/ac/\(key.hex)"))
    #expect(
      ActionResultCodec.decode(entry) == [
        .init(path: "ripple-pass-record.json", digest: .init(hash: hash, sizeBytes: Int64(data.count)))
      ])
  }

  /// Issue 48: no write lowers trust. nginx's WebDAV (and bazel-remote) have no conditional PUT: the client
  /// reads, decides and writes, so a writer racing between the two can still win (docs/DESIGN.md); a write after
  /// a signed record is there never replaces it.
  @Test func anUnsignedWriteDoesNotReplaceASignedRecord() async throws {
    let (store, _) = try store()
    let key = freshKey()
    let signed = try sealedRecord(key, branch: "main", signed: true)
    #expect(try await store.save(key, signed, unlessLowering: lowerNoTrust) == .replace)
    let unsigned = try sealedRecord(key, branch: "feature/x", signed: false)
    #expect(try await store.save(key, unsigned, unlessLowering: lowerNoTrust) != .replace)
    #expect(try await store.load(key) == signed)
    let newer = try sealedRecord(key, branch: "main", signed: true, run: "newer")
    #expect(try await store.save(key, newer, unlessLowering: lowerNoTrust) == .replace)
    #expect(try await store.load(key) == newer)
  }

  @Test func aMissingEntryIsNil() async throws {
    let (store, _) = try store()
    #expect(try await store.load(freshKey()) == nil)
  }

  @Test func aBlobThatNoLongerMatchesItsDigestIsInvalidNotTrusted() async throws {
    let (store, server) = try store()
    let key = freshKey()
    let data = recordBytes("honest")
    try await store.save(key, data)
    // Same length, other bytes: only the hash can tell.
    var forged = data
    forged[forged.count - 1] = UInt8(ascii: "!")
    try forged.write(to: URL(fileURLWithPath: "\(server.cacheRoot)/cas/\(BazelHTTPStore.sha256(data))"))
    let error = await #expect(throws: ResultStoreError.self) { try await store.load(key) }
    #expect(error?.kind == .invalidResponse)
    #expect(error?.description.contains("not trusted") == true)
  }

  @Test func anEntryThatIsNotAnActionResultOrNamesAPathIsInvalid() async throws {
    let (store, server) = try store()
    for entry in [
      Data([0xff, 0xff, 0xff]),
      // A well-formed entry whose hash would walk out of /cas/.
      ActionResultCodec.encode([
        .init(path: "ripple-pass-record.json", digest: .init(hash: "../../etc/passwd", sizeBytes: 10))
      ]),
      ActionResultCodec.encode([
        .init(path: "other.json", digest: .init(hash: String(repeating: "a", count: 64), sizeBytes: 1))
      ]),
    ] {
      let key = freshKey()
      try FileManager.default.createDirectory(atPath: server.cacheRoot + "/ac", withIntermediateDirectories: true)
      try entry.write(to: URL(fileURLWithPath: "\(server.cacheRoot)/ac/\(key.hex)"))
      let error = await #expect(throws: ResultStoreError.self) { try await store.load(key) }
      #expect(error?.kind == .invalidResponse)
    }
  }

  @Test func anEntryWhoseBlobWasEvictedIsAMiss() async throws {
    let (store, server) = try store()
    let key = freshKey()
    let data = recordBytes("evicted")
    try await store.save(key, data)
    try FileManager.default.removeItem(atPath: "\(server.cacheRoot)/cas/\(BazelHTTPStore.sha256(data))")
    #expect(try await store.load(key) == nil)
  }
}

/// The ActionResult encoding, byte for byte (REAPI: ActionResult.output_files = 2, OutputFile.path = 1,
/// OutputFile.digest = 2, Digest.hash = 1, Digest.size_bytes = 2).
@Suite struct ActionResultCodecTests {
  @Test func encodesTheWireFormatByHand() {
    let bytes = ActionResultCodec.encode([.init(path: "a", digest: .init(hash: "b", sizeBytes: 300))])
    // 0x12: field 2, bytes. OutputFile: 0x0a "a", 0x12 Digest: 0x0a "b", 0x10 varint 300 (0xac 0x02).
    #expect([UInt8](bytes) == [0x12, 0x0b, 0x0a, 0x01, 0x61, 0x12, 0x06, 0x0a, 0x01, 0x62, 0x10, 0xac, 0x02])
  }

  @Test func decodingSkipsFieldsItDoesNotKnow() {
    var data = Data([0x20, 0x00])  // exit_code = 0 (field 4, varint)
    data += ActionResultCodec.encode([.init(path: "p", digest: .init(hash: "h", sizeBytes: 7))])
    data += Data([0x4a, 0x02, 0x08, 0x01])  // execution_metadata (field 9, a message)
    #expect(ActionResultCodec.decode(data) == [.init(path: "p", digest: .init(hash: "h", sizeBytes: 7))])
  }

  @Test func truncatedOrMistypedDataIsNotAnActionResult() {
    let good = ActionResultCodec.encode([.init(path: "p", digest: .init(hash: "h", sizeBytes: 7))])
    #expect(ActionResultCodec.decode(good.dropLast()) == nil)
    #expect(ActionResultCodec.decode(Data([0x10, 0x01])) == nil)  // output_files as a varint
    #expect(ActionResultCodec.decode(Data("{\"json\": true}".utf8)) == nil)
  }
}
