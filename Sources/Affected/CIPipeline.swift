import RippleCore

/// What every job of a generated CI pipeline (`--format gitlab`, `--format buildkite`) needs beyond the
/// report: how to run `ripple test` so that it selects what this analysis selected.
public struct CIPipelineSettings: Sendable, Hashable {
  /// The arguments every job passes to `ripple test` after `--targets IDS`: the same base, head, config and
  /// selection options as the analysis (unquoted; quoted for the shell here).
  public var testArguments: [String]
  /// Shell commands each job runs before `ripple test` (installing Ripple, for example), as written.
  public var setup: [String]
  /// GitLab only: the container image of each test job (the runner's default when nil).
  public var image: String?
  /// GitLab only: the parent pipeline's job whose artifacts (Ripple's release archive) each job takes
  /// (`needs: [{pipeline: $PARENT_PIPELINE_ID, job: …}]`), so no job builds Ripple again.
  public var artifactsFrom: String?
  /// How a job calls Ripple.
  public var ripple: String

  public init(
    testArguments: [String] = [], setup: [String] = [], image: String? = nil, artifactsFrom: String? = nil,
    ripple: String = "ripple"
  ) {
    self.testArguments = testArguments
    self.setup = setup
    self.image = image
    self.artifactsFrom = artifactsFrom
    self.ripple = ripple
  }
}

/// The parts both pipeline formats share: job titles, reasons, commands. Pure.
enum CIPipeline {
  /// Job names stay readable in the CI's UI (GitLab allows 255 characters).
  static let maximumTitleLength = 120

  /// `test 1/2: AppTests, GreetingTests`, with `+N more` when the names do not fit.
  static func title(_ job: ShardJob) -> String {
    let prefix = "test \(job.shard)/\(job.of): "
    let names = job.targets.map { target in target.name + (job.scope(of: target).map { " (\(describe($0)))" } ?? "") }
    for shown in stride(from: names.count, through: 1, by: -1) {
      let rest = names.count - shown
      let text = prefix + names.prefix(shown).joined(separator: ", ") + (rest > 0 ? " +\(rest) more" : "")
      if text.count <= maximumTitleLength || shown == 1 { return text }
    }
    return prefix
  }

  /// "2 suites" / "all but 3 suites"; with `naming`, the suites themselves: "suites A, B".
  static func describe(_ scope: SuiteScope, naming: Bool = false) -> String {
    switch scope {
    case .only(let names):
      naming ? "suites " + names.joined(separator: ", ") : "\(names.count) suite\(names.count == 1 ? "" : "s")"
    case .allBut(let names):
      naming
        ? "all but suites " + names.joined(separator: ", ")
        : "all but \(names.count) suite\(names.count == 1 ? "" : "s")"
    }
  }

  /// The JUnit file a job writes (kept per shard so an artifact store can hold them side by side).
  static func junitPath(_ job: ShardJob) -> String { "ripple-junit-\(job.shard)-of-\(job.of).xml" }

  /// The lines a job prints first: why each of its targets runs (the most direct reason) and, when
  /// every test runs, why.
  static func reasonLines(_ job: ShardJob, report: AffectedReport) -> [String] {
    var lines = ["Ripple: shard \(job.shard) of \(job.of) runs \(job.targets.count) test target(s)."]
    if report.runAll {
      lines.append("Every test target runs: " + report.runAllReasons.joined(separator: "; "))
    }
    for target in job.targets {
      let package = target.package == "." ? "" : "\(target.package):"
      let part = job.scope(of: target).map { " [\(describe($0, naming: true))]" } ?? ""
      lines.append("  \(package)\(target.name)\(part): \(target.reasons.first ?? "selected")")
    }
    return lines
  }

  /// The commands of one job: print the reasons, the setup, then `ripple test --targets IDS …` with the
  /// job's own targets. Not `--shard I/N`: that re-plans on the job machine's timing history, which may
  /// differ from the plan's, so a target could land in no job or in two.
  static func commands(_ job: ShardJob, report: AffectedReport, settings: CIPipelineSettings) -> [String] {
    let printReasons = (["printf", "%s\\n"] + reasonLines(job, report: report)).map(shellQuoted).joined(separator: " ")
    let test =
      [settings.ripple]
      + (["test", "--targets", job.ids] + settings.testArguments
      + ["--junit", junitPath(job)]).map(shellQuoted)
    return [printReasons] + settings.setup + [test.joined(separator: " ")]
  }

  /// The one job of a pipeline with nothing to test: GitLab rejects a child pipeline without jobs, and
  /// a visible "nothing to test" says more than an empty pipeline.
  static let noOpTitle = "nothing to test"

  static func noOpCommand(_ report: AffectedReport) -> String {
    let files = report.changedFiles.count
    let message =
      "Ripple: no test target is affected by the \(files) changed file(s) (base \(report.base.prefix(12)), head \(report.head.prefix(12)))."
    return ["echo", message].map(shellQuoted).joined(separator: " ")
  }

  /// `text` as one POSIX shell word: as is when it holds only safe characters, else single-quoted.
  static func shellQuoted(_ text: String) -> String {
    let safe =
      !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || safeSymbols.contains($0)) }
    return safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  private static let safeSymbols: Set<Character> = ["-", "_", ".", "/", ":", "=", "@", "+", ","]
}

extension CIPipeline {
  /// The comment a generated pipeline starts with: what made it and what it covers.
  static func header(format: String, report: AffectedReport, jobs: [ShardJob]) -> [String] {
    [
      "Generated by `ripple affected --format \(format)`: \(report.testTargets.count) test target(s) in "
        + "\(jobs.count) job(s); base \(report.base), head \(report.head).",
      "Each job runs `ripple test --targets` with its own test targets and the analysis' base, head and config.",
    ]
  }
}
