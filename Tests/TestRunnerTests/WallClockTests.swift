import Foundation
import Testing

@testable import TestRunner

/// Savings in wall-clock time, build included, against a measured full run or an estimate that says so.
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
    #expect(clock.savedSeconds == 267)
    #expect(
      clock.sentence.contains("the full suite took 5m12s (measured 2027-01-15 by ripple test on ci-7): 4m27s saved"))
    #expect(!clock.sentence.contains("estimate"))
    let json = try JSONEncoder().encode(clock)
    #expect(try JSONDecoder().decode(WallClock.self, from: json) == clock)
  }

  @Test func withoutAFullRunTheFigureIsAnEstimateAndSaysSo() {
    let clock = WallClock(result: Self.result(build: [40], duration: 50), fullSuiteSeconds: 30, measured: false)
    #expect(clock.sentence.contains("an estimate"))
    #expect(clock.savedSeconds == 0, "never below zero: the estimate has no build in it")
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
}
