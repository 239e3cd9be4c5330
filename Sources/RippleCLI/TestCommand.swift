import Affected
import ArgumentParser
import Assets
import CommandLineSupport
import Foundation
import PackageModel
import RippleConfig
import RippleKit
import SystemClients
import TestRunner

enum TestPlanFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

/// `--progress`: how the run shows itself on standard error.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
  /// `tty` on a terminal, else `plain`.
  case auto
  /// One updating status line (with SwiftPM's `[n/N]` step while building).
  case tty
  /// Plain lines for logs: each step, and a build's `[n/N]` every 10 s or 10 %.
  case plain
  case none
}

struct TestCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Build and run only the affected test targets, per package.",
    discussion: """
      Arguments after `--` go to both `swift build` and `swift test` (e.g. `-- -c release`).
      Exit status: 0 all passed (or nothing affected), 1 a test or build failed or no test ran, \
      2 usage or config error, 3 environment error.
      """
  )

  @OptionGroup var selection: SelectionOptions

  @Flag(help: "Run every test target, not only the affected ones (nightly runs, comparisons).")
  var all = false

  @Flag(help: "Print the plan (runs, packages, test targets, exact commands) and run nothing.")
  var dryRun = false

  @Option(help: "With --dry-run: text or json.")
  var format: TestPlanFormat = .text

  @Flag(help: "Fail (exit 1) when a selected test target cannot run on this host (test.runs platforms).")
  var requireAll = false

  @Option(help: ArgumentHelp("Run only shard I of N, balanced on recorded durations.", valueName: "I/N"))
  var shard: String?

  @Option(
    help: ArgumentHelp(
      "With --shard: the job's one shard plan, read when it exists and written when not; give every shard of a "
        + "job the same file (default: .build/ripple/shards/<job>.json, the job from RIPPLE_JOB_ID or the CI's run).",
      valueName: "FILE"))
  var plan: String?

  @Option(
    help: ArgumentHelp(
      "Run only these selected test targets (package:Name or package:*, comma-separated; \\, is a comma in an id), as a CI plan job "
        + "assigned them; one not selected is an error. package:Name/Suite runs one suite of a target, "
        + "package:Name/-Suite all of it but that suite.", valueName: "IDS"))
  var targets: [String] = []

  @Option(help: "Re-run failing tests up to N times; a test that then passes is reported as flaky.")
  var retryFailed = 0

  @Flag(help: "Fail (exit 1) when a test passed only on a retry (flaky).")
  var failOnFlaky = false

  @Flag(help: "Ignore test.quarantine: quarantined tests fail the run like any other (release gates).")
  var noQuarantine = false

  @Flag(help: "Neither read nor write pass records (also RIPPLE_NO_CACHE_RESULTS=1, or test.resultCache: off).")
  var noCacheResults = false

  @Flag(help: "Run targets that have a trusted pass record at their content key anyway, and record them again.")
  var rerunCached = false

  @Option(
    help: ArgumentHelp(
      "Print what went into the content key of this selected test target (package:Name or a bare name) and run nothing.",
      valueName: "TARGET"))
  var explainKey: String?

  @Option(
    help: ArgumentHelp(
      "Select whole test targets (target) or single tests from coverage maps (test); default: test.granularity.",
      valueName: "target|test"))
  var granularity: String?

  @Flag(
    help: "With test granularity: map the targets that ran whole and passed, on any branch (protected ones always do).")
  var refreshMaps = false

  @Option(
    help: ArgumentHelp(
      "With test granularity: say why one test (Target.Suite/test or Target/Suite/test) runs or not, and run nothing.",
      valueName: "TARGET/TEST"))
  var explain: String?

  @Option(help: "Progress on standard error: auto (tty on a terminal, else plain), tty, plain or none.")
  var progress: ProgressMode = .auto

  @Flag(help: "Pass every line SwiftPM prints through (the build's own output).")
  var verbose = false

  @Option(help: "How many packages to build and test at the same time.")
  var jobs = 1

  @Option(help: ArgumentHelp("Write one JUnit XML file for the whole run.", valueName: "PATH"))
  var junit: String?

  @Option(help: ArgumentHelp("Write a machine-readable result.", valueName: "PATH"))
  var reportJson: String?

  @Option(
    help: ArgumentHelp(
      "Write a Markdown summary (results, failures, why each target ran) for a pull request comment or "
        + "$GITHUB_STEP_SUMMARY; appended to an existing file.", valueName: "PATH"))
  var summaryMd: String?

  @Flag(
    help: ArgumentHelp(
      "Measure each test target's line coverage (recorded with its pass record) and report the whole suite's, "
        + "unselected targets' from their records."))
  var coverage = false

  @Option(help: ArgumentHelp("Write the suite's coverage as LCOV (implies --coverage).", valueName: "PATH"))
  var coverageLcov: String?

  @Option(help: ArgumentHelp("Write the suite's coverage as Cobertura XML (implies --coverage).", valueName: "PATH"))
  var coverageXml: String?

  @Option(
    help: ArgumentHelp(
      "Fail (exit 1) when the measured line coverage is under PERCENT, naming the files under it (implies --coverage).",
      valueName: "PERCENT"))
  var coverageMin: Double?

  /// Any coverage option asks for coverage.
  private var wantsCoverage: Bool { coverage || coverageLcov != nil || coverageXml != nil || coverageMin != nil }

  @Option(help: ArgumentHelp("Build directory base; each package builds in a sub-folder.", valueName: "PATH"))
  var scratchPath: String?

  @Option(help: ArgumentHelp("Timing history (default <repo>/.build/ripple/timings.json).", valueName: "PATH"))
  var timings: String?

  @Argument(parsing: .postTerminator, help: "Arguments for swift build and swift test.")
  var passthrough: [String] = []

  func validate() throws {
    if retryFailed < 0 { throw ValidationError("--retry-failed must be 0 or more (got \(retryFailed)).") }
    if jobs < 1 { throw ValidationError("--jobs must be at least 1 (got \(jobs)).") }
    if format == .json && !dryRun { throw ValidationError("--format json goes with --dry-run.") }
    if let shard {
      do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.description) }
    }
    if plan != nil && shard == nil { throw ValidationError("--plan goes with --shard I/N.") }
    if let coverageMin, !(0...100).contains(coverageMin) {
      throw ValidationError("--coverage-min must be a percentage from 0 to 100 (got \(coverageMin)).")
    }
    if !targets.isEmpty && targetIDs.isEmpty { throw ValidationError("--targets needs at least one package:Name.") }
    if let granularity, TestGranularity(rawValue: granularity) == nil {
      throw ValidationError(
        "--granularity must be one of " + TestGranularity.allCases.map(\.rawValue).joined(separator: ", ")
          + " (got \(granularity)).")
    }
    if let explain, !explain.contains("/") {
      throw ValidationError(
        "--explain names one test: TARGET/TEST, e.g. CoreTests.ParserTests/testParse (got \(explain)).")
    }
  }

  /// `--targets A,B --targets C`: every id, in order (`\,` is a comma inside an id: `TargetIDList`).
  private var targetIDs: [String] { targets.flatMap(TargetIDList.split) }

  func run() async throws {
    if !dryRun && explainKey == nil && explain == nil { try checkReportPaths() }
    let workspace = try selection.repository.openWorkspace(services: .liveWithResultStores)
    let scope: TestRequest.Scope =
      all ? .everything : .affected(try selection.request(repositoryRoot: workspace.root))
    var request =
      TestRequest(
        scope: scope, shard: try shard.map { try Shard(parsing: $0) },
        retryFailed: retryFailed, jobs: jobs, scratchPath: scratchPath.map(absolute),
        timingsPath: timings.map(absolute), extraArguments: passthrough, requireAll: requireAll,
        targets: targets.isEmpty ? nil : targetIDs)
    request.failOnFlaky = failOnFlaky
    request.shardPlanPath = plan.map(absolute)
    request.quarantine = !noQuarantine
    request.resultCache.enabled = !noCacheResults
    request.resultCache.rerunCached = rerunCached || explainKey != nil
    if wantsCoverage { request.coverage = CoverageRequest(minimum: coverageMin) }
    request.granularity = granularity.flatMap(TestGranularity.init(rawValue:)) ?? (explain != nil ? .test : nil)
    request.refreshMaps = refreshMaps && explain == nil
    let plan = try await workspace.planTests(request)
    CommandMain.keepUntilExit(plan)
    for warning in plan.warnings { Terminal.standardError.write("warning: \(warning)\n") }
    if let explainKey {
      print(try plan.explainKey(explainKey), terminator: "")
      return
    }
    if let explain {
      print(try plan.explainTest(explain))
      return
    }

    if let report = plan.affected?.report, !(dryRun && format == .json) {
      print(AffectedFormatter.comparison(report))
      // Piped (a CI log), stdout is block-buffered: the line would land after the build's lines on stderr.
      fflush(nil)
    }
    if dryRun {
      print(format == .json ? plan.planJSON() : plan.renderedPlan, terminator: format == .json ? "\n" : "")
      return
    }
    let progress = ProgressWriter(
      interactive: self.progress == .auto ? nil : self.progress == .tty, columns: { Terminal.standardError.columns },
      verbose: verbose, silent: self.progress == .none)
    let task = Task { try await workspace.runTests(plan, onEvent: progress.handle) }
    let signals = SignalCancellation.install { task.cancel() }
    let outcome = await task.result
    // The run is over: a signal now ends the process (its default action) instead of cancelling nothing, so
    // writing the reports can never outlive a SIGTERM.
    signals.uninstall()
    progress.finish()  // also when the run threw: its error must not end up on the status line
    let result = try outcome.get()
    for warning in result.warnings { Terminal.standardError.write("warning: \(warning)\n") }

    if result.nothingAffected && result.notRunHere.isEmpty && result.cached.isEmpty {
      print(plan.nothingMessage)
    } else {
      print(SummaryRenderer.render(result), terminator: "")
    }
    if let coverage = result.coverage { print(coverage.rendered, terminator: "") }
    try TestReportWriter.write(
      result, junitPath: junit.map(absolute), jsonPath: reportJson.map(absolute), repositoryRoot: workspace.root)
    if let summaryMd {
      var markdown = MarkdownSummary.render(result, nothingMessage: plan.nothingMessage)
      if let outcome = plan.affected {
        markdown += "\n<details><summary>Why these test targets</summary>\n\n"
        markdown += AffectedFormatter.markdown(outcome.report, result: outcome.result) + "\n</details>\n"
      }
      try MarkdownFile.append(markdown, to: absolute(summaryMd))
    }
    try TestReportWriter.writeCoverage(
      result, lcovPath: coverageLcov.map(absolute), xmlPath: coverageXml.map(absolute))
    // Ripple's own outputs in the work tree are no change for the next run while they hold these bytes.
    RippleOutputs.record(
      [junit, reportJson, summaryMd, coverageLcov, coverageXml].compactMap { $0.map(absolute) },
      repositoryRoot: workspace.root)
    // The summary (stdout) before the error pointing at it (stderr): piped, stdout is block-buffered.
    fflush(nil)
    try result.check()
    if let failure = result.coverage?.gate { throw CoverageGateError(failure) }
  }

  /// Every report path, before the run: a folder, a FIFO or a folder that cannot be written is a usage error
  /// naming the option (docs/DESIGN.md, "Report files").
  private func checkReportPaths() throws {
    let paths = [
      ("--junit", junit), ("--report-json", reportJson), ("--summary-md", summaryMd), ("--coverage-lcov", coverageLcov),
      ("--coverage-xml", coverageXml),
    ]
    for case (let option, let path?) in paths {
      try ReportPath.check(absolute(path), option: option, appending: option == "--summary-md")
    }
  }

  private func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }
}

/// `--summary-md`: appended, as `$GITHUB_STEP_SUMMARY` is shared by a job's steps; a file that cannot be
/// written is an error naming it.
enum MarkdownFile {
  static func append(_ text: String, to path: String) throws {
    do {
      try ReportPath.append(Data(text.utf8), to: path)
    } catch {
      throw CLIError.cannotWrite(path: path, what: "--summary-md")
    }
  }
}
