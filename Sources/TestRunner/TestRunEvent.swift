import SystemClients

/// What happens during a run, in order per package; rendered by `ProgressRenderer`.
public enum TestRunEvent: Sendable, Hashable {
  case started(packages: Int, targets: Int)
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
