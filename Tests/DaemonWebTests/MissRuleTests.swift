import Foundation
import RunModel
import Testing

@testable import DaemonWeb

/// The selection-miss rule: which passed selective runs left out a target a canary then saw fail.
@Suite struct MissRuleTests {
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  static func run(_ id: Int64, _ head: String, _ state: RunState) -> RunRecord {
    RunRecord(
      id: id, repository: "app", branch: "main", trigger: .fetch, head: head, state: state,
      queuedAt: t0.addingTimeInterval(Double(id)), finishedAt: t0.addingTimeInterval(Double(id) + 1))
  }

  static func entry(_ id: Int64, _ head: String, _ state: RunState, ran: Set<String>) -> MissRule.WindowRun {
    MissRule.WindowRun(run: run(id, head, state), ranTestTargets: ran)
  }

  let canary = Self.run(20, "c20", .failed)

  @Test func aPassedRunThatLeftAFailingTargetOutIsAMiss() {
    let misses = MissRule.misses(
      canary: canary, failing: [".:CoreTests"],
      window: [Self.entry(11, "c11", .passed, ran: [".:UITests"])], isAncestorOrEqual: { _ in true })
    #expect(
      misses == [
        SelectionMiss(canaryID: 20, target: ".:CoreTests", runID: 11, commit: "c11", foundAt: canary.finishedAt!)
      ])
  }

  @Test func onlyRunsAfterTheLastOneThatRanTheTargetCount() {
    let window = [
      Self.entry(10, "c10", .passed, ran: []),  // before the last good run of CoreTests: not blamed
      Self.entry(12, "c12", .passed, ran: [".:CoreTests"]),  // CoreTests passed here
      Self.entry(13, "c13", .passed, ran: [".:UITests"]),  // left it out: a miss
      Self.entry(14, "c14", .failed, ran: [".:UITests"]),  // failed for another reason: not a miss
      Self.entry(15, "c15", .cancelled, ran: []),  // never finished: ignored
    ]
    let misses = MissRule.misses(
      canary: canary, failing: [".:CoreTests"], window: window, isAncestorOrEqual: { _ in true })
    #expect(misses.map(\.runID) == [13])
  }

  @Test func aBreakAlreadyCaughtByASelectiveRunIsNoMiss() {
    let window = [
      Self.entry(12, "c12", .failed, ran: [".:CoreTests"]),
      Self.entry(13, "c13", .passed, ran: []),
    ]
    #expect(
      MissRule.misses(canary: canary, failing: [".:CoreTests"], window: window, isAncestorOrEqual: { _ in true })
        .isEmpty)
  }

  @Test func commitsTheCanaryDoesNotContainAndPassingTargetsAreIgnored() {
    let window = [
      Self.entry(12, "other-branch-tip", .passed, ran: []),
      Self.entry(13, "c13", .passed, ran: []),
    ]
    let misses = MissRule.misses(
      canary: canary, failing: [".:CoreTests", ".:NetTests"], window: window,
      isAncestorOrEqual: { $0 != "other-branch-tip" })
    #expect(misses.map { "\($0.runID) \($0.target)" } == ["13 .:CoreTests", "13 .:NetTests"])
    #expect(
      MissRule.misses(canary: canary, failing: [], window: window, isAncestorOrEqual: { _ in true }).isEmpty)
  }
}

/// The miss panel on the dashboard and the misses on a run page.
@Suite struct MissPanelTests {
  static let miss = SelectionMiss(
    canaryID: 120, target: ".:GameCoreTests", runID: 102, commit: SampleData.sha(102),
    foundAt: SampleData.minutesAgo(30))

  @Test func theDashboardListsMissesWithLinksToTheRunAndTheCanary() throws {
    let status = DaemonStatus(
      version: "t", startedAt: SampleData.now, ready: true, healthy: true, problems: [], activity: "", queueLength: 0,
      running: [], repositories: [])
    let xml = try XML(Dashboard.index(status: status, runs: [], now: SampleData.now, misses: [Self.miss]))
    let panel = try #require(try xml.elements("section", class: "misses").first)
    #expect(panel.stringValue?.contains("1 in the last 30 days") == true)
    let links = try xml.elements("a").compactMap { $0.attribute("href") }
    #expect(links.contains("/runs/102") && links.contains("/runs/120"))
    #expect(panel.stringValue?.contains(".:GameCoreTests") == true)
    let empty = try XML(Dashboard.index(status: status, runs: [], now: SampleData.now))
    #expect(try empty.elements("section", class: "misses").isEmpty)
  }

  @Test func theRunPageSaysWhatItLeftOut() throws {
    let xml = try XML(
      Dashboard.run(SampleData.failedDetail, now: SampleData.now, options: RunPageOptions(misses: [Self.miss])))
    let box = try #require(try xml.elements("div").first { $0.attribute("id") == "run-misses" })
    #expect(box.stringValue?.contains("This run left out .:GameCoreTests, which failed in canary #120") == true)
  }
}
