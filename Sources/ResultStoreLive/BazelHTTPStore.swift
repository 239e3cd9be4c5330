import Crypto
import Foundation
import NIOHTTP1
import PassRecords
import ResultStore
import RippleConfig

/// Bazel's HTTP remote cache protocol (`{base}/ac/<sha256>`, `{base}/cas/<sha256>`), as bazel-remote and nginx
/// with WebDAV serve it.
///
/// A save PUTs the record to `/cas/<sha256 of its bytes>`, then the key's `/ac/<key>` entry: an ActionResult
/// whose one output file, `ripple-pass-record.json`, has the record's digest (`ActionResultCodec`). A load GETs
/// the entry, then the blob it names, and returns it only if its SHA-256 and size are the digest's: a store
/// that changed the blob answers `invalidResponse`. A missing entry or blob (404) is a miss.
enum BazelHTTPStore {
  static let outputPath = "ripple-pass-record.json"
  /// An ActionResult with one output file is ~130 bytes; bazel-remote's own may carry more.
  static let entryLimit = 256 << 10

  static func make(url text: String, credentials: CredentialReference, timeout: Double, environment: [String: String])
    throws(ResultStoreSetupError) -> ResultStoreClient
  {
    guard let url = StoreURL(text) else {
      throw ResultStoreSetupError(
        store: StoreURL.shown(text), message: "the Bazel cache URL is not an http(s) URL with a host")
    }
    let resolved = try StoreCredentials.authorization(
      credentials, host: url.host, store: url.display, environment: environment)
    let authorization = resolved.header ?? url.basicAuthorization
    let http = StoreHTTP(store: url.display, timeout: timeout, secrets: resolved.secrets + url.secrets)
    let headers = authorization.map { [("Authorization", $0)] } ?? []
    return ResultStoreClient(
      name: url.display,
      load: { key in try await http.withinTimeout { try await load(key, url, http, headers) } },
      save: { key, data in
        try await http.withinTimeout { try await save(key, data, url, http, headers) }
      })
  }

  static func load(_ key: RecordKey, _ url: StoreURL, _ http: StoreHTTP, _ headers: [(String, String)])
    async throws(ResultStoreError) -> Data?
  {
    let entry = try await http.send(.GET, url.url("/ac/\(key.hex)"), headers: headers, limit: entryLimit)
    if entry.status == 404 { return nil }
    guard entry.isSuccess else { throw http.refused(entry, "reading the action cache entry of \(key)") }
    guard let files = ActionResultCodec.decode(entry.body) else {
      throw http.invalid("the action cache entry of \(key) is not an ActionResult")
    }
    guard let file = files.first(where: { $0.path == outputPath }) else {
      throw http.invalid("the action cache entry of \(key) names no \(outputPath)")
    }
    // The hash becomes part of a URL: only a well-formed digest (64 lowercase hex digits) is followed.
    guard let hash = RecordKey(hex: file.digest.hash), file.digest.sizeBytes >= 0 else {
      throw http.invalid("the action cache entry of \(key) has a malformed digest")
    }
    guard file.digest.sizeBytes <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: http.store,
        detail: "the action cache entry of \(key) names a blob of \(file.digest.sizeBytes) bytes, more than a record "
          + "may hold (\(ResultStoreLimits.maximumRecordBytes))")
    }
    let blob = try await http.send(.GET, url.url("/cas/\(hash.hex)"), headers: headers)
    if blob.status == 404 { return nil }
    guard blob.isSuccess else { throw http.refused(blob, "reading the blob of \(key)") }
    guard Int64(blob.body.count) == file.digest.sizeBytes, sha256(blob.body) == hash.hex else {
      throw http.invalid(
        "the blob \(hash.hex) of \(key) does not match its digest (\(blob.body.count) bytes, expected "
          + "\(file.digest.sizeBytes)): not trusted")
    }
    return blob.body
  }

  static func save(_ key: RecordKey, _ data: Data, _ url: StoreURL, _ http: StoreHTTP, _ headers: [(String, String)])
    async throws(ResultStoreError)
  {
    guard data.count <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: http.store,
        detail:
          "a record of \(data.count) bytes is more than a record may hold (\(ResultStoreLimits.maximumRecordBytes))")
    }
    let hash = sha256(data)
    let blob = try await http.send(.PUT, url.url("/cas/\(hash)"), headers: headers, body: data)
    guard blob.isSuccess else { throw http.refused(blob, "writing the blob of \(key)") }
    let entry = ActionResultCodec.encode([
      .init(path: outputPath, digest: .init(hash: hash, sizeBytes: Int64(data.count)))
    ])
    let written = try await http.send(.PUT, url.url("/ac/\(key.hex)"), headers: headers, body: entry)
    guard written.isSuccess else { throw http.refused(written, "writing the action cache entry of \(key)") }
  }

  static func sha256(_ data: Data) -> String {
    SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
  }
}
