import Foundation
import RunModel
import Testing

@testable import DaemonWeb

/// A run served partly from pass records (issue 52): cached targets are counted apart ("2 run, 4 cached"), their
/// note is not a failure (not under the failures' red list, not in `failures` of the API), and the badge sits in a
/// column wide enough for it.
@Suite struct CachedTargetsPageTests {
  static var detail: RunDetail {
    let note = "passed at this content in rippled run 7 of main, 2 h ago (signed by rippled)"
    var targets = ["A", "B"].map {
      RunTarget(
        package: ".", name: "\($0)Tests", kind: "test", isTest: true, reasons: ["depends on \($0)"], status: .passed,
        duration: 3)
    }
    targets += ["C", "D", "E", "F"].map {
      RunTarget(
        package: ".", name: "\($0)Tests", kind: "test", isTest: true, reasons: ["depends on \($0)"], status: .cached,
        duration: 2, note: note)
    }
    var run = SampleData.runs.first { $0.id == 102 }!
    run.selectedTestTargets = 6
    run.totalTestTargets = 10
    let analysis = RunAnalysis(
      base: SampleData.sha(1), changedFiles: ["Sources/A/A.swift"], runAllReasons: [], warnings: [], targets: targets,
      edges: [], selectedTestTargets: 6, totalTestTargets: 10)
    return RunDetail(run: run, analysis: analysis, transitions: [])
  }

  @Test func cachedTargetsAreCountedAndNotedApartFromFailures() throws {
    let html = Dashboard.run(Self.detail, now: SampleData.now)
    _ = try XML(html)
    #expect(html.contains("2 run, 4 cached <span class=\"muted\">of 10</span>"))
    #expect(!html.contains("6 of 10"))
    #expect(html.contains("<p class=\"target-note muted\">passed at this content in rippled run 7 of main"))
    #expect(!html.contains("<ul class=\"failures\"><li>passed at this content"), "a cache note is not a failure")
    #expect(html.contains("col.c-status{width:208px}"), "the cached badge has its own room")
    #expect(html.contains(".targets .badge{white-space:nowrap}"))
  }

  /// The runs list counts the same way as the run page.
  @Test func theRunsListSaysRunAndCachedAsTheRunPageDoes() throws {
    var run = Self.detail.run
    run.cachedTestTargets = 4
    var plain = SampleData.runs.first { $0.id == 103 }!
    plain.selectedTestTargets = 3
    plain.totalTestTargets = 10
    let html = Dashboard.index(status: SampleData.status, runs: [run, plain], now: SampleData.now)
    _ = try XML(html)
    #expect(html.contains("<td class=\"nowrap\">2 run, 4 cached <span class=\"muted\">of 10</span></td>"))
    #expect(html.contains("<td class=\"nowrap\">3 of 10</td>"))
  }

  @Test func theAPIListsTheNoteApartFromFailures() throws {
    let json = String(decoding: try APIJSON.encode(Self.detail), as: UTF8.self)
    #expect(json.contains("\"note\":\"passed at this content in rippled run 7 of main"))
    #expect(!json.contains("\"failures\":[\"passed at"))
    let decoded = try APIJSON.decode(RunDetail.self, from: Array(json.utf8))
    #expect(decoded == Self.detail)
  }
}
