import Foundation

/// A loopback HTTP server that answers like GitHub's commit status API (201 and the status back) and
/// records each request as a JSON line: method, path, Authorization and body. No real forge can run here;
/// this checks what a real rippled binary sends (docs/DESIGN.md, daemon section: commit statuses).
final class ForgeStandIn {
  struct Request: Decodable {
    var method: String
    var path: String
    var authorization: String
    var body: String

    /// The JSON body's string fields (`state`, `description`, `target_url`, `context`).
    var fields: [String: String] {
      (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?.compactMapValues { $0 as? String }
        ?? [:]
    }
  }

  let process = Process()
  let port: Int
  private let log: String
  /// The stand-in exits when this closes (and on SIGTERM): it never outlives the test process.
  private let stdin = Pipe()

  private static let script = #"""
    import http.server, json, os, sys, threading
    log, ready = sys.argv[1], sys.argv[2]
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
            with open(log, "a") as f:
                f.write(json.dumps({"method": "POST", "path": self.path,
                                    "authorization": self.headers.get("Authorization", ""), "body": body}) + "\n")
            self.send_response(201)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    with open(ready + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(ready + ".tmp", ready)
    server.serve_forever()
    """#

  init(directory: String) throws {
    log = directory + "/forge-requests.jsonl"
    let ready = directory + "/forge-port"
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", Self.script, log, ready]
    process.standardInput = stdin
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: ready) {
      guard process.isRunning, Date() < deadline else { throw HarnessError("the forge stand-in did not start") }
      Thread.sleep(forTimeInterval: 0.05)
    }
    port = Int(try String(contentsOfFile: ready, encoding: .utf8)) ?? 0
  }

  var requests: [Request] {
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
  }

  /// Bounded: closes its stdin, then SIGTERM, then SIGKILL; never waits without a deadline.
  func stop() {
    try? stdin.fileHandleForWriting.close()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { process.terminate() }
    let killDeadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < killDeadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}
