import ArgumentParser
import Assets
import BuildInfo
import CommandLineSupport
import Daemon
import DaemonSupport
import Foundation
import Git

/// `rippled`: the service (default), `rippled check-config`, and the internal `rippled fetch-mirror`.
public struct RippledCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "rippled",
    abstract: "Ripple's service: follows branches or a working tree, runs the affected tests, records and shows runs.",
    version: Rippled.version,
    subcommands: [Serve.self, CheckConfig.self, FetchMirror.self],
    defaultSubcommand: Serve.self)

  public init() {}

  /// Runs the command line and exits with the code `CommandMain` maps its outcome to. Errors carry
  /// journald's priority prefix (`<3>`), as every line the service writes to stderr, when journald reads it.
  public static func start() async -> Never {
    StandardError.ignoreBrokenPipes()
    let arguments = Array(CommandLine.arguments.dropFirst())
    if BuildInfo.asksForVerboseVersion(arguments) {
      print(
        BuildInfo.verboseDescription(
          program: "rippled", libraries: [("libgit2", GitLibrary.version), ("libarchive", ArchiveLibrary.version)]))
      Foundation.exit(0)
    }
    await CommandMain.run(
      RippledCommand.self, arguments: arguments,
      errorPrefix: (JournalStream.readsStandardError() ? "<3>" : "") + "rippled: error: ",
      writeError: { StandardError.write($0) })
  }
}
