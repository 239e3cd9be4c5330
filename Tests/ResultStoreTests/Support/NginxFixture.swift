import Foundation
import TestSupport
import Testing

/// A real nginx serving WebDAV PUTs on loopback: Bazel's HTTP cache protocol as the issue's "plain nginx with
/// WebDAV" serves it. Run in the foreground as this user (`master_process off`: no worker switching users),
/// every path in its own temporary folder.
struct NginxServer: Sendable {
  var directory: String
  var port: Int

  /// The Bazel cache's base URL; its files are under `cacheRoot`.
  var baseURL: String { "http://127.0.0.1:\(port)/cache" }
  var cacheRoot: String { directory + "/root/cache" }

  /// The server of the running suite (`@Suite(.nginx)`): one per suite.
  @TaskLocal static var current: NginxServer?

  static func suiteServer() throws -> NginxServer {
    try #require(current, "the suite needs the .nginx trait")
  }

  static func with(_ body: (NginxServer) async throws -> Void) async throws {
    let executable = try nginxExecutable()
    try await withTemporaryDirectory { directory in
      try FileManager.default.createDirectory(atPath: directory + "/root/cache", withIntermediateDirectories: true)
      // nginx takes no port 0: pick a free one, and pick again if another process took it first.
      for _ in 0..<5 {
        let port = try freeLoopbackPort()
        let server = NginxServer(directory: directory, port: port)
        let process = try server.start(executable)
        defer { process.stop() }
        if try await process.waitUntilListening(port: port) {
          try await body(server)
          return
        }
        guard process.log().contains("Address already in use") else {
          throw TestSetupError(description: "nginx did not start: \(process.log())")
        }
      }
      throw TestSetupError(description: "nginx found no free port in 5 attempts")
    }
  }

  private func start(_ executable: String) throws -> NginxProcess {
    let configuration = """
      master_process off;
      worker_processes 1;
      events { worker_connections 64; }
      http {
        access_log off;
        client_body_temp_path \(directory)/body;
        proxy_temp_path \(directory)/proxy;
        fastcgi_temp_path \(directory)/fastcgi;
        uwsgi_temp_path \(directory)/uwsgi;
        scgi_temp_path \(directory)/scgi;
        client_max_body_size 64m;
        server {
          listen 127.0.0.1:\(port);
          root \(directory)/root;
          log_not_found off;
          location / {
            dav_methods PUT;
            create_full_put_path on;
            dav_access user:rw;
          }
        }
      }
      """
    try configuration.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
    let log = directory + "/error.log"
    try? FileManager.default.removeItem(atPath: log)
    return try NginxProcess(
      executable: executable,
      arguments: [
        "-p", directory, "-c", directory + "/nginx.conf", "-e", log,
        "-g", "daemon off; pid \(directory)/nginx.pid; error_log \(log);",
      ], logPath: log)
  }

  /// nginx on PATH, else in the sbin folders a non-root PATH often lacks.
  private static func nginxExecutable() throws -> String {
    if let found = try? requireTool("nginx", install: "") { return found }
    for candidate in ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    throw TestSetupError(
      description: "nginx is not installed; these tests need it: scripts/install-deps.sh --test "
        + "(apt-get install nginx-light, or brew install nginx)")
  }
}

/// The nginx process, stopped with SIGKILL: in `master_process off` mode nginx keeps the signal mask it was
/// started with, and Foundation's `Process` starts it with SIGTERM blocked (a SIGTERM waited 10 s for nothing).
/// It holds nothing worth a clean shutdown: its files are the test's temporary folder.
private final class NginxProcess: @unchecked Sendable {
  private let process = Process()
  private let logPath: String

  init(executable: String, arguments: [String], logPath: String) throws {
    self.logPath = logPath
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    let output = logPath + ".out"
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    try? handle.close()
  }

  /// True once something accepts connections on `port`; false when nginx exited first.
  func waitUntilListening(port: Int) async throws -> Bool {
    let ready = await poll(every: .milliseconds(20), timeout: .seconds(20)) {
      !process.isRunning || acceptsConnections(port: port)
    }
    guard ready else { throw TestSetupError(description: "nginx did not listen within 20 s: \(log())") }
    return process.isRunning
  }

  func log() -> String {
    [logPath, logPath + ".out"].map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }.joined()
  }

  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

struct NginxTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await NginxServer.with { server in try await NginxServer.$current.withValue(server) { try await function() } }
  }
}

extension Trait where Self == NginxTrait {
  static var nginx: Self { Self() }
}
