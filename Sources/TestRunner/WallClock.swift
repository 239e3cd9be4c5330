import Foundation

/// What a run cost in wall-clock time, and what it saved against the whole suite (issue 41: `swift build` is most
/// of a run, so savings in test time alone say little). The whole suite's figure is measured by a full run
/// (`ripple test --all` with nothing cached, recorded in the team's history; rippled's canaries) or, where none
/// was, estimated from the recorded test times, and said to be an estimate.
public struct WallClock: Sendable, Codable, Hashable {
  /// This run, from start to end, and its build and test parts (packages' builds added up; the rest is tests).
  public var seconds: Double
  public var buildSeconds: Double
  public var testSeconds: Double
  /// The whole suite's wall-clock time; nil when nothing is known of it.
  public var fullSuiteSeconds: Double?
  /// True: a full run took `fullSuiteSeconds`; false: an estimate from recorded test times (no build in it).
  public var measured: Bool
  /// When, ISO 8601 in UTC (`2026-11-27T09:12:00Z`).
  public var measuredAt: String?
  /// The run that measured it (`ripple test on host`, a CI job's URL, `rippled run 42`).
  public var measuredBy: String?

  public init(
    seconds: Double, buildSeconds: Double, fullSuiteSeconds: Double?, measured: Bool, measuredAt: Date? = nil,
    measuredBy: String? = nil
  ) {
    self.seconds = seconds
    self.buildSeconds = min(max(0, buildSeconds), seconds)
    self.testSeconds = max(0, seconds - self.buildSeconds)
    self.fullSuiteSeconds = fullSuiteSeconds
    self.measured = measured
    self.measuredAt = measuredAt.map { ISO8601DateFormatter().string(from: $0) }
    self.measuredBy = measuredBy
  }

  /// The run's split: packages' build times added up (they build one after another unless `--jobs`).
  public init(result: TestRunResult, fullSuiteSeconds: Double?, measured: Bool, at: Date? = nil, by: String? = nil) {
    self.init(
      seconds: result.duration, buildSeconds: result.packages.reduce(0) { $0 + $1.buildDuration },
      fullSuiteSeconds: fullSuiteSeconds, measured: measured, measuredAt: at, measuredBy: by)
  }

  /// Whole suite minus this run, never below 0.
  public var savedSeconds: Double? { fullSuiteSeconds.map { max(0, $0 - seconds) } }

  /// `Wall-clock 45.20s (build 30.10s, tests 15.10s); the full suite took 5m12s (measured 2026-11-27 by …): 4m27s
  /// saved`, or the same with `~` and "estimate".
  public var sentence: String {
    var text =
      "Wall-clock \(SummaryRenderer.format(seconds)) (build \(SummaryRenderer.format(buildSeconds)), tests "
      + "\(SummaryRenderer.format(testSeconds)))"
    guard let full = fullSuiteSeconds, let saved = savedSeconds else {
      return text + "; the full suite's time is not known yet (a full run, `ripple test --all`, measures it)"
    }
    if measured {
      let date = measuredAt.map { String($0.prefix(10)) }
      text += "; the full suite took \(SummaryRenderer.format(full))"
      text += " (measured" + (date.map { " \($0)" } ?? "") + (measuredBy.map { " by \($0)" } ?? "") + ")"
      return text + ": \(SummaryRenderer.format(saved)) saved"
    }
    return text + "; the full suite ~\(SummaryRenderer.format(full)) of recorded test time (an estimate: no full run "
      + "measured yet, builds not in it): ~\(SummaryRenderer.format(saved)) saved"
  }
}
