import Crypto
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Start-up and request handling of a daemon with nothing to run (an empty remote): quick, no builds, so a lane of
/// its own (in lane 3 it waited for the interfaces' runs and ended the whole suite).
@Suite("rippled start-up, the store, stderr and request bodies", .serialized, .exclusive(.daemonCache(5)))
struct StartupTests {
  @Test func aBusyPortExitsThreeNamingTheAddressAndNeverSaysReady() async throws {
    let h = try DaemonHarness()
    let listener = try LoopbackListener()
    try h.startIdle(address: "127.0.0.1:\(listener.port)")
    let status = try await h.waitForExit(timeout: .seconds(60))
    #expect(status == 3, "\(h.output)")
    #expect(h.output.contains("127.0.0.1:\(listener.port)"), "\(h.output)")
    #expect(h.output.contains("http.address"), "\(h.output)")
    #expect(h.output.contains(h.root + "/rippled.yml"), "\(h.output)")
    #expect(!h.notify.contains("READY=1"), "READY=1 for a daemon that cannot listen")
    #expect(!h.output.contains("<6>ready"), "\(h.output)")
  }

  @Test func readyComesAfterThePortAcceptsConnections() async throws {
    let h = try DaemonHarness()
    let connectedAtReady = Locked<Bool?>(nil)
    let portFile = h.state + "/http-port"
    h.notify.onMessage = { message in
      guard message.split(separator: "\n").contains("READY=1") else { return }
      let text = (try? String(contentsOfFile: portFile, encoding: .utf8)) ?? ""
      let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
      connectedAtReady.withLock { $0 = port.map(LoopbackListener.accepts) ?? false }
    }
    try h.startIdle()
    try await h.waitForReady()
    #expect(connectedAtReady.withLock { $0 } == true, "READY=1 before the HTTP port accepted connections")
    // The line is logged just after READY=1 is sent, so it may land a moment after the test saw READY=1.
    try await h.eventually("the ready line on stderr", timeout: .seconds(10)) { h.output.contains("<6>ready") }
  }

  /// Syslog priorities only when journald reads stderr (issue 52): the harness sets `JOURNAL_STREAM` to its stderr
  /// file's device and inode as systemd would (the tests above see `<6>ready`); a foreground run (no variable) and
  /// a process that inherited the variable with another stderr write plain lines.
  @Test func aForegroundRunLogsPlainLinesWithoutSyslogPrefixes() async throws {
    for environment in [[:], ["JOURNAL_STREAM": "1:2"]] as [[String: String]] {
      let h = try DaemonHarness()
      try h.startIdle(environment: environment, journald: false)
      try await h.waitForReady()
      try await h.eventually("the ready line on stderr", timeout: .seconds(10)) {
        h.output.split(separator: "\n").contains { $0.hasPrefix("ready: ") }
      }
      let prefixed = h.output.split(separator: "\n").filter { $0.first == "<" }
      #expect(prefixed.isEmpty, "\(environment): \(prefixed)")
    }
    // An error of the command line: `rippled: error: …`, no `<3>`, when stderr is a pipe.
    let h = try DaemonHarness()
    let failed = try runCommand([DaemonHarness.binary, "--config", h.root + "/missing.yml"])
    #expect(failed.status != 0)
    #expect(failed.standardError.hasPrefix("rippled: error: "), "\(failed.standardError)")
  }

  /// libgit2 refuses a local remote owned by another user; the fetch child's error reaches the daemon's log as one
  /// line with one priority, naming the cause and the fix.
  @Test(.enabled(if: getuid() == 0, "chown needs root"))
  func aRemoteOwnedByAnotherUserIsOneLogLineNamingIt() async throws {
    let h = try DaemonHarness()
    try h.git(["init", "-q", "--bare", "-b", "main", h.remote])
    #expect(try runCommand(["chown", "-R", "65534:65534", h.remote]).status == 0)
    try h.startIdle()
    try await h.waitForReady()
    try await h.eventually("the fetch failure in the log", timeout: .seconds(30)) {
      h.output.contains("owned by another user")
    }
    let lines = h.output.split(separator: "\n").filter { $0.contains("owned by another user") }
    #expect(lines.count == 1, "\(lines)")
    let line = String(lines.first ?? "")
    #expect(line.hasPrefix("<4>fetch of app failed"), "\(line)")
    #expect(line.contains("owned by another user (git's safe.directory)"), "\(line)")
    #expect(!line.dropFirst().contains("<3>") && !line.contains("rippled: error:"), "\(line)")
    #expect(!line.contains("was not found"), "\(line)")
  }

