import Foundation
import RippleCore

/// A selected test target not run because a trusted pass record exists at its content key (docs/DESIGN.md,
/// "Pass records"): reported, never hidden, never counted as tests that passed in this run.
public struct CachedTarget: Sendable, Codable, Hashable {
  public var package: String
  public var name: String
  /// The test run (`test.runs`) it belongs to; nil: the one default run.
  public var run: String?
  public var key: String
  /// What the record says: the commit, branch and run that passed at this content, and when.
  public var commit: String
  public var branch: String
  public var passedIn: String
  public var time: Date
  /// The trusted key that signed it; nil: an unsigned record of this run's own branch.
  public var signer: String?
  /// Tests the record holds (their count) and the seconds they took there.
  public var tests: Int
  public var duration: Double

  public init(
    package: String, name: String, run: String?, key: String, commit: String, branch: String, passedIn: String,
    time: Date, signer: String?, tests: Int, duration: Double
  ) {
    self.package = package
    self.name = name
    self.run = run
    self.key = key
    self.commit = commit
    self.branch = branch
    self.passedIn = passedIn
    self.time = time
    self.signer = signer
    self.tests = tests
    self.duration = duration
  }

  /// "passed at this content in <run> of main (1a2b3c4d5e), 2h ago". The record's fields are quoted
  /// (`TerminalText`): whoever wrote the record chose them.
  public func sentence(now: Date) -> String {
    "passed at this content in \(TerminalText.quoted(passedIn)) of \(TerminalText.quoted(branch)) "
      + "(\(TerminalText.quoted(String(commit.prefix(10))))), \(AgeText.ago(now.timeIntervalSince(time)))"
      + (signer.map { ", signed by \(TerminalText.quoted($0))" } ?? "")
  }
}

/// Whether a target's result may become a pass record: a full, normal pass (docs/DESIGN.md, "Pass records").
public enum PassEligibility {
  /// True only when the target ran whole (not split by suites, no user filter), reported at least one test,
  /// and every test passed on its first attempt: no failure, skip, quarantine, flaky pass or retry, and
  /// nothing unreported. The package may have failed elsewhere: the target's own pass still counts.
  public static func isFullPass(
    _ target: TargetResult, in package: PackageResult, splitBySuites: Bool, userFiltered: Bool
  )
    -> Bool
  {
    guard !splitBySuites, !userFiltered, !target.tests.isEmpty else { return false }
    switch package.status {
    case .passed, .failed: break
    case .buildFailed, .noTestsRan, .error, .cancelled: return false
    }
    return target.tests.allSatisfy { test in
      test.status == .passed && !test.flaky && test.attempts == 1 && test.quarantine == nil && test.unreported == nil
    }
  }
}
