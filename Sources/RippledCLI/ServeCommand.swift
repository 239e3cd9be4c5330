import ArgumentParser
import ConfigLoading
import Daemon
import Foundation
import RippleConfig

/// `rippled` / `rippled serve`: the service.
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Run the service (the default).")
  @OptionGroup var options: ConfigOption

  func run() async throws {
    let configuration = try DaemonConfigLoader.load(path: options.config)
    try await Rippled(
      configuration: configuration, environment: ProcessInfo.processInfo.environment, configPath: options.config
    ).run()
  }
}
