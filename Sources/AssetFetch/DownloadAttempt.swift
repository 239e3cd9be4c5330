import AsyncHTTPClient
import Foundation
import NIOCore

extension HTTPTransfer {
  /// One attempt: request (with `Range` when `offset` > 0), check the response, stream the body to
  /// `destination`. `offset` always equals the bytes of the object in `destination`, also when the
  /// attempt fails midway, so the next attempt can resume. Returns the final size.
  func downloadOnce(
    _ target: HTTPTarget, destination: String, offset: inout Int64, expectedSize: Int64?,
    progress: @Sendable (FetchProgress) -> Void
  ) async throws(AttemptFailure) -> Int64 {
    var headers: [String: String] = [:]
    if offset > 0 { headers["Range"] = "bytes=\(offset)-" }
    let response = try await send(target, extraHeaders: headers)
    let asset = target.assetID
    let contentLength = response.headers.first(name: "Content-Length").flatMap { Int64($0) }

    var total: Int64?
    switch response.status.code {
    case 200:
      offset = 0  // the server ignored the Range or we sent none: start over
      total = contentLength
    case 206:
      let range = ContentRange(response.headers.first(name: "Content-Range"))
      guard let range, range.start == offset else {
        try truncate(destination, to: 0, asset: asset)
        offset = 0
        throw AttemptFailure(
          error: FetchError(
            .server, assetID: asset,
            "asset '\(asset)': \(target.display) answered a range request with a range other than the one asked for"),
          disposition: .restart)
      }
      total = range.total ?? contentLength.map { $0 + offset }
    case 416:
      let range = ContentRange(response.headers.first(name: "Content-Range"))
      _ = try? await response.body.collect(upTo: 64 * 1024)
      if offset > 0, let size = range?.total, size == offset, expectedSize == nil || expectedSize == size {
        return offset  // the partial file was already complete
      }
      try truncate(destination, to: 0, asset: asset)
      offset = 0
      throw AttemptFailure(
        error: FetchError(
          .server, assetID: asset, "asset '\(asset)': \(target.display) could not resume the partial download"),
        disposition: .restart)
    default:
      throw await statusFailure(response, target: target)
    }

    let contentType = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
    if (contentType.hasPrefix("text/html") || contentType.hasPrefix("application/xhtml")) && !target.expectsHTML {
      _ = try? await response.body.collect(upTo: 4 * 1024)
      throw AttemptFailure(
        error: FetchError(
          .htmlPage, assetID: asset,
          "server returned an HTML page (a login or error page?) instead of \(asset) at \(target.display); "
            + "check the URL and the credentials (open it in a browser to see the page)"),
        disposition: .nextMirror)
    }
    if let expectedSize, let total, total != expectedSize {
      throw sizeMismatch(target, expected: expectedSize, announced: total)
    }
    let limit = total ?? expectedSize

    let file = try openDestination(destination, keeping: offset, asset: asset)
    defer { try? file.close() }
    progress(FetchProgress(assetID: asset, receivedBytes: offset, totalBytes: limit))
    do {
      for try await chunk in response.body {
        let size = Int64(chunk.readableBytes)
        if let limit, offset + size > limit {
          throw sizeMismatch(target, expected: limit, announced: nil)
        }
        do {
          try chunk.withUnsafeReadableBytes { try file.write(contentsOf: $0) }
        } catch {
          throw AttemptFailure(
            error: FetchError(
              .localFile, assetID: asset,
              "asset '\(asset)': could not write \(destination) (\(error)); check free disk space and permissions"),
            disposition: .fatal)
        }
        offset += size
        progress(FetchProgress(assetID: asset, receivedBytes: offset, totalBytes: limit))
      }
    } catch let failure as AttemptFailure {
      throw failure
    } catch {
      throw mapTransportError(error, target: target, duringBody: true)
    }

    if let total, offset < total {
      throw AttemptFailure(
        error: FetchError(
          .network, assetID: asset,
          "asset '\(asset)': the connection to \(target.display) ended after \(offset) of \(total) bytes; "
            + "try again (the partial download is resumed)"),
        disposition: .retry(after: nil))
    }
    if let expectedSize, offset != expectedSize {
      throw sizeMismatch(target, expected: expectedSize, announced: offset)
    }
    return offset
  }

  private func sizeMismatch(_ target: HTTPTarget, expected: Int64, announced: Int64?) -> AttemptFailure {
    let got = announced.map { "\($0) bytes" } ?? "more bytes"
    return AttemptFailure(
      error: FetchError(
        .sizeMismatch, assetID: target.assetID,
        "asset '\(target.assetID)': \(target.display) has \(got), expected \(expected) bytes; "
          + "the file on the server changed or the URL is wrong (update `size` and `sha256` in ripple.yml if intended)"),
      disposition: .nextMirror)
  }

  /// Opens `path` for writing after its first `offset` bytes (created, or truncated to `offset`).
  private func openDestination(_ path: String, keeping offset: Int64, asset: String) throws(AttemptFailure)
    -> FileHandle
  {
    do {
      if !FileManager.default.fileExists(atPath: path) {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
          throw CocoaError(.fileWriteNoPermission)
        }
      }
      guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
      try handle.truncate(atOffset: UInt64(offset))
      try handle.seekToEnd()
      return handle
    } catch {
      throw AttemptFailure(
        error: FetchError(
          .localFile, assetID: asset,
          "asset '\(asset)': cannot write the download to \(path) (\(error)); check that its folder exists and is writable"
        ),
        disposition: .fatal)
    }
  }

  private func truncate(_ path: String, to size: Int64, asset: String) throws(AttemptFailure) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    let handle = try openDestination(path, keeping: size, asset: asset)
    try? handle.close()
  }
}
