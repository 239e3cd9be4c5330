import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RunModel

/// `GET /api/runs/{id}/log?follow=1&offset=N`: a run's log from byte `offset`, and with `follow` the lines
/// it gains while the run goes on, streamed (chunked) until the run ends. A client that lost the connection
/// resumes with the offset of the bytes it has.
enum RunLogStream {
  /// How often a followed log is looked at for new bytes.
  static let interval = Duration.milliseconds(250)

  static func response(
    path: String, offset: Int, follow: Bool, slots: Slots? = nil, isRunning: @escaping @Sendable () -> Bool
  ) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; charset=utf-8"
    headers[.cacheControl] = "no-store"
    headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
    let body = ResponseBody { writer in
      // The follower's place (taken by the route) is given back however the stream ends.
      defer { slots?.give() }
      var position = max(0, offset)
      while true {
        // Whether the run was still going is read before the file, so the bytes of its last moment are sent.
        let running = follow && isRunning()
        let chunk = read(path, from: position)
        if !chunk.isEmpty {
          position += chunk.count
          try await writer.write(ByteBuffer(bytes: chunk))
        }
        if !running || Task.isCancelled { break }
        try await Task.sleep(for: interval)
      }
      try await writer.finish(nil)
    }
    return Response(status: .ok, headers: headers, body: body)
  }

  /// The bytes of the file from `offset` on (at most 1 MiB at a time); none when it is shorter or missing.
  static func read(_ path: String, from offset: Int, limit: Int = 1 << 20) -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
    defer { try? handle.close() }
    guard (try? handle.seek(toOffset: UInt64(offset))) != nil else { return [] }
    return [UInt8]((try? handle.read(upToCount: limit)) ?? Data())
  }
}
