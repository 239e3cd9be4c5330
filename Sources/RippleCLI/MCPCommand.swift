import ArgumentParser
import BuildInfo
import RippleKit
import RippleMCP

/// `ripple mcp`: Ripple's read-only queries for a coding agent, over the Model Context Protocol on stdio.
struct MCPCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mcp",
    abstract: "Answer a coding agent's questions over the Model Context Protocol (stdio): affected, explain, "
      + "test_plan, flaky, dependencies, dependents.",
    discussion: """
      Started by the agent (`"command": "ripple", "args": ["mcp"]`), it reads JSON-RPC messages on standard input \
      and answers on standard output until standard input closes. Every tool is read-only; each call opens the \
      repository afresh, so it sees the working tree as it is then. docs/MCP.md lists the tools.
      """
  )

  @OptionGroup var repository: RepositoryOptions

  func run() async throws {
    // A folder outside a repository, or a broken ripple.yml, fails here (exit 2 or 3), not at the first call.
    _ = try repository.openWorkspace()
    let directory = repository.resolvedDirectory
    let config = repository.config
    try await RippleMCPServer.serve(version: BuildInfo.version) {
      try Workspace.open(directory: directory, configPath: config, services: .liveWithResultStores)
    }
  }
}
