import ArgumentParser
import BuildInfo
import CommandLineSupport
import Foundation
import RippleCLI
import RippleKit
import RippleMCP

/// `ripple-mcp`: the MCP server `ripple mcp` hands its process to. An executable of its own so that `ripple`
/// stays lean: the MCP SDK links Foundation's networking (libcurl), which `ripple` itself never needs.
struct RippleMCPCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ripple-mcp",
    abstract: "Ripple's read-only queries over the Model Context Protocol on stdio (started by `ripple mcp`).")

  @Option(help: "The repository's working tree (default: the current directory).")
  var directory: String

  @Option(help: "ripple.yml to use instead of the repository's.")
  var config: String?

  func run() async throws {
    let directory = self.directory
    let config = self.config
    // `ripple mcp` opened this workspace before handing over: a failure here is one the agent sees on its first call.
    try await RippleMCPServer.serve(version: BuildInfo.version) {
      try Workspace.open(directory: directory, configPath: config, services: .liveWithResultStores)
    }
  }
}

await CommandMain.run(
  RippleMCPCommand.self, arguments: Array(CommandLine.arguments.dropFirst()), errorPrefix: "error: ",
  writeError: { FileHandle.standardError.write(Data($0.utf8)) })
