import ArgumentParser
import RippleKit

/// `--scheme`, `--project` and `--write-test-plan` of `ripple affected --format xcodebuild`
/// (docs/DESIGN.md, section 5).
struct XcodebuildOptions: ParsableArguments {
  @Option(help: "With --format xcodebuild: the shared scheme whose tests to select.")
  var scheme: String?

  @Option(
    help: ArgumentHelp(
      "With --format xcodebuild: the .xcodeproj or .xcworkspace (needed when the repository has several).",
      valueName: "PATH"))
  var project: String?

  @Option(
    help: ArgumentHelp(
      "With --format xcodebuild: write a copy of the scheme's test plan with only the selected targets enabled.",
      valueName: "PATH"))
  var writeTestPlan: String?

  func validate(format: AffectedFormat) throws {
    if format == .xcodebuild {
      if scheme == nil { throw ValidationError("--format xcodebuild needs --scheme NAME.") }
    } else if scheme != nil || project != nil || writeTestPlan != nil {
      throw ValidationError("--scheme, --project and --write-test-plan go with --format xcodebuild.")
    }
  }

  /// Prints the `-only-testing:` lines on stdout and everything else on stderr.
  func emit(_ outcome: AffectedOutcome, in workspace: Workspace, workingDirectory: String) throws {
    let answer = try workspace.xcodebuildTests(
      outcome, scheme: scheme ?? "", project: project, writeTestPlan: writeTestPlan,
      workingDirectory: workingDirectory)
    for line in answer.lines { print(line) }
    for message in answer.messages { Terminal.standardError.write(message + "\n") }
    if let written = answer.writtenTestPlan {
      Terminal.standardError.write("wrote the test plan \(written)\n")
    }
  }
}
