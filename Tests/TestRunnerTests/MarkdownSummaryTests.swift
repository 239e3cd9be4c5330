import Foundation
import Testing

@testable import TestRunner

@Suite struct MarkdownSummaryTests {
  static func failing(_ message: String) -> TestCaseResult {
    var test = TestCaseResult(suite: "S", name: "t<1>", framework: .xctest, status: .failed, duration: 1)
    test.failures = [TestFailure(message: message, file: "Tests/A.swift", line: 7)]
    return test
  }

  @Test func aFailedRunHasItsTableFailuresAndBuildErrorsEscaped() {
    var result = TestRunResult(
      packages: [
        PackageResult(
          path: ".", status: .failed,
          targets: [
            TargetResult(
              name: "AppTests",
              tests: [
                TestCaseResult(suite: "S", name: "ok", framework: .xctest, status: .passed, duration: 0.5),
                Self.failing("expected <b>1</b> | got 2\nsecond line"),
              ])
          ]),
        PackageResult(path: "Packages/Net", status: .buildFailed, buildErrors: ["error: ```oops```"]),
      ], duration: 12)
    result.wallClock = WallClock(result: result, fullSuiteSeconds: 100, measured: true)
    let markdown = MarkdownSummary.render(result)
    #expect(markdown.hasPrefix("### Ripple test: failed — 2 tests, 1 passed, 1 failed, 0 skipped in 12.00s"))
    #expect(markdown.contains("| `AppTests` | . | 2 | 1 | 1 | 0 | 1.50s |"))
    #expect(markdown.contains("- `AppTests.S/t<1>` (Tests/A.swift:7): expected &lt;b&gt;1&lt;/b&gt; | got 2\n"))
    #expect(!markdown.contains("second line"), "one line per failure")
    #expect(markdown.contains("**Build failed:** Packages/Net"))
    #expect(markdown.contains("````\nerror: ```oops```\n````"), "a fence longer than the text's")
    #expect(markdown.contains("Wall-clock 12.00s"))
  }

  @Test func aPassingRunAndOneThatRanNothing() {
    let passed = TestRunResult(
      packages: [
        PackageResult(
          path: ".", status: .passed,
          targets: [
            TargetResult(
              name: "T",
              tests: [TestCaseResult(suite: "S", name: "a", framework: .xctest, status: .passed, duration: 1)])
          ])
      ], duration: 2)
    #expect(MarkdownSummary.render(passed).hasPrefix("### Ripple test: passed — 1 tests"))
    let nothing = TestRunResult(packages: [], nothingAffected: true)
    #expect(
      MarkdownSummary.render(nothing, nothingMessage: "no test target is affected by 1 changed file")
        .contains("no test target is affected by 1 changed file"))
  }

  @Test func manyFailuresAreCounted() {
    let tests = (0..<60).map { _ in Self.failing("x") }
    let result = TestRunResult(
      packages: [PackageResult(path: ".", status: .failed, targets: [TargetResult(name: "T", tests: tests)])])
    #expect(MarkdownSummary.render(result).contains("- … and 10 more"))
  }
}
