import ArgumentParser
import Foundation
import Git
import RippleConfig
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rippled`: the service (default), `rippled check-config`, and the internal `rippled fetch-mirror`.
public struct RippledCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "rippled",
    abstract: "Ripple's service: follows branches or a working tree, runs the affected tests, records and shows runs.",
    version: Rippled.version,
    subcommands: [Serve.self, CheckConfig.self, FetchMirror.self],
    defaultSubcommand: Serve.self)

  public init() {}

  /// Parses, runs, and maps errors to DESIGN.md's exit codes in one place.
  public static func start() async -> Never {
    StandardError.ignoreBrokenPipes()
    do {
      var command = try parseAsRoot()
      if var async = command as? any AsyncParsableCommand {
        try await async.run()
      } else {
        try command.run()
      }
      Foundation.exit(0)
    } catch let error as any RippleError {
      StandardError.write("<3>rippled: error: \(error.description)\n")
      Foundation.exit(error.category.exitCode)
    } catch {
      let code = exitCode(for: error).rawValue
      let message = fullMessage(for: error)
      if code == 0 {
        print(message)
        Foundation.exit(0)
      }
      StandardError.write(message + "\n")
      // ArgumentParser reports usage errors as 64 (EX_USAGE); Ripple's contract is 2.
      Foundation.exit(
        code == ExitCode.validationFailure.rawValue ? ErrorCategory.usage.exitCode : ErrorCategory.internal.exitCode)
    }
  }
}

struct ConfigOption: ParsableArguments {
  @Option(name: .shortAndLong, help: ArgumentHelp("The daemon's config file.", valueName: "PATH"))
  var config = "/etc/ripple/rippled.yml"
}

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

struct CheckConfig: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check-config", abstract: "Validate the config file and print what the service would do.")
  @OptionGroup var options: ConfigOption

  func run() async throws {
    let configuration = try DaemonConfigLoader.load(path: options.config)
    // The same checks `serve` makes before it starts.
    _ = try Rippled.secrets(configuration.http)
    let paths = DaemonPaths.resolve(configuration, environment: ProcessInfo.processInfo.environment)
    print("\(options.config): ok")
    print("http: \(configuration.http.host):\(configuration.http.port)")
    print("state: \(paths.state)\ncache: \(paths.cache)\nlogs: \(paths.logs)")
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

/// Internal: one fetch in a process of its own, so the service can kill it at its deadline.
struct FetchMirror: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch-mirror", abstract: "Internal: fetch every branch of a remote into a bare mirror.",
    shouldDisplay: false)
  @Option var mirror: String
  @Option var url: String
  @Option var timeoutMs: Int64 = 120_000

  func run() async throws {
    let repository = try GitRepository.openOrCreateBare(at: mirror)
    let summary = try repository.fetchBranches(from: url, timeout: .milliseconds(timeoutMs))
    let report = FetchReport(
      heads: summary.heads.mapValues(\.hex), updated: summary.updated.mapValues(\.hex), deleted: summary.deleted)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    FileHandle.standardOutput.write(try encoder.encode(report))
  }
}
