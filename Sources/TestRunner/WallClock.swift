import Foundation

/// What a run cost in wall-clock time, and what it saved against the whole suite (issue 41: `swift build` is most
/// of a run, so savings in test time alone say little).
///
/// A saving compares like with like (issue 49): this run's test phase with a full run's test phase (a full run:
/// `ripple test --all` with nothing cached, on this machine or in the team's history; rippled's canaries), never
/// a wall-clock time with a sum of test times, and never builds of different warmth (a warm incremental build
/// against a cold full one). Where no full run was measured, this run's test time is compared with the suite's
/// recorded test time, said to be an estimate. A run that tested the whole suite claims no saving: it is the
/// measure.
public struct WallClock: Sendable, Codable, Hashable {
  /// This run, from start to end, and its build and test parts (packages' builds added up; the rest is tests).
  public var seconds: Double
  public var buildSeconds: Double
  public var testSeconds: Double
  /// The whole suite's test time: a full run's test phase (`measured`), else the recorded test times added up;
  /// nil when nothing is known of it.
  public var fullSuiteSeconds: Double?
  /// True: a full run's test phase took `fullSuiteSeconds`; false: an estimate from recorded test times.
  public var measured: Bool
  /// When, ISO 8601 in UTC (`2026-11-27T09:12:00Z`).
  public var measuredAt: String?
  /// The run that measured it (`ripple test on host`, a CI job's URL, `rippled run 42`).
  public var measuredBy: String?
  /// This run tested every test target, nothing cached: there is nothing it saved.
  public var ranEverything: Bool

  public init(
    seconds: Double, buildSeconds: Double, fullSuiteSeconds: Double?, measured: Bool, measuredAt: Date? = nil,
    measuredBy: String? = nil, ranEverything: Bool = false
  ) {
    self.seconds = seconds
    self.buildSeconds = min(max(0, buildSeconds), seconds)
    self.testSeconds = max(0, seconds - self.buildSeconds)
    self.fullSuiteSeconds = fullSuiteSeconds
    self.measured = measured
    self.measuredAt = measuredAt.map { ISO8601DateFormatter().string(from: $0) }
    self.measuredBy = measuredBy
    self.ranEverything = ranEverything
  }

  /// The run's split: packages' build times added up (they build one after another unless `--jobs`).
  public init(
    result: TestRunResult, fullSuiteSeconds: Double?, measured: Bool, at: Date? = nil, by: String? = nil,
    ranEverything: Bool = false
  ) {
    self.init(
      seconds: result.duration, buildSeconds: result.packages.reduce(0) { $0 + $1.buildDuration },
      fullSuiteSeconds: fullSuiteSeconds, measured: measured, measuredAt: at, measuredBy: by,
      ranEverything: ranEverything)
  }

  /// The whole suite's test time minus this run's, never below 0; nil for a run of everything or nothing known.
  public var savedSeconds: Double? {
    guard !ranEverything else { return nil }
    return fullSuiteSeconds.map { max(0, $0 - testSeconds) }
  }

  /// `Wall-clock 45.20s (build 30.10s, tests 15.10s); the full suite's tests took 5m12s (measured 2026-11-27 by
  /// …): 4m57s of test time saved`, the same with `~` and "estimate", or "this run tested the whole suite".
  public var sentence: String {
    let text =
      "Wall-clock \(SummaryRenderer.format(seconds)) (build \(SummaryRenderer.format(buildSeconds)), tests "
      + "\(SummaryRenderer.format(testSeconds)))"
    if ranEverything { return text + "; this run tested the whole suite: it saved nothing, it is the measure" }
    guard let full = fullSuiteSeconds, let saved = savedSeconds else {
      return text + "; the full suite's time is not known yet (a full run, `ripple test --all`, measures it)"
    }
    if measured {
      let date = measuredAt.map { String($0.prefix(10)) }
      let by = " (measured" + (date.map { " \($0)" } ?? "") + (measuredBy.map { " by \($0)" } ?? "") + ")"
      return text + "; the full suite's tests took \(SummaryRenderer.format(full))\(by): "
        + "\(SummaryRenderer.format(saved)) of test time saved (builds not compared: their warmth differs)"
    }
    return text + "; the full suite ~\(SummaryRenderer.format(full)) of recorded test time (an estimate: no full run "
      + "measured yet): ~\(SummaryRenderer.format(saved)) of test time saved"
  }
}
