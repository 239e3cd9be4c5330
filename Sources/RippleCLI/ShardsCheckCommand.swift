import ArgumentParser
import Foundation
import RippleCore
import TestRunner

/// `ripple shards check REPORT…`: reads the `--report-json` of every shard of one job and fails when a planned
/// test ran in no shard or in two, or when the shards ran different plans (`ShardCoverage`).
struct ShardsCheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check the --report-json files of one job's shards: every planned test ran in exactly one shard.",
    discussion: """
      Give it every shard's report (`ripple test --shard I/N --report-json FILE`). Exit status: 0 every planned \
      test ran exactly once, 1 a shard's report is missing or repeated, a test ran in no shard or in two, or the \
      shards ran different plans, 2 a report cannot be read.
      """
  )

  @Argument(help: ArgumentHelp("The shards' --report-json files.", valueName: "REPORT"))
  var reports: [String] = []

  func validate() throws {
    if reports.isEmpty { throw ValidationError("name the --report-json file of every shard of the job.") }
  }

  func run() throws {
    var read: [ShardCoverage.Report] = []
    for path in reports {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw ShardsCheckError.unreadable(path: path, reason: "it does not exist or cannot be read")
      }
      do {
        read.append(.init(name: path, result: try JSONDecoder().decode(TestRunResult.self, from: data)))
      } catch {
        throw ShardsCheckError.unreadable(path: path, reason: "it is not a ripple test --report-json file")
      }
    }
    let outcome = ShardCoverage.check(read)
    print(outcome.rendered, terminator: "")
    if !outcome.problems.isEmpty { throw ShardsCheckError.failed(count: outcome.problems.count) }
  }
}

enum ShardsCheckError: RippleError {
  case unreadable(path: String, reason: String)
  case failed(count: Int)

  var category: ErrorCategory {
    switch self {
    case .unreadable: .usage
    case .failed: .checkFailed
    }
  }

  var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)."
    case .failed(let count):
      "the shards did not run every planned test exactly once (\(count) problem\(count == 1 ? "" : "s"), above)."
    }
  }
}
