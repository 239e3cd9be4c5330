import AssetFetch
import Foundation
import NIOHTTP1
import PassRecords
import ResultStore
import RippleConfig
import RippleCore

/// An S3 bucket (`s3://bucket/prefix`): a record is the object `<prefix>/<key>`, read and written with requests
/// signed by AssetFetch's SigV4 signer (a PUT signs its body's SHA-256). A missing object is a miss; a 403 (a
/// wrong key or secret, no permission) is `refused(403)` with S3's reason; a 500 or 503 is sent again twice
/// before it is `refused` (S3 asks for retries).
enum S3Store {
  static func make(
    location: S3Location, credentials: CredentialReference, timeout: Double, environment: [String: String]
  ) throws(ResultStoreSetupError) -> ResultStoreClient {
    let prefix = location.key.split(separator: "/").joined(separator: "/")
    // The bucket, as a URL's host: never the prefix, a path like any other store URL's (docs/DESIGN.md).
    let name = "s3://\(location.bucket)"
    guard S3ObjectAddress(location) != nil else {
      throw ResultStoreSetupError(
        store: name,
        message: "the S3 endpoint \(StoreURL.shown(location.endpoint)) is not a URL such as "
          + "https://s3.eu-west-1.amazonaws.com")
    }
    let aws = try StoreCredentials.aws(credentials, store: name, environment: environment)
    let http = StoreHTTP(
      store: name, timeout: timeout, secrets: [aws?.secretKey, aws?.sessionToken].compactMap { $0 })
    let store = S3Objects(
      location: location, prefix: prefix, signer: aws.map { SigV4Signer(credentials: $0, region: location.region) },
      http: http)
    return ResultStoreClient(
      name: name, load: { key in try await http.withinTimeout { try await store.load(key) } },
      save: { key, data in try await http.withinTimeout { try await store.save(key, data) } },
      saveChecked: { key, data, rule in
        try await http.withinTimeout { try await store.save(key, data, unlessLowering: rule) }
      })
  }
}

/// The requests of an S3 store.
struct S3Objects: Sendable {
  var location: S3Location
  var prefix: String
  /// Nil: a public bucket, requests unsigned.
  var signer: SigV4Signer?
  var http: StoreHTTP

  func load(_ key: RecordKey) async throws(ResultStoreError) -> Data? {
    try await loadTagged(key)?.data
  }

  /// The object and its ETag; nil when there is none.
  func loadTagged(_ key: RecordKey) async throws(ResultStoreError) -> (data: Data, etag: String?)? {
    let response = try await retryingServerErrors { () async throws(ResultStoreError) -> StoreResponse in
      let (url, headers) = request("GET", key, body: nil)
      return try await http.send(.GET, url, headers: headers)
    }
    if response.isSuccess { return (response.body, response.etag) }
    let error = S3ErrorBody(String(decoding: response.body, as: UTF8.self))
    if response.status == 404 && error?.code != "NoSuchBucket" { return nil }
    throw http.refused(response, "reading \(key)", hint: error?.hint)
  }

  func save(_ key: RecordKey, _ data: Data) async throws(ResultStoreError) {
    let response = try await put(key, data, condition: nil)
    guard response.isSuccess else {
      let error = S3ErrorBody(String(decoding: response.body, as: UTF8.self))
      throw http.refused(response, "writing \(key)", hint: error?.hint)
    }
  }

  /// Reads the object, decides, and writes only if it is still the object read: `If-Match: <its ETag>`, or
  /// `If-None-Match: *` when there was none (S3's conditional writes). A writer that won in between (412, or 409
  /// for a conditional write racing another) means: read and decide again, up to 5 times.
  func save(_ key: RecordKey, _ data: Data, unlessLowering rule: RecordReplacement) async throws(ResultStoreError)
    -> RecordReplacement.Decision
  {
    var attempt = 0
    while true {
      attempt += 1
      let existing = try await loadTagged(key)
      let decision = rule.decide(existing: existing?.data, replacement: data)
      guard decision == .replace else { return decision }
      let condition = existing.map { ("If-Match", $0.etag ?? "") } ?? ("If-None-Match", "*")
      let response = try await put(key, data, condition: condition)
      if response.isSuccess { return .replace }
      if (response.status == 412 || response.status == 409) && attempt < 5 { continue }
      // An S3-compatible store without conditional writes: decided on the read, written plainly (the race
      // between the two stays open there, as on a Bazel cache).
      if response.status == 501 {
        try await save(key, data)
        return .replace
      }
      let error = S3ErrorBody(String(decoding: response.body, as: UTF8.self))
      throw http.refused(response, "writing \(key)", hint: error?.hint)
    }
  }

  private func put(_ key: RecordKey, _ data: Data, condition: (String, String)?) async throws(ResultStoreError)
    -> StoreResponse
  {
    guard data.count <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: http.store,
        detail:
          "a record of \(data.count) bytes is more than a record may hold (\(ResultStoreLimits.maximumRecordBytes))")
    }
    return try await retryingServerErrors { () async throws(ResultStoreError) -> StoreResponse in
      let (url, headers) = request("PUT", key, body: data)
      return try await http.send(.PUT, url, headers: headers + (condition.map { [$0] } ?? []), body: data)
    }
  }

  /// S3's `500 InternalError` and `503 SlowDown` ask the client to retry (AWS's SDKs do, with backoff): up to
  /// `serverErrorAttempts` sends, 100 ms then 200 ms apart, each signed anew; the last answer stands. A retried
  /// PUT is safe: a plain one writes the same bytes again, and a conditional one that had landed is answered 412,
  /// which `save(_:_:unlessLowering:)` takes as "read and decide again". The store's timeout bounds them all.
  private func retryingServerErrors(_ send: () async throws(ResultStoreError) -> StoreResponse)
    async throws(ResultStoreError) -> StoreResponse
  {
    var attempt = 1
    while true {
      let response = try await send()
      guard response.status == 500 || response.status == 503, attempt < Self.serverErrorAttempts else {
        return response
      }
      try? await Task.sleep(for: .milliseconds(100 << (attempt - 1)))
      attempt += 1
    }
  }

  static let serverErrorAttempts = 3

  /// The object's URL and the headers to send: `Host`, and with credentials the SigV4 ones.
  private func request(_ method: String, _ key: RecordKey, body: Data?) -> (String, [(String, String)]) {
    var object = location
    object.key = prefix.isEmpty ? key.hex : "\(prefix)/\(key.hex)"
    // `make` checked the endpoint, and a key adds only hex digits.
    let address = S3ObjectAddress(object)!
    let host = StoreURL(address.url)?.hostHeader ?? ""
    var headers = [("Host", host)]
    if let signer {
      let payload = body.map(BazelHTTPStore.sha256) ?? SigV4Signer.emptyPayloadHash
      let signed = signer.sign(
        method: method, canonicalURI: address.canonicalURI, headers: ["host": host], date: Date(), payloadHash: payload)
      headers += signed.filter { $0.key != "host" }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
    return (address.url, headers)
  }
}
