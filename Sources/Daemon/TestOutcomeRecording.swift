import RunModel
import TestRunner

/// A run's test results as the store keeps them for flake rates: every test that ran, with its first failure.
enum TestOutcomeRecording {
  static func outcomes(_ result: TestRunResult) -> [TestOutcome] {
    result.packages.flatMap { package in
      package.targets.flatMap { target in
        target.tests.compactMap { test -> TestOutcome? in
          let kind: TestOutcome.Kind
          switch test.status {
          case .skipped: return nil
          case .failed: kind = .failed
          case .quarantined: kind = .quarantined
          case .passed: kind = test.flaky ? .flaky : .passed
          }
          let failure = test.failures.first.map { ($0.location.map { "\($0): " } ?? "") + $0.message }
          return TestOutcome(
            package: package.path, test: test.identifier(target: target.name), kind: kind,
            failure: kind == .passed ? nil : failure)
        }
      }
    }
  }
}
