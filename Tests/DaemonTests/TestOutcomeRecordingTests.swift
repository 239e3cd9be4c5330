import RunModel
import TestRunner
import Testing

@testable import Daemon

/// What rippled keeps of a run's tests for flake rates.
@Suite struct TestOutcomeRecordingTests {
  @Test func everyTestThatRanWithItsKindAndFirstFailure() {
    let flaky = TestCaseResult(
      suite: "A", name: "testFlaky", framework: .xctest, status: .passed,
      failures: [TestFailure(message: "timed out", file: "A.swift", line: 3), TestFailure(message: "second")],
      flaky: true, attempts: 2)
    var known = TestCaseResult(
      suite: "A", name: "testKnown", framework: .xctest, status: .quarantined,
      failures: [TestFailure(message: "known bug")])
    known.quarantine = "issue 7"
    let tests = [
      TestCaseResult(suite: "A", name: "testOk", framework: .xctest, status: .passed),
      flaky,
      known,
      TestCaseResult(suite: "", name: "later()", framework: .swiftTesting, status: .skipped),
      TestCaseResult(
        suite: "A", name: "testFails", framework: .xctest, status: .failed, failures: [TestFailure(message: "no")]),
    ]
    let result = TestRunResult(packages: [
      PackageResult(path: "Packages/Core", status: .failed, targets: [TargetResult(name: "CoreTests", tests: tests)])
    ])
    #expect(
      TestOutcomeRecording.outcomes(result) == [
        TestOutcome(package: "Packages/Core", test: "CoreTests.A/testOk", kind: .passed),
        TestOutcome(
          package: "Packages/Core", test: "CoreTests.A/testFlaky", kind: .flaky, failure: "A.swift:3: timed out"),
        TestOutcome(package: "Packages/Core", test: "CoreTests.A/testKnown", kind: .quarantined, failure: "known bug"),
        TestOutcome(package: "Packages/Core", test: "CoreTests.A/testFails", kind: .failed, failure: "no"),
      ])
  }
}
