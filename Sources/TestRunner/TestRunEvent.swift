import SystemClients

/// What happens during a run, in order per package; rendered by `ProgressRenderer`.
public enum TestRunEvent: Sendable, Hashable {
  /// `targets`: the test targets named in `packages`; `wholePackages` of them run every test target they have,
  /// unnamed (`--all`, a manifest that could not be evaluated).
  case started(packages: Int, targets: Int, wholePackages: Int)
  case building(package: String)
  case built(package: String, succeeded: Bool, seconds: Double)
  /// A line the build printed, as it came.
  case output(package: String, line: OutputLine)
  /// `attempt` is 1 for the first run, 2… for retries of failed tests.
  case testing(package: String, targets: [String], attempt: Int)
  case testFinished(package: String, target: String, test: TestCaseResult)
  case packageFinished(PackageResult)
  case finished(TestRunResult)
}

extension TestRunEvent {
  /// What a run tests, after "Testing": "3 test targets in 2 packages", "every test target of 1 package", or both.
  public static func scope(packages: Int, targets: Int, wholePackages: Int) -> String {
    func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
    let named = max(0, packages - wholePackages)
    let whole = "every test target of \(plural(wholePackages, "package"))"
    if wholePackages == 0 { return "\(plural(targets, "test target")) in \(plural(packages, "package"))" }
    if named == 0 { return whole }
    return "\(plural(targets, "test target")) in \(plural(named, "package")) and " + whole
  }
}
