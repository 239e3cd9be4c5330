import Foundation
import TestSupport

/// A loopback HTTP server that answers like GitHub's commit status API (201 and the status back) and
/// records each request as a JSON line: method, path, Authorization and body. No real forge can run here;
/// this checks what a real rippled binary sends (docs/DESIGN.md, daemon section: commit statuses).
/// It runs as a `HelperProcess`: it never outlives the test, and stopping it is bounded.
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

  let port: Int
  private let server: HelperProcess
  private let log: String

  private static let script = #"""
    import http.server, json, os, sys, threading
    ready, log = sys.argv[1], sys.argv[2]
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
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with open(ready + ".tmp", "w") as f:
        json.dump({"port": server.server_address[1]}, f)
    os.rename(ready + ".tmp", ready)
    sys.stdin.read()  # until the test closes our stdin (or terminates us)
    """#

  private init(port: Int, server: HelperProcess, log: String) {
    self.port = port
    self.server = server
    self.log = log
  }

  static func start(directory: String) async throws -> ForgeStandIn {
    let script = directory + "/forge_stand_in.py"
    try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
    let log = directory + "/forge-requests.jsonl"
    let (server, ready) = try await HelperProcess.start(script: script, arguments: [log], directory: directory)
    struct Ready: Decodable { var port: Int }
    return ForgeStandIn(port: try JSONDecoder().decode(Ready.self, from: ready).port, server: server, log: log)
  }

  var requests: [Request] {
    let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
  }

  func stop() { server.stop() }
}
