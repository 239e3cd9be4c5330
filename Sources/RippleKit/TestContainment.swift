import Foundation
import RippleConfig
import TestRunner

/// `test.quarantine` and the outcome history, as a planned test run applies them (docs/DESIGN.md, "Flaky tests
/// and quarantine").
extension TestJob {
  /// Takes the quarantine entries (unless `--no-quarantine`), warns about the expired ones, and places the
  /// outcome history beside the timing history.
  mutating func contain(_ request: TestRequest, entries: [QuarantineEntry], today: String) {
    failOnFlaky = request.failOnFlaky
    outcomeStore = OutcomeStore(besideTimings: timingStore.path)
    guard request.quarantine else { return }
    quarantine = entries.map {
      QuarantineRule(pattern: $0.test, reason: $0.reason, until: $0.until, origin: $0.origin)
    }
    warnings += Quarantine.warnings(quarantine, today: today)
  }

  /// The run's result with quarantined failures contained and `--fail-on-flaky` set; its outcomes are added to
  /// the history (a failed write only costs `ripple flaky` a run, so it does not fail the run).
  func finish(_ result: TestRunResult, at date: Date) -> TestRunResult {
    var result = Quarantine.apply(quarantine, to: result, today: OutcomeHistory.day(date))
    result.failOnFlaky = failOnFlaky
    if let outcomeStore, !result.nothingAffected, !result.cancelled {
      var history = outcomeStore.load().history
      history.record(result, at: date)
      try? outcomeStore.save(history)
    }
    return result
  }
}
