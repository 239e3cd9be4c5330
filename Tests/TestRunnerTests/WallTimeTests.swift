import Foundation
import Testing

@testable import TestRunner

/// A target's duration is the wall time its tests were running, not the sum of their times.
@Suite struct WallTimeTests {
  /// XCTest runs one test after another, then Swift Testing runs its tests in parallel: a(), b() and
  /// c() start together, d() only after they have all finished.
  static let console = """
    Test Case 'SerialTests.testOne' started at 2026-11-22 13:26:17.377
    Test Case 'SerialTests.testOne' passed (0.5 seconds)
    Test Case 'SerialTests.testTwo' started at 2026-11-22 13:26:17.877
    Test Case 'SerialTests.testTwo' passed (0.25 seconds)
    ◇ Test run started.
    ◇ Test a() started.
    ◇ Test b() started.
    ◇ Test c() started.
    ✔ Test a() passed after 1.5 seconds.
    ✔ Test c() passed after 1.25 seconds.
    ✔ Test b() passed after 1.75 seconds.
    ◇ Test d() started.
    ➜ Test e() skipped.
    ✔ Test d() passed after 0.5 seconds.
    ✔ Test run with 5 tests in 0 suites passed after 2.3 seconds.
    """
  static let listing = [
    "SerialTests.SerialTests/testOne", "SerialTests.SerialTests/testTwo", "ParallelTests.a()", "ParallelTests.b()",
    "ParallelTests.c()", "ParallelTests.d()", "ParallelTests.e()",
  ]
  static let xunit = """
    <testsuites><testsuite name="TestResults">
    <testcase classname="ParallelTests" name="b()" time="1.75"/>
    <testcase classname="ParallelTests" name="a()" time="1.5"/>
    <testcase classname="ParallelTests" name="d()" time="0.5"/>
    <testcase classname="ParallelTests" name="c()" time="1.25"/>
    <testcase classname="ParallelTests" name="e()"><skipped/></testcase>
    </testsuite></testsuites>
    """

  static func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-9 } ?? false }

  @Test func theConsoleOrderPlacesEachTestOnOneTimeline() {
    let tests = ConsoleParser.parse(Self.console)
    let timelines = Dictionary(uniqueKeysWithValues: tests.map { ($0.name, $0.timeline) })
    #expect(timelines["testOne"] == 0...0.5)
    #expect(timelines["testTwo"] == 0.5...0.75)
    #expect(timelines["a()"] == 0.75...2.25)
    #expect(timelines["b()"] == 0.75...2.5)
    #expect(timelines["c()"] == 0.75...2.0)
    #expect(timelines["d()"] == 2.5...3.0, "started after a(), b() and c() had finished")
    #expect(timelines["e()"] == .some(nil), "a skipped Swift Testing test never ran")
  }

  @Test(arguments: [true, false])
  func targetDurationsAreWallTimeNotTheSumOfTheirTests(withXunit: Bool) throws {
    let assembler = ResultAssembler(selectedTargets: [], listedTests: Self.listing)
    let targets = assembler.assemble(
      console: Self.console, swiftTestingXunit: withXunit ? XUnitParser.parse(Data(Self.xunit.utf8)) : nil)
    #expect(targets.map(\.name) == ["ParallelTests", "SerialTests"])
    let parallel = targets[0]
    #expect(parallel.tests.count == 5)
    #expect(Self.close(parallel.tests.map(\.duration).reduce(0, +), 5))
    #expect(Self.close(parallel.duration, 2.25), "first start 0.75 to last end 3.0, not the sum 5")
    #expect(Self.close(targets[1].duration, 0.75), "one after the other: the sum")

    var history = TimingHistory()
    history.record(TestRunResult(packages: [PackageResult(path: ".", status: .passed, targets: targets)]))
    #expect(Self.close(history.duration(of: TestUnit(package: ".", target: "ParallelTests")), 2.25))
  }

  @Test func aRetryAddsItsWallTime() {
    let failed = TestCaseResult(suite: "", name: "a()", framework: .swiftTesting, status: .failed, duration: 1)
    let passed = TestCaseResult(suite: "", name: "b()", framework: .swiftTesting, status: .passed, duration: 1)
    var retried = failed
    retried.status = .passed
    let merged = RetryMerger.merge(
      [
        TargetResult(name: "T", tests: [failed, passed], duration: 1.25),
        TargetResult(name: "U", tests: [], duration: 2),
      ],
      retried: [TargetResult(name: "T", tests: [retried], duration: 1)], attempt: 2)
    #expect(merged.map(\.duration) == [2.25, 2])
  }
}
