import Foundation
import RunModel
import Testing

@testable import DaemonWeb

/// The flaky panel of a repository and the flaky and quarantined tests on a run page.
@Suite struct FlakyPanelTests {
  static let flaky = [
    FlakyTest(
      package: ".", test: "GameCoreTests.ScoringTests/testBonus", runs: 4, flakyRuns: 2,
      firstSeen: SampleData.minutesAgo(3000), lastSeen: SampleData.minutesAgo(30), lastRun: 102,
      lastFailure: "Scoring.swift:12: " + SampleData.hostile),
    FlakyTest(
      package: "Packages/Server", test: "ServerTests.Api/testLogin", runs: 10, flakyRuns: 1,
      firstSeen: SampleData.minutesAgo(600), lastSeen: SampleData.minutesAgo(600), lastRun: 99),
  ]

  @Test func theRepositoryShowsItsFlakyTestsByRate() throws {
    let page = Dashboard.index(
      status: SampleData.status, runs: SampleData.runs, now: SampleData.now, flaky: ["isowords": Self.flaky])
    let xml = try XML(page)
    let panels = try xml.elements("section", class: "flaky")
    #expect(panels.count == 1)
    #expect(panels.first?.attribute("id") == "flaky-isowords")
    let rows = try xml.elements("tr").filter { $0.parent?.name == "tbody" && ($0.stringValue ?? "").contains("Tests.") }
    #expect(rows.count == 2)
    #expect(rows.first?.stringValue?.contains("50%") == true)
    #expect(rows.first?.stringValue?.contains("2 of 4") == true)
    #expect(rows.last?.stringValue?.contains("Packages/Server") == true)
    #expect(xml.text.contains("Flaky tests in isowords"))
    #expect(page.contains("href=\"/runs/102\""))
    #expect(!page.contains("<script>alert"), "the failure text is escaped")
    // No flaky tests: no panel.
    let quiet = Dashboard.index(status: SampleData.status, runs: SampleData.runs, now: SampleData.now)
    #expect(try XML(quiet).elements("section", class: "flaky").isEmpty)
  }

  @Test func aTestOnlyCIRunnersSawFlakyIsMarkedCIWithoutALink() throws {
    let fromCI = FlakyTest(
      package: ".", test: "GameCoreTests.CI/testSeenOnCI", runs: 4, flakyRuns: 1, firstSeen: SampleData.minutesAgo(90),
      lastSeen: SampleData.minutesAgo(60), lastRun: 0)
    let page = Dashboard.index(
      status: SampleData.status, runs: SampleData.runs, now: SampleData.now, flaky: ["isowords": [fromCI]])
    #expect(!page.contains("href=\"/runs/0\""))
    #expect(page.contains("from the team's shared history (CI runners)\">CI</span>"))
    _ = try XML(page)
  }

  @Test func aRunPageListsItsFlakyAndQuarantinedTests() throws {
    let tests = [
      TestOutcome(package: ".", test: "GameCoreTests.A/testFlaky", kind: .flaky, failure: "A.swift:3: timed out"),
      TestOutcome(package: ".", test: "GameCoreTests.A/testKnown", kind: .quarantined, failure: "A.swift:9: known"),
      TestOutcome(package: ".", test: "GameCoreTests.A/testFails", kind: .failed, failure: "A.swift:1: no"),
    ]
    let page = Dashboard.run(SampleData.failedDetail, now: SampleData.now, options: RunPageOptions(tests: tests))
    let xml = try XML(page)
    let box = try #require(try xml.elements("div").first { $0.attribute("id") == "run-flaky" })
    let text = box.stringValue ?? ""
    #expect(text.hasPrefix("1 flaky test, 1 quarantined"))
    #expect(text.contains("GameCoreTests.A/testFlaky flaky: failed, then passed on a retry"))
    #expect(text.contains("A.swift:3: timed out"))
    #expect(text.contains("GameCoreTests.A/testKnown quarantined"))
    #expect(!text.contains("testFails"), "failures are in the targets table already")
    let plain = Dashboard.run(SampleData.failedDetail, now: SampleData.now, options: RunPageOptions())
    #expect(!plain.contains("run-flaky"))
  }
}
