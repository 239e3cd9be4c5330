import Foundation
import Testing

@testable import TestRunner

/// Test-level selection in every report: the tests left out are listed as not run, never as passed.
@Suite struct BelowTargetReportTests {
  static func result() -> TestRunResult {
    let ran = TestCaseResult(suite: "MathTests", name: "testMul", framework: .xctest, status: .passed, duration: 0.1)
    var result = TestRunResult(
      packages: [
        PackageResult(
          path: ".", status: .passed, filter: #"^(CoreTests\.(MathTests/testMul(/|$)))"#,
          targets: [TargetResult(name: "CoreTests", tests: [ran])])
      ], duration: 1)
    result.belowTarget = [
      BelowTargetReport(
        package: ".", target: "CoreTests", run: nil,
        sentence: "1 of 3 tests of CoreTests: they executed Sources/Core/Math.swift's `mul(_:_:)`",
        selected: ["CoreTests.MathTests/testMul": ["executed Sources/Core/Math.swift's `mul(_:_:)`"]],
        notRun: ["CoreTests.MathTests/testAdd", "CoreTests.TextTests/`shouts twice` (ü)()"],
        mapCommit: String(repeating: "a", count: 40))
    ]
    return result
  }

  @Test func junitListsEachTestNotRunAsSkippedWithWhy() {
    let xml = JUnitRenderer.render(Self.result())
    #expect(xml.contains("<testsuites name=\"ripple\" tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"2\""), "\(xml)")
    #expect(xml.contains("<testsuite name=\"CoreTests (not selected)\" package=\".\" tests=\"2\""))
    #expect(
      xml.contains(
        "<testcase classname=\"CoreTests.MathTests\" name=\"testAdd\" time=\"0\">\n      <skipped message=\"not run: "
      ))
    #expect(xml.contains("name=\"`shouts twice` (ü)()\""))
    #expect(!xml.contains("name=\"testAdd\" time=\"0\"/>"))
  }

  @Test func theSummaryAndTheMarkdownSayHowManyAndWhy() {
    let text = SummaryRenderer.render(Self.result())
    #expect(text.contains("1 of 3 tests of CoreTests: they executed Sources/Core/Math.swift's `mul(_:_:)`"))
    #expect(text.contains("not run: 2 tests"))
    let markdown = MarkdownSummary.render(Self.result())
    #expect(markdown.contains("### Below the target"))
    #expect(markdown.contains("<details><summary>2 not run</summary>"))
    #expect(markdown.contains("- `CoreTests.MathTests/testAdd`"))
    // The backquotes of a raw identifier do not end the code span.
    #expect(markdown.contains("- `CoreTests.TextTests/'shouts twice' (ü)()`"))
  }

  @Test func theJSONReportCarriesItAndReadsBack() throws {
    let data = Data(Self.result().jsonReport().utf8)
    let decoded = try JSONDecoder().decode(TestRunResult.self, from: data)
    #expect(decoded.belowTarget == Self.result().belowTarget)
    // A report without it (an older run's) still reads.
    var plain = Self.result()
    plain.belowTarget = []
    #expect(!plain.jsonReport().contains("belowTarget"))
    #expect(try JSONDecoder().decode(TestRunResult.self, from: Data(plain.jsonReport().utf8)).belowTarget.isEmpty)
  }
}
