import AssetFetch
import Foundation
import RippleConfig

/// Records what a test fetcher was asked.
final class FetchLog: @unchecked Sendable {
  private let lock = NSLock()
  private var _requests: [FetchRequest] = []
  private var _accessChecks: [String] = []

  var requests: [FetchRequest] { lock.withLock { _requests } }
  var accessChecks: [String] { lock.withLock { _accessChecks } }
  func record(_ request: FetchRequest) { lock.withLock { _requests.append(request) } }
  func recordAccess(_ id: String) { lock.withLock { _accessChecks.append(id) } }
}

/// A fetcher serving bytes from memory, keyed by asset id. It can deny access, cut the first
/// download after `cutAfter` bytes (then throw, like a dropped connection), and wait before writing.
func testFetcher(
  _ blobs: [String: Data], log: FetchLog, access: AccessStatus = .granted, cutAfter: Int? = nil,
  delay: Duration? = nil
) -> Fetcher {
  let cutOnce = CutOnce(cutAfter)
  return Fetcher(
    fetch: { request, progress in
      log.record(request)
      if let delay { try await Task.sleep(for: delay) }
      guard let data = blobs[request.assetID] else { throw URLError(.fileDoesNotExist) }
      var chunk = data.dropFirst(Int(request.resumeFrom))
      let cut = cutOnce.take()
      if let cut { chunk = chunk.prefix(cut) }
      if request.resumeFrom == 0 { FileManager.default.createFile(atPath: request.destination, contents: nil) }
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: request.destination))
      try handle.seekToEnd()
      try handle.write(contentsOf: chunk)
      try handle.close()
      let received = request.resumeFrom + Int64(chunk.count)
      progress(FetchProgress(assetID: request.assetID, receivedBytes: received, totalBytes: Int64(data.count)))
      if cut != nil { throw URLError(.networkConnectionLost) }
      return FetchResult(bytes: received, origin: "https://assets.test/\(request.assetID)")
    },
    checkAccess: { request in
      log.recordAccess(request.assetID)
      return access
    })
}

private final class CutOnce: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Int?
  init(_ value: Int?) { self.value = value }
  func take() -> Int? {
    lock.withLock {
      defer { value = nil }
      return value
    }
  }
}

/// A fetcher whose calls fail the test: for runs that must not touch the network.
func offlineFetcher(log: FetchLog) -> Fetcher {
  Fetcher(
    fetch: { request, _ in
      log.record(request)
      throw URLError(.notConnectedToInternet)
    },
    checkAccess: { request in
      log.recordAccess(request.assetID)
      return .missingCredentials("offline test fetcher")
    })
}
