import Affected
import ArgumentParser
import Foundation
import RippleKit
import TestRunner

enum AffectedFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, names, filter, github, matrix, dot, xcodebuild
}

struct AffectedCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "affected",
    abstract: "List the targets and test targets a change can reach, each with its reasons."
  )

  @OptionGroup var selection: SelectionOptions

  @Option(
    help: ArgumentHelp(
      "Output: text (people), json, names, filter (swift test --filter), github ($GITHUB_OUTPUT), matrix, dot, "
        + "xcodebuild (-only-testing: arguments for --scheme)."))
  var format: AffectedFormat = .text

  @OptionGroup var xcode: XcodebuildOptions

  @Option(help: "With --format matrix: the number of CI shards.")
  var shards: Int?

  @Option(help: ArgumentHelp("Show the chain from a changed file to TARGET.", valueName: "TARGET"))
  var explain: String?

  func validate() throws {
    if let shards, shards < 1 { throw ValidationError("--shards must be at least 1 (got \(shards)).") }
    if shards != nil && format != .matrix { throw ValidationError("--shards goes with --format matrix.") }
    if format == .matrix && shards == nil { throw ValidationError("--format matrix needs --shards N.") }
    try xcode.validate(format: format)
  }

  func run() async throws {
    let outcome = try await AffectedJob.run(selection.affectedOptions, services: .live)
    let report = outcome.report
    for warning in report.warnings where format != .text {
      Terminal.standardError.write("warning: \(warning)\n")
    }
    if let explain {
      let (package, name) = Self.splitTargetName(explain)
      guard let lines = outcome.result.explanation(for: name, package: package) else {
        throw RippleKitError.unknownTarget(explain)
      }
      print(lines.joined(separator: "\n"))
      return
    }
    switch format {
    case .text:
      print(AffectedFormatter.text(report, color: Terminal.standardOutput.usesColor), terminator: "")
    case .json:
      print(AffectedFormatter.json(report))
    case .names:
      let names = AffectedFormatter.names(report)
      if !names.isEmpty { print(names) }
    case .filter:
      if let filter = AffectedFormatter.filter(report) {
        print(filter)
      } else {
        Terminal.standardError.write("no test target is affected (an empty filter would run every test)\n")
      }
    case .github:
      let output = AffectedFormatter.githubOutput(report)
      if let path = ProcessInfo.processInfo.environment["GITHUB_OUTPUT"], !path.isEmpty {
        try GitHubOutput.append(output, to: path)
      } else {
        print(output, terminator: "")
      }
    case .matrix:
      // The same history `ripple test --shard` balances on, so each job runs exactly its entry.
      let history = TimingStore(path: TimingStore.defaultPath(repositoryRoot: outcome.repositoryRoot)).load().history
      print(AffectedFormatter.matrix(report, shards: shards ?? 1, durations: history.durationsByTarget))
    case .dot:
      print(AffectedFormatter.dot(graph: outcome.headGraph ?? outcome.baseGraph ?? .init(packages: []), report))
    case .xcodebuild:
      try xcode.emit(outcome, workingDirectory: FileManager.default.currentDirectoryPath)
    }
  }

  /// "pkg/dir:Target" → ("pkg/dir", "Target"); "Target" → (nil, "Target").
  static func splitTargetName(_ text: String) -> (String?, String) {
    guard let colon = text.lastIndex(of: ":") else { return (nil, text) }
    return (String(text[..<colon]), String(text[text.index(after: colon)...]))
  }
}

enum GitHubOutput {
  /// Appends to the file GitHub Actions reads step outputs from.
  static func append(_ text: String, to path: String) throws {
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw CLIError.cannotWrite(path: path, what: "$GITHUB_OUTPUT")
    }
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(text.utf8))
  }
}
