import Foundation
import Testing

@testable import TestRunner

/// A pass record's fields are whatever its writer put there: every report quotes them (docs/DESIGN.md,
/// "Untrusted text").
@Suite struct UntrustedTextTests {
  static let hostile = "x\n::error title=x::owned\u{1B}[2J\u{1B}[1;1H\u{202E}\u{7}\r"

  static var result: TestRunResult {
    var result = TestRunResult(packages: [], nothingAffected: false)
    result.cached = [
      CachedTarget(
        package: "Pkg" + hostile, name: "Tests" + hostile, run: "run" + hostile, key: "k" + hostile,
        commit: "c" + hostile, branch: "b" + hostile, passedIn: "in" + hostile, time: Date(), signer: "s" + hostile,
        tests: 1, duration: 1)
    ]
    return result
  }

  static func expectNoRawControl(_ text: String, _ what: String) {
    #expect(
      !text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{7}" || $0 == "\r" }, "\(what)")
    #expect(!text.contains("::error"), "\(what): \(text)")
    for line in text.split(separator: "\n") {
      #expect(!line.hasPrefix("::"), "\(what): a line that is a workflow command")
    }
  }

  @Test func theSummaryQuotesEveryFieldOfACachedTarget() {
    let summary = SummaryRenderer.render(Self.result)
    Self.expectNoRawControl(summary, "summary")
    #expect(summary.contains("\\u{1B}[2J"), "shown, escaped: \(summary)")
    let sentence = Self.result.cached[0].sentence(now: Date())
    Self.expectNoRawControl(sentence, "sentence")
    #expect(!sentence.contains("\n"))
  }

  @Test func theMarkdownSummaryAndJUnitQuoteThemToo() {
    Self.expectNoRawControl(MarkdownSummary.render(Self.result), "markdown")
    let junit = JUnitRenderer.render(Self.result)
    #expect(!junit.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "junit")
  }

  @Test func aRecordFromTheFutureSaysSo() {
    var target = Self.result.cached[0]
    target.time = Date().addingTimeInterval(240)
    #expect(target.sentence(now: Date()).contains("in the future (clock skew)"))
    #expect(!target.sentence(now: Date()).contains("0s ago"))
  }

  @Test func theFlakyReportQuotesTestNamesFromTheSharedHistory() {
    let text = FlakyReport.text(
      [
        FlakyTestRecord(
          package: "P" + Self.hostile, test: "T" + Self.hostile, runs: 2, flakyRuns: 1, failedRuns: 0, firstSeen: nil,
          lastSeen: nil)
      ],
      since: "30d")
    Self.expectNoRawControl(text, "flaky")
  }
}