  @Test func aClosedStderrPipeNeitherKillsNorStopsTheDaemon() async throws {
    let h = try DaemonHarness()
    try h.startIdle(stderrToClosedPipe: true)
    try await h.waitForReady()
    // Each request below makes the daemon log (debug level is on) before it answers: every write fails with EPIPE.
    for _ in 0..<3 {
      try await h.triggerFetch()
    }
    #expect(try await h.get("/healthz").status == 200)
    #expect(try await h.get("/readyz").status == 200)
    #expect(h.process?.isRunning == true)
  }

  @Test func aCorruptedStoreRefusesToStartNamingTheFileAndWhatToDo() async throws {
    let h = try DaemonHarness()
    try h.startIdle()
    try await h.waitForReady()
    // A row to damage: a webhook delivery whose id is easy to find in the file.
    let marker = "corrupt-me-\(UUID().uuidString)"
    let body = Data(#"{"ref":"refs/heads/main"}"#.utf8)
    let mac = HMAC<SHA256>.authenticationCode(
      for: body, using: SymmetricKey(data: Data(DaemonHarness.webhookSecret.utf8)))
    let signature = "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    let delivered = try await h.request(
      "POST", "/hooks/github", body: body, headers: ["X-Hub-Signature-256": signature, "X-GitHub-Delivery": marker])
    #expect(delivered.status == 202)
    h.signal(SIGTERM)
    #expect(try await h.waitForExit(timeout: .seconds(60)) == 0)

    // The data pages holding that row overwritten while stopped, as a failing disk would.
    let database = h.state + "/rippled.sqlite"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: database))
    let pageSize = 4096
    var damaged = 0
    for start in stride(from: pageSize, to: bytes.count, by: pageSize) {
      let page = bytes[start..<min(start + pageSize, bytes.count)]
      guard page.range(of: Data(marker.utf8)) != nil else { continue }
      bytes.replaceSubrange(page.startIndex..<page.endIndex, with: Data(repeating: 0xA5, count: page.count))
      damaged += 1
    }
    #expect(damaged > 0, "the delivery is in the database file (checkpointed at stop)")
    try bytes.write(to: URL(fileURLWithPath: database))

    try h.startIdle()
    let status = try await h.waitForExit(timeout: .seconds(60))
    #expect(status == 3, "\(h.output.suffix(3000))")
    let message = h.output.components(separatedBy: "rippled: error:").last ?? ""
    #expect(message.contains(database), "\(h.output.suffix(3000))")
    #expect(message.contains("move the file"), "\(h.output.suffix(3000))")
    #expect(h.readyCount == 1, "only the first start was ready")
  }

  @Test func aDeletedOrEmptyStoreStartsFreshAndSaysSo() async throws {
    let h = try DaemonHarness()
    try h.startIdle()
    try await h.waitForReady()
    h.signal(SIGTERM)
    #expect(try await h.waitForExit(timeout: .seconds(60)) == 0)
    let database = h.state + "/rippled.sqlite"

    try FileManager.default.removeItem(atPath: database)
    try h.startIdle()
    try await h.waitForReady()
    try await h.eventually("READY=1 of the second start", timeout: .seconds(60)) { h.readyCount == 2 }
    #expect(h.output.contains("no runs database at \(database): starting an empty one"), "\(h.output)")
    let fresh = try await h.get("/readyz")
    #expect(fresh.status == 200, "\(String(decoding: fresh.body, as: UTF8.self)) \(h.output)")
    h.signal(SIGTERM)
    #expect(try await h.waitForExit(timeout: .seconds(60)) == 0)

    try Data().write(to: URL(fileURLWithPath: database))
    try h.startIdle()
    try await h.waitForReady()
    try await h.eventually("READY=1 of the third start", timeout: .seconds(60)) { h.readyCount == 3 }
    #expect(h.output.contains("the runs database \(database) is empty (0 bytes)"), "\(h.output)")
    #expect(try await h.runs().isEmpty)
    let ready = try await h.get("/readyz")
    #expect(ready.status == 200, "\(String(decoding: ready.body, as: UTF8.self))")
  }

  /// No body is ever a 500: each bad one is a 400 whose JSON error names the field or says what the body is.
  @Test func badRunRequestBodiesAre400WithAJSONErrorNamingTheField() async throws {
    let h = try DaemonHarness()
    try h.startIdle()
    try await h.waitForReady()
    let fullWidth = String(repeating: "\u{FF11}", count: 40)
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let cases: [(body: String, says: String)] = [
      ("", "the body is empty"),
      ("{", "not a JSON object"),
      ("[]", "not a JSON object"),
      ("null", "not a JSON object"),
      ("42", "not a JSON object"),
      ("\"app\"", "not a JSON object"),
      ("{}", "'repository' is required"),
      (#"{"repository": 5}"#, "'repository' must be a string"),
      (#"{"repository": null}"#, "'repository' must be a string"),
      (#"{"repository": ["app"]}"#, "'repository' must be a string"),
      (#"{"repository": "app", "branch": 1}"#, "'branch' must be a string"),
      (#"{"repository": "app", "branch": "main", "commit": {}}"#, "'commit' must be a string"),
      (deep, "not a JSON object"),
      (#"{"repository": "app", "branch": "main", "commit": "\#(fullWidth)"}"#, "'commit' must be"),
      (#"{"repository": "app", "branch": "main", "commit": "\#(String(repeating: "g", count: 40))"}"#, "'commit'"),
    ]
    for (body, says) in cases {
      let answer = try await h.request(
        "POST", "/api/runs", body: Data(body.utf8),
        headers: ["Authorization": "Bearer \(DaemonHarness.token)", "Content-Type": "application/json"])
      let text = String(decoding: answer.body, as: UTF8.self)
      #expect(answer.status == 400, "\(body.prefix(80)) → \(answer.status) \(text)")
      let json = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
      let message = (json?["error"] as? [String: Any])?["message"] as? String ?? ""
      #expect(message.contains(says), "\(body.prefix(80)) → \(text)")
    }
    #expect(try await h.get("/readyz").status == 200, "still healthy")
    #expect(try await h.runs().isEmpty)
  }

  @Test func checkConfigAndServeRefuseAMissingOrEmptySecretBeforeCreatingAnything() async throws {
    let h = try DaemonHarness()
    try h.git(["init", "-q", "--bare", "-b", "main", h.remote])
    for (file, key) in [("token", "http.tokenFile"), ("webhook-secret", "http.webhookSecretFile")] {
      for content in [nil, "", "\n"] as [String?] {
        try h.writeConfig()
        let path = h.root + "/" + file
        if let content {
          try content.write(toFile: path, atomically: true, encoding: .utf8)
        } else {
          try FileManager.default.removeItem(atPath: path)
        }
        let check = try runCommand([DaemonHarness.binary, "check-config", "--config", h.root + "/rippled.yml"])
        #expect(check.status == 2, "check-config, \(file) \(String(describing: content)): \(check.standardOutput)")
        #expect(check.standardError.contains(key) && check.standardError.contains(path), "\(check.standardError)")

        let serve = try runCommand([DaemonHarness.binary, "--config", h.root + "/rippled.yml"])
        #expect(serve.status == 2, "serve, \(file) \(String(describing: content))")
        #expect(serve.standardError.contains(key), "\(serve.standardError)")
        #expect(!FileManager.default.fileExists(atPath: h.state), "serve created the state folder first")
      }
    }
    try h.writeConfig()
    let good = try runCommand([DaemonHarness.binary, "check-config", "--config", h.root + "/rippled.yml"])
    #expect(good.status == 0, "\(good.standardError)")
  }
}

extension DaemonHarness {
  /// READY=1 messages so far (the notify socket outlives restarts).
  var readyCount: Int { notify.messages.filter { $0.split(separator: "\n").contains("READY=1") }.count }
}

/// A listening TCP socket on a free loopback port, held until deinit.
final class LoopbackListener {
  let descriptor: Int32
  let port: Int

  init() throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.descriptor = descriptor
    guard descriptor >= 0 else { throw HarnessError("socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, 16) == 0 else { throw HarnessError("bind/listen: \(errno)") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit { close(descriptor) }

  /// Whether something accepts a TCP connection on 127.0.0.1:`port` right now.
  static func accepts(_ port: Int) -> Bool {
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard client >= 0 else { return false }
    defer { close(client) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}

/// A value behind a lock, for test closures that run on other threads.
final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
