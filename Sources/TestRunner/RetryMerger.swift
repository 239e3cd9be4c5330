/// Folds the results of a retry into the earlier results. Pure.
///
/// A test that failed before and passes now becomes `passed` and `flaky`, with the failures of its first
/// failing attempt (what reports show as the flaky failure); one that fails again stays failed, with the
/// failures of its latest attempt. A test that did not run before (its process ended first,
/// `TestCompleteness`) and passes now simply passed: it never failed. Either way its `attempts` is the retry's number. A target's duration adds the retry's wall time to its own.
public enum RetryMerger {
  public static func merge(_ previous: [TargetResult], retried: [TargetResult], attempt: Int) -> [TargetResult] {
    var rerun: [String: TestCaseResult] = [:]
    var retryTime: [String: Double] = [:]
    for target in retried {
      for test in target.tests { rerun[test.identifier(target: target.name)] = test }
      retryTime[target.name, default: 0] += target.duration
    }
    return previous.map { target in
      let tests = target.tests.map { test -> TestCaseResult in
        guard test.status == .failed, let again = rerun[test.identifier(target: target.name)] else { return test }
        var merged = test
        merged.attempts = attempt
        merged.duration = again.duration
        if again.status == .passed, test.unreported == .didNotRun {
          // It never ran before (the process ended first): a pass now is its first result, not a flaky one.
          merged.status = .passed
          merged.failures = []
          merged.firstFailures = nil
          merged.unreported = nil
        } else if again.status == .passed {
          merged.status = .passed
          merged.flaky = true
          merged.unreported = nil
          merged.failures = test.firstFailures ?? test.failures
          merged.firstFailures = nil
        } else if again.status == .failed {
          merged.firstFailures = test.firstFailures ?? test.failures
          merged.failures = again.failures
          merged.unreported = again.unreported
        }
        return merged
      }
      return TargetResult(
        name: target.name, tests: tests, duration: target.duration + retryTime[target.name, default: 0])
    }
  }
}
