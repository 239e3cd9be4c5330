import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 23, item 1: a daemon with a small open-file limit, flooded with idle connections for the whole of a run,
/// keeps answering `/healthz`, finishes the run, and stays alive; a foreign Host is refused (item 8).
@Suite(.serialized, .exclusive(.daemonCache(3))) struct OpenFilesTests {
  /// Idle TCP connections to the daemon, kept open (and reopened when the daemon closes them).
  final class Flood: @unchecked Sendable {
    private let lock = NSLock()
    private var sockets: [Int32] = []
    private var closed = 0
    /// Connections the daemon closed so far.
    var closedByPeer: Int { lock.withLock { closed } }
    let port: Int

    init(port: Int) { self.port = port }

    deinit { closeAll() }

    /// Tops the flood up to `count` open connections, counting the ones the daemon has closed.
    func fill(to count: Int) {
      lock.lock()
      defer { lock.unlock() }
      sockets.removeAll { socket in
        var byte: UInt8 = 0
        let read = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
        guard read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK) else { return false }
        closed += 1
        close(socket)
        return true
      }
      while sockets.count < count, let socket = Self.connect(port: port) { sockets.append(socket) }
    }

    func closeAll() {
      lock.lock()
      defer { lock.unlock() }
      for socket in sockets { close(socket) }
      sockets.removeAll()
    }

    static func connect(port: Int) -> Int32? {
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard socket >= 0 else { return nil }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        close(socket)
        return nil
      }
      // A daemon that cannot answer fails the test instead of hanging it.
      var timeout = timeval(tv_sec: 10, tv_usec: 0)
      setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      return socket
    }
  }

  /// One raw request on a fresh connection; the status line's code.
  static func status(port: Int, host: String, path: String) throws -> Int {
    try status(port: port, raw: "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
  }

  /// A raw request (head and body as given) on a fresh connection; the status line's code.
  static func status(port: Int, raw: String) throws -> Int {
    guard let socket = Flood.connect(port: port) else { throw HarnessError("cannot connect to \(port)") }
    defer { close(socket) }
    _ = raw.withCString { send(socket, $0, strlen($0), 0) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = recv(socket, &buffer, buffer.count, 0)
    let line = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    guard line.hasPrefix("HTTP/1.1 "), let code = Int(line.dropFirst(9).prefix(3)) else {
      throw HarnessError("no status line: \(line)")
    }
    return code
  }

  static func openDescriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
  }

  @Test func aFloodOfIdleConnectionsUnderALowOpenFileLimitStarvesNothing() async throws {
    let h = try DaemonHarness()
    try h.makeRemote()
    let limit = 256
    try h.start(http: "  maxConnections: 48\n  maxLogFollowers: 4", openFileLimit: limit)
    try await h.waitForReady()
    let pid = try #require(h.process?.processIdentifier)
    let port = try #require(h.port)

    // Far more connections than the cap, and more than the limit itself, for the whole run.
    let flood = Flood(port: port)
    defer { flood.closeAll() }
    let keepFlooding = Task.detached {
      while !Task.isCancelled {
        flood.fill(to: 400)
        try? await Task.sleep(for: .milliseconds(50))
      }
    }
    defer { keepFlooding.cancel() }
    var peak = 0
    var healthy = 0
    let head = try h.head()
    var run: [String: Any]?
    try await h.eventually("the run of \(head.prefix(10)) to finish under the flood", timeout: .seconds(600)) {
      peak = max(peak, Self.openDescriptors(pid))
      #expect(h.process?.isRunning == true, "rippled died:\n\(h.output.suffix(3000))")
      // A probe's fresh connection is idle until its request is read: a burst of newer ones may close it first
      // (the /api/runs poll's too: a reset there is one more poll, the run must still finish in time).
      if (try? Self.status(port: port, host: "127.0.0.1", path: "/healthz")) == 200 { healthy += 1 }
      guard let runs = try? await h.runs() else { return false }
      run = runs.first { $0["head"] as? String == head && !["queued", "running"].contains($0["state"] as? String) }
      return run != nil
    }
    // The daemon closes idle connections beyond its cap: wait for the flood to see one closed (a short run on a
    // loaded machine can finish before the first refill noticed), still flooding.
    try? await h.eventually("an idle connection beyond the cap closed by rippled", timeout: .seconds(60)) {
      flood.closedByPeer > 0
    }
    keepFlooding.cancel()
    #expect(run?["state"] as? String == "passed", "\(run ?? [:])\n\(h.output.suffix(3000))")
    // The build's own lines are in the run log, written as they came (item 4).
    let id = try #require(run?["id"] as? Int)
    let log = String(decoding: try await h.get("/api/runs/\(id)/log").body, as: UTF8.self)
    #expect(log.contains("Compiling") || log.contains("Build complete"), "\(log.suffix(2000))")
    #expect(healthy > 0)
    #expect(flood.closedByPeer > 0, "idle connections beyond the cap were closed")
    #expect(peak < limit - 32, "open descriptors peaked at \(peak) of \(limit)")
    #expect(try Self.status(port: port, host: "127.0.0.1:\(port)", path: "/healthz") == 200)
    #expect(try Self.status(port: port, host: "rebind.evil.example:\(port)", path: "/healthz") == 421)
    // A malformed chunked body is the client's mistake: 400, not 500 (item 10).
    let garbled =
      "POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(DaemonHarness.token)\r\n"
      + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
    #expect(try Self.status(port: port, raw: garbled) == 400)
    #expect(h.process?.isRunning == true)
  }
}
