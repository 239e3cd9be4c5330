import ArgumentParser
import CommandLineSupport
import Daemon

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
  /// journald's priority prefix (`<3>`), as every line the service writes to stderr.
  public static func start() async -> Never {
    StandardError.ignoreBrokenPipes()
    await CommandMain.run(
      RippledCommand.self, arguments: Array(CommandLine.arguments.dropFirst()), errorPrefix: "<3>rippled: error: ",
      writeError: { StandardError.write($0) })
  }
}
