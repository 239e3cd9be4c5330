import ArgumentParser
import Assets
import BuildInfo
import CommandLineSupport
import Foundation
import Git
import RippleCore

/// The `ripple` command tree. Subcommands parse, call RippleKit, and print; nothing else.
public struct RippleCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "ripple",
    abstract: "Find what a change touches, test only that, and bootstrap private assets.",
    discussion: """
      Exit codes: 0 success, 1 tests or a check failed, 2 usage or config error, \
      3 environment error (missing tool, unreadable repository), 4 internal error.
      """,
    version: BuildInfo.version,
    subcommands: [
      AffectedCommand.self, TestCommand.self, BootstrapCommand.self, ChangesCommand.self, GraphCommand.self,
      DoctorCommand.self, CacheCommand.self, FlakyCommand.self, InitCommand.self, ResultsCommand.self,
      ShardsCommand.self, MCPCommand.self,
    ]
  )
  public init() {}

  /// Runs the command line and exits with the code `CommandMain` maps its outcome to.
  public static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
    if BuildInfo.asksForVerboseVersion(arguments) {
      print(
        BuildInfo.verboseDescription(
          program: "ripple", libraries: [("libgit2", GitLibrary.version), ("libarchive", ArchiveLibrary.version)]))
      Foundation.exit(0)
    }
    // libgit2's set-up overlaps the parsing (GitLibrary.prepareInBackground); help and --version skip it.
    var gitReady: @Sendable () -> Void = {}
    if !CommandMain.asksForHelpOrVersion(arguments) { gitReady = GitLibrary.prepareInBackground() }
    await CommandMain.run(
      RippleCommand.self, arguments: arguments, errorPrefix: "error: ", beforeExit: gitReady,
      writeError: { Terminal.standardError.write($0) })
  }
}
