import Affected
import ArgumentParser
import ConfigLoading
import Foundation
import RippleConfig
import RippleKit
import TestRunner

enum AffectedFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, names, filter, github, matrix, dot, xcodebuild, markdown
  case gitlab, buildkite
}

struct AffectedCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "affected",
    abstract: "List the targets and test targets a change can reach, each with its reasons."
  )

  @OptionGroup var selection: SelectionOptions

  @Option(
    help: """
      Output: text (people), json, names, filter (swift test --filter), github ($GITHUB_OUTPUT), matrix, dot, \
      gitlab (child pipeline), buildkite (pipeline upload), xcodebuild (-only-testing: arguments for --scheme), \
      markdown (a pull request comment or job summary).
      """)
  var format: AffectedFormat = .text

  @OptionGroup var xcode: XcodebuildOptions

  @Option(help: "With --format matrix, gitlab or buildkite: the number of CI shards (default 1).")
  var shards: Int?

  @OptionGroup var pipeline: CIPipelineOptions

  /// Unconditional: `--explain --all` reaches `run` as the value `--all` instead of ArgumentParser's "Missing
  /// value".
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Show the chain from a changed file to TARGET; --explain --all: for every affected test target.",
      valueName: "TARGET"))
  var explain: String?

  @Option(
    help: ArgumentHelp(
      "Below each test target: name the single tests a change can reach from coverage maps (test), or stop at the "
        + "target (target); default: test.granularity. With test, text, json, markdown, names and filter say which "
        + "tests of each target run and why, and --explain TARGET/TEST says it for one test.",
      valueName: "target|test"))
  var granularity: String?

  func validate() throws {
    if let granularity {
      guard let value = TestGranularity(rawValue: granularity) else {
        throw ValidationError(
          "--granularity must be one of " + TestGranularity.allCases.map(\.rawValue).joined(separator: ", ")
            + " (got \(granularity)).")
      }
      if value == .test && !format.carriesTests {
        throw ValidationError(
          "--granularity test goes with --format text, json, markdown, names or filter (got --format \(format.rawValue))."
        )
      }
    }
    if let shards, shards < 1 { throw ValidationError("--shards must be at least 1 (got \(shards)).") }
    if shards != nil && !format.takesShards {
      throw ValidationError(
        "--shards goes with --format matrix, gitlab or buildkite (got --format \(format.rawValue)).")
    }
    try pipeline.validate(format: format)
    try xcode.validate(format: format)
  }

  func run() async throws {
    // The CI formats plan shards on the team's history, and `--base auto` finds its base there (the result
    // store's, opened only when one of them asks).
    let workspace = try selection.repository.openWorkspace(services: .liveWithResultStores)
    // ripple.yml's `test.granularity: test` reaches the formats that can say it; the others stay at the target.
    let granularity =
      self.granularity.flatMap(TestGranularity.init(rawValue:)) ?? workspace.configuration.test.granularity
    if granularity == .test && format.carriesTests {
      return try await runBelowTarget(workspace)
    }
    let outcome = try await workspace.affected(selection.request(repositoryRoot: workspace.root))
    let report = outcome.report
    for warning in report.warnings where format != .text {
      Terminal.standardError.write("warning: \(warning)\n")
    }
    if explain == "--all" {
      print(outcome.explainAll() ?? "No test target is affected.")
      return
    }
    if let explain {
      print(try outcome.explain(explain).joined(separator: "\n"))
      return
    }
    switch format {
    case .text:
      print(AffectedFormatter.text(report, color: Terminal.standardOutput.usesColor), terminator: "")
    case .json:
      print(AffectedFormatter.json(report))
    case .markdown:
      print(AffectedFormatter.markdown(report, result: outcome.result), terminator: "")
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
      let history = await Self.history(workspace)
      print(
        AffectedFormatter.matrix(
          report, shards: shards ?? 1, durations: history.durationsByTarget,
          suiteDurations: history.suiteDurationsByTarget, wholePackages: Self.wholePackages(outcome),
          testDurations: history.testDurationsByTarget))
    case .gitlab, .buildkite:
      let settings = pipeline.settings(report: report, selection: selection, repositoryRoot: workspace.root)
      let render = format == .gitlab ? AffectedFormatter.gitlab : AffectedFormatter.buildkite
      let history = await Self.history(workspace)
      print(
        render(
          report, shards ?? 1, history.durationsByTarget, history.suiteDurationsByTarget, settings,
          Self.wholePackages(outcome), history.testDurationsByTarget),
        terminator: "")
    case .dot:
      print(AffectedFormatter.dot(graph: outcome.headGraph ?? outcome.baseGraph ?? .init(packages: []), report))
    case .xcodebuild:
      try xcode.emit(outcome, in: workspace, workingDirectory: FileManager.default.currentDirectoryPath)
    }
  }

  /// Test granularity: the target-level report with, below each selected test target, the tests that run and why.
  func runBelowTarget(_ workspace: Workspace) async throws {
    let tests = try await workspace.affectedTests(selection.request(repositoryRoot: workspace.root))
    let report = tests.outcome.report
    // The report's own warnings are in its text; the plan's others (a store that did not answer) are not.
    let reported = Set(report.warnings)
    for warning in tests.warnings where format != .text || !reported.contains(warning) {
      Terminal.standardError.write("warning: \(warning)\n")
    }
    if explain == "--all" {
      print(tests.outcome.explainAll() ?? "No test target is affected.")
      return
    }
    if let explain {
      // TARGET/TEST names one test; a plain name, a target's chain.
      print(
        explain.contains("/")
          ? try tests.job.explainTest(explain) : try tests.outcome.explain(explain).joined(separator: "\n"))
      return
    }
    switch format {
    case .text:
      print(
        AffectedFormatter.text(report, color: Terminal.standardOutput.usesColor)
          + BelowTargetRendering.summary(tests.belowTarget), terminator: "")
    case .json:
      print(
        AffectedFormatter.json(
          report, adding: BelowTargetDocument(belowTarget: tests.belowTarget, testFilter: tests.filter)))
    case .markdown:
      print(
        AffectedFormatter.markdown(report, result: tests.outcome.result)
          + BelowTargetRendering.markdown(tests.belowTarget), terminator: "")
    case .names:
      let running = Set(tests.swiftTestScopes.map(\.name))
      let names = report.testTargets.filter { $0.package.hasSuffix(".xcodeproj") || running.contains($0.name) }.map(
        \.name)
      if !names.isEmpty { print(names.joined(separator: "\n")) }
    case .filter:
      if let filter = tests.filter {
        print(filter)
      } else {
        Terminal.standardError.write(tests.nothingMessage + "\n")
      }
    case .github, .matrix, .dot, .xcodebuild, .gitlab, .buildkite:
      preconditionFailure("--format \(format.rawValue) does not carry tests (validate refuses it)")
    }
  }

  /// The history the plan balances shards on (this machine's, under the team's from the result store); each
  /// job then runs its own list (`ripple test --targets`).
  static func history(_ workspace: Workspace) async -> TimingHistory {
    let local = TimingStore(path: TimingStore.defaultPath(repositoryRoot: workspace.root)).load().history
    var warnings: [String] = []
    let team = await workspace.teamHistory(warnings: &warnings)
    for warning in warnings { Terminal.standardError.write("warning: \(warning)\n") }
    if team == nil, local == TimingHistory() {
      Terminal.standardError.write(
        "warning: no timing history here and no result store to read the team's from: shards are planned on "
          + "defaults (every target weighs the same)\n")
    }
    return team.map { local.overlaid(with: $0.timings) } ?? local
  }

  /// Packages `ripple test` would run whole (`--fallback all`, a manifest that did not evaluate).
  static func wholePackages(_ outcome: AffectedOutcome) -> [String] {
    TestSelectionBuilder.make(outcome).packages.filter(\.runAll).map(\.path)
  }
}

extension AffectedFormat {
  /// The formats that say which tests of a target run (`--granularity test`); the others name targets or jobs.
  var carriesTests: Bool { [.text, .json, .markdown, .names, .filter].contains(self) }
}

/// `--format json --granularity test`: the keys beside the report's.
struct BelowTargetDocument: Encodable {
  var belowTarget: [BelowTargetReport]
  /// The anchored `swift test --filter` for the tests that run; absent when none does.
  var testFilter: String?
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
