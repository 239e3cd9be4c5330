import ArgumentParser
import Foundation
import RippleCore
import RippleKit
import SystemClients

/// `ripple mcp`: Ripple's read-only queries for a coding agent, over the Model Context Protocol on stdio. The
/// server is the `ripple-mcp` executable beside this one, which this command becomes (`execv`): `ripple`
/// itself does not link the MCP SDK, whose transports bring Foundation's networking (libcurl).
struct MCPCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract: "Answer a coding agent's questions over the Model Context Protocol (stdio): affected, explain, "
      + "test_plan, flaky, dependencies, dependents.",
    discussion: """
      Started by the agent (`"command": "ripple", "args": ["mcp"]`), it reads JSON-RPC messages on standard input \
      and answers on standard output until standard input closes. Every tool is read-only; each call opens the \
      repository afresh, so it sees the working tree as it is then. docs/MCP.md lists the tools. The server is \
      the `ripple-mcp` executable installed beside `ripple`.
      """
  )

  @OptionGroup var repository: RepositoryOptions

  func run() async throws {
    // A folder outside a repository, or a broken ripple.yml, fails here (exit 2 or 3), not at the first call.
    _ = try repository.openWorkspace()
    let server = try MCPServerExecutable.find()
    var arguments = ["ripple-mcp", "--directory", repository.resolvedDirectory]
    if let config = repository.config { arguments += ["--config", config] }
    try MCPServerExecutable.become(server, arguments: arguments)
  }
}

/// Where `ripple-mcp` is, and handing the process to it.
enum MCPServerExecutable {
  struct Missing: RippleError {
    var expected: String
    var category: ErrorCategory { .environment }
    var description: String {
      "ripple mcp runs the MCP server ripple-mcp, which is not beside this ripple (\(expected)). Build it with "
        + "`swift build -c release --product ripple-mcp` and put it next to ripple (the release archives do not "
        + "carry it yet: the MCP SDK links libcurl, which a static ripple does not)."
    }
  }

  /// `ripple-mcp` in the folder of the running `ripple`.
  static func find() throws -> String {
    let url = URL(fileURLWithPath: ExecutableLookup.currentExecutable()).resolvingSymlinksInPath()
    let server = url.deletingLastPathComponent().appendingPathComponent("ripple-mcp").path
    guard FileManager.default.isExecutableFile(atPath: server) else { throw Missing(expected: server) }
    return server
  }

  /// Replaces this process with `server` (standard input and output are the agent's).
  static func become(_ server: String, arguments: [String]) throws -> Never {
    let pointers = arguments.map { strdup($0) } + [nil]
    execv(server, pointers)
    throw Missing(expected: server + " (\(String(cString: strerror(errno))))")
  }
}
