/// One `test.quarantine` entry as the runner applies it: which tests, why, until when, where it is written.
public struct QuarantineRule: Sendable, Hashable {
  /// `Target`, `Target/Suite` or `Target/Suite/test`.
  public var pattern: String
  public var reason: String
  /// `YYYY-MM-DD` (UTC), the last day it holds; nil: no end.
  public var until: String?
  /// `ripple.yml:12`, for the expiry warning.
  public var origin: String

  public init(pattern: String, reason: String, until: String? = nil, origin: String) {
    self.pattern = pattern
    self.reason = reason
    self.until = until
    self.origin = origin
  }

  /// Past its `until` day (`today` is `YYYY-MM-DD`, UTC; the strings sort as dates).
  public func isExpired(today: String) -> Bool { until.map { $0 < today } ?? false }

  /// Whether the test `name` of `suite` in `target` is covered. A suite pattern also covers suites nested in
  /// it (`Outer` covers `Outer.Inner`); a test pattern may leave out Swift Testing's `()`; `Target/name`
  /// also names a free-standing Swift Testing function.
  public func matches(target: String, suite: String, name: String) -> Bool {
    let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.first == target else { return false }
    func suiteMatches(_ wanted: String) -> Bool { suite == wanted || suite.hasPrefix(wanted + ".") }
    func nameMatches(_ wanted: String) -> Bool {
      name == wanted || name == wanted + "()" || name.hasPrefix(wanted + "(")
    }
    switch parts.count {
    case 1: return true
    case 2: return suiteMatches(parts[1]) || (suite.isEmpty && nameMatches(parts[1]))
    case 3: return suite == parts[1] && nameMatches(parts[2])
    default: return false
    }
  }
}

/// Applies `test.quarantine` to a finished run. Pure.
///
/// A failed test an active rule covers becomes `quarantined` (with the rule's reason); a package whose only
/// failures were quarantined passes. A flaky test it covers stays a flaky pass but gets the reason too, so
/// `--fail-on-flaky` does not count it. A failure recorded for a test that never reported (a crash, a test
/// the process ended before: `TestCaseResult.unreported`) is never contained, whatever the rule names.
/// Passing and skipped tests are left as they are; so is everything
/// when no rule is active. Expired rules contain nothing: their failures count again, and `warnings` names them.
public enum Quarantine {
  public static func apply(_ rules: [QuarantineRule], to result: TestRunResult, today: String) -> TestRunResult {
    var result = result
    result.packages = result.packages.map { apply(rules, to: $0, today: today) }
    return result
  }

  /// One package's results, as `apply(_:to:today:)` contains them: also for the live `packageFinished` event, so
  /// the progress line agrees with the summary.
  public static func apply(_ rules: [QuarantineRule], to package: PackageResult, today: String) -> PackageResult {
    let active = rules.filter { !$0.isExpired(today: today) }
    guard !active.isEmpty else { return package }
    var package = package
    package.targets = package.targets.map { target in
      let tests = target.tests.map { test -> TestCaseResult in
        // A crash or a test that never reported is not the failure an entry names: it hides what the test
        // would have done, and the tests after it.
        guard test.status == .failed || test.flaky, test.unreported == nil,
          let rule = active.first(where: { $0.matches(target: target.name, suite: test.suite, name: test.name) })
        else { return test }
        var contained = test
        if test.status == .failed { contained.status = .quarantined }
        contained.quarantine = rule.reason
        return contained
      }
      return TargetResult(name: target.name, tests: tests, duration: target.duration)
    }
    if package.status == .failed, !package.targets.contains(where: { $0.totals.failed > 0 }) {
      package.status = .passed
    }
    return package
  }

  /// One warning per expired rule: "ripple.yml:12: the quarantine of `CoreTests/NetTests` ended on 2026-01-31
  /// (flaky DNS); its failures count again".
  public static func warnings(_ rules: [QuarantineRule], today: String) -> [String] {
    rules.filter { $0.isExpired(today: today) }.map { rule in
      "\(rule.origin): the quarantine of `\(rule.pattern)` ended on \(rule.until ?? "?") (\(rule.reason)); "
        + "its failures count again: fix the test, or extend or remove the entry"
    }
  }
}
