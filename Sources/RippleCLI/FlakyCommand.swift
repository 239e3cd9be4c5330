import ArgumentParser
import Foundation
import RippleKit
import TestRunner

enum FlakyFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

/// `ripple flaky`: tests that failed and then passed on a retry, by flake rate, from the outcome history
/// `ripple test` keeps beside its timing history.
struct FlakyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "flaky",
    abstract: "List the tests that were flaky (failed, then passed on --retry-failed), by flake rate.",
    discussion: """
      Reads the outcome history `ripple test` keeps beside its timing history (<repo>/.build/ripple/outcomes.json) \
      and, when test.resultCache names a store, the team's shared history there. \
      The rate is flaky runs / runs of each test in the window; first and last seen are UTC.
      """
  )

  @OptionGroup var repository: RepositoryOptions

  /// Unconditional: `--since -3d` reaches `FlakyWindow.parse` (which says it is negative) instead of
  /// ArgumentParser's "Missing value", which reads `-3d` as a flag.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How far back to look: Nh, Nd or Nw, whole UTC days, at most \(FlakyWindow.maximumDays)d.", valueName: "AGE"))
  var since = "30d"

  @Option(help: "text or json.")
  var format: FlakyFormat = .text

  @Option(
    help: ArgumentHelp(
      "Timing history the outcomes sit beside (default <repo>/.build/ripple/timings.json).", valueName: "PATH"))
  var timings: String?

  func validate() throws {
    _ = try window()
  }

  /// `--since` parsed; a bad value is a usage error (exit 2) naming the flag.
  private func window() throws -> FlakyWindow {
    do {
      return try FlakyWindow.parse(since)
    } catch {
      throw ValidationError(error.description)
    }
  }

  func run() async throws {
    let workspace = try repository.openWorkspace(services: .liveWithResultStores)
    let timingsPath = timings.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
    let (tests, warnings) = await workspace.flakyTests(within: try window(), timingsPath: timingsPath)
    for warning in warnings {
      Terminal.standardError.write("warning: \(warning)\n")
    }
    print(
      format == .json ? FlakyReport.json(tests, since: since) : FlakyReport.text(tests, since: since), terminator: "")
  }
}
