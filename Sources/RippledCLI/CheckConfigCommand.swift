import ArgumentParser
import ConfigLoading
import Daemon
import DaemonSupport
import Foundation
import RippleConfig

/// `rippled check-config`: validates rippled.yml (and the secret files it names) and prints the plan.
struct CheckConfig: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check-config", abstract: "Validate the config file and print what the service would do.")
  @OptionGroup var options: ConfigOption

  func run() async throws {
    let configuration = try DaemonConfigLoader.load(path: options.config)
    // The same checks `serve` makes before it starts.
    _ = try Rippled.secrets(configuration.http)
    let paths = DaemonPaths.resolve(configuration, environment: ProcessInfo.processInfo.environment)
    // Before "ok": `sandbox: required` without a working bwrap is an error of the config's, as for `serve`.
    let sandbox = try await Rippled.sandboxSummary(configuration)
    print("\(options.config): ok")
    print("http: \(configuration.http.host):\(configuration.http.port)")
    print("state: \(paths.state)\ncache: \(paths.cache)\nlogs: \(paths.logs)")
    print(sandbox)
    for repository in configuration.repositories {
      switch repository.source {
      case .remote(let url):
        let branches = repository.branches.map { $0.pattern + ($0.cancelRunning ? " (cancels running)" : "") }
        print("\(repository.name): fetch \(url) every \(repository.fetchInterval): \(branches.joined(separator: ", "))")
      case .workingTree(let path):
        print("\(repository.name): watch \(path) (\(repository.watch.rawValue), settle \(repository.settle))")
      }
    }
  }
}
