import Foundation
import Testing

@testable import TestRunner

/// What a run saved, like with like (issue 49): its test phase against a full run's test phase, or against the
/// recorded test time as an estimate that says so; nothing for a run of the whole suite.
@Suite struct WallClockTests {
  static func result(build: [Double], duration: Double) -> TestRunResult {
    TestRunResult(
      packages: build.enumerated().map {
        PackageResult(path: "P\($0.offset)", status: .passed, buildDuration: $0.element)
      },
      duration: duration)
  }

  @Test func aRunIsSplitIntoBuildAndTestsAndComparedWithAMeasuredFullRun() throws {
    let at = Date(timeIntervalSince1970: 1_800_000_000)
    let clock = WallClock(
      result: Self.result(build: [20, 10], duration: 45), fullSuiteSeconds: 312, measured: true, at: at,
      by: "ripple test on ci-7")
    #expect(clock.buildSeconds == 30 && clock.testSeconds == 15)
    // Test phase against test phase: a warm incremental build is never set against a cold full one.
    #expect(clock.savedSeconds == 297)
    #expect(
      clock.sentence.contains(
        "the full suite's tests took 5m12s (measured 2027-01-15 by ripple test on ci-7): 4m57s of test time saved "
          + "(builds not compared"), "\(clock.sentence)")
    #expect(!clock.sentence.contains("estimate"))
    let json = try JSONEncoder().encode(clock)
    #expect(try JSONDecoder().decode(WallClock.self, from: json) == clock)
  }

  @Test func withoutAFullRunTheFigureIsAnEstimateAndSaysSo() {
    let clock = WallClock(result: Self.result(build: [40], duration: 50), fullSuiteSeconds: 30, measured: false)
    #expect(clock.sentence.contains("an estimate"))
    #expect(clock.savedSeconds == 20, "10 s of tests against 30 s of recorded test time; the build is not in either")
    #expect(clock.sentence.contains("~20.00s of test time saved"), "\(clock.sentence)")
    let slower = WallClock(result: Self.result(build: [1], duration: 50), fullSuiteSeconds: 30, measured: false)
    #expect(slower.savedSeconds == 0, "never below zero")
    let unknown = WallClock(result: Self.result(build: [1], duration: 2), fullSuiteSeconds: nil, measured: false)
    #expect(unknown.savedSeconds == nil && unknown.sentence.contains("not known yet"))
  }

  @Test func buildTimesAddedUpNeverExceedTheWallClock() {
    // `--jobs 2`: two 30 s builds side by side in a 40 s run.
    let clock = WallClock(result: Self.result(build: [30, 30], duration: 40), fullSuiteSeconds: nil, measured: false)
    #expect(clock.buildSeconds == 40 && clock.testSeconds == 0)
  }

  @Test func theReportCarriesItAndTheSummarySaysIt() throws {
    var result = Self.result(build: [2], duration: 3)
    result.wallClock = WallClock(result: result, fullSuiteSeconds: 10, measured: true)
    let decoded = try JSONDecoder().decode(TestRunResult.self, from: Data(result.jsonReport().utf8))
    #expect(decoded.wallClock == result.wallClock)
    #expect(SummaryRenderer.render(result).contains("Wall-clock 3.00s (build 2.00s, tests 1.00s)"))
  }

  /// A run of every test target, nothing cached, saved nothing: it is the full suite's measure (it once said
  /// "1m40s saved", a warm build against a cold full run).
  @Test func aRunOfTheWholeSuiteClaimsNoSaving() {
    let clock = WallClock(
      result: Self.result(build: [5], duration: 60), fullSuiteSeconds: 160, measured: true, ranEverything: true)
    #expect(clock.savedSeconds == nil)
    #expect(clock.sentence.contains("this run tested the whole suite: it saved nothing"), "\(clock.sentence)")
    #expect(!clock.sentence.contains("saved ("))
  }
}
