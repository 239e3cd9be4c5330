import Foundation
import NIOHTTP1
import PassRecords
import ResultStore

/// rippled's record API: `GET/PUT {url}/api/v1/records/<key>` with `Authorization: Bearer <token>` (a read
/// token, or a write token for a trusted writer). A missing record (404) is a miss.
enum RippledStore {
  static func make(url text: String, tokenVariable: String?, timeout: Double, environment: [String: String])
    throws(ResultStoreSetupError) -> ResultStoreClient
  {
    guard let url = StoreURL(text) else {
      throw ResultStoreSetupError(
        store: StoreURL.shown(text), message: "the rippled URL is not an http(s) URL with a host")
    }
    var authorization = url.basicAuthorization
    var secrets = url.secrets
    if let tokenVariable {
      let token = try StoreCredentials.value(
        of: tokenVariable, store: url.display, environment: environment, what: "rippled's token")
      authorization = "Bearer \(token)"
      secrets.append(token)
    }
    let http = StoreHTTP(store: url.display, timeout: timeout, secrets: secrets)
    let headers = authorization.map { [("Authorization", $0)] } ?? []
    return ResultStoreClient(
      name: url.display,
      load: { key in
        try await http.withinTimeout {
          let response = try await http.send(.GET, url.url("/api/v1/records/\(key.hex)"), headers: headers)
          if response.status == 404 { return nil }
          guard response.isSuccess else { throw http.refused(response, "reading \(key)") }
          return response.body
        }
      },
      save: { key, data in
        try await http.withinTimeout {
          let response = try await put(key, data, url, http, headers)
          guard response.isSuccess else { throw http.refused(response, "writing \(key)") }
        }
      },
      // rippled decides itself, in its database, atomically against every other writer (409: the record there
      // stays); the client's rule is for stores that cannot.
      saveChecked: { key, data, _ in
        try await http.withinTimeout {
          let response = try await put(key, data, url, http, headers)
          if response.status == 409 {
            return .keep(reason: "rippled keeps the record there: a write may not lower its trust")
          }
          guard response.isSuccess else { throw http.refused(response, "writing \(key)") }
          return .replace
        }
      })
  }

  static func put(_ key: RecordKey, _ data: Data, _ url: StoreURL, _ http: StoreHTTP, _ headers: [(String, String)])
    async throws(ResultStoreError) -> StoreResponse
  {
    guard data.count <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: http.store,
        detail: "a record of \(data.count) bytes is more than a record may hold "
          + "(\(ResultStoreLimits.maximumRecordBytes))")
    }
    return try await http.send(
      .PUT, url.url("/api/v1/records/\(key.hex)"), headers: headers + [("Content-Type", "application/json")],
      body: data)
  }
}
