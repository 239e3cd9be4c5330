import DaemonHTTPFixtures
import Foundation
import Hummingbird
import HummingbirdTesting
import RunModel
import RunStore
import Testing

@testable import DaemonHTTP

/// `/` draws each repository's history pictures from the store (DashboardHistory.swift and its route lines).
@Suite struct DashboardHistoryTests {
  @Test func theIndexDrawsTheThreePicturesFromTheStore() async throws {
    let fixture = try RouterFixture()
    let store = fixture.store
    for (full, selected) in [(40.0, 4.0), (40, 10)] {
      let run = try store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .api))
      _ = try store.markRunning(run.id, logPath: nil)
      try store.recordAnalysis(
        run.id,
        RunAnalysis(
          base: nil, changedFiles: [], targets: [], edges: [], selectedTestTargets: 1, totalTestTargets: 4,
          fullSuiteSeconds: full, selectedSeconds: selected))
      try store.recordTestOutcomes(
        run.id,
        [TestOutcome(package: ".", test: "AppTests.LoginTests/testLogout", kind: .flaky, failure: "L.swift:3: x")])
      _ = try store.finish(run.id, state: .passed, reason: nil)
    }
    let history = try DashboardHistory.load(store, repositories: ["app", "app", "none"], now: Date())
    #expect(history.keys.sorted() == ["app", "none"])
    #expect(history["app"]?.runs.map(\.selectedSeconds) == [4, 10])
    #expect(history["app"]?.savedPerDay.last.map { [$0.seconds, Double($0.runs)] } == [66, 2])
    #expect(history["app"]?.missesPerWeek.count == 8)
    // Both runs were flaky on the same test this week: one distinct flaky test in the newest week.
    #expect(history["app"]?.flakyPerWeek.count == 8)
    #expect(history["app"]?.flakyPerWeek.last?.count == 1)
    #expect(history["none"]?.flakyPerWeek.map(\.count).allSatisfy { $0 == 0 } == true)
    #expect(history["none"]?.runs.isEmpty == true)

    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/", method: .get) { response in
        #expect(response.status == .ok)
        let page = String(buffer: response.body)
        for label in [
          "Test time per run, the last 2 timed runs",
          "Time saved per day, the last 30 days (UTC), test time (estimate)",
          "Selection misses and flaky tests per week, the last 8 weeks",
        ] {
          #expect(page.components(separatedBy: "aria-label=\"\(label)").count == 2, "one picture: \(label)")
        }
        #expect(page.components(separatedBy: "class=\"rc-bar rc-selected\"").count == 3)
        #expect(!page.contains("no flaky data"), "the flaky series comes from the store")
      }
    }
  }

  /// Runs with coverage (`coverage: true`) make the coverage line, the run's JSON and the `/metrics` gauge; a
  /// repository without any shows the sentence instead of a picture.
  @Test func coverageComesFromTheRunsThatRecordedIt() async throws {
    let fixture = try RouterFixture()
    let store = fixture.store
    var ids: [Int64] = []
    for (covered, notMeasured) in [(40, 0), (55, 1), (-1, 0)] {
      let run = try store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .api))
      _ = try store.markRunning(run.id, logPath: nil)
      if covered >= 0 {
        try store.recordCoverage(
          run.id,
          RunCoverage(linesCovered: covered, linesTotal: 80, targetsMeasured: 3, targetsNotMeasured: notMeasured))
      }
      _ = try store.finish(run.id, state: .passed, reason: nil)
      ids.append(run.id)
    }
    let history = try DashboardHistory.load(store, repositories: ["app", "none"], now: Date())
    #expect(history["app"]?.coverageRuns.map(\.id) == Array(ids.prefix(2)))
    #expect(history["none"]?.coverageRuns.isEmpty == true)
    let runIDs = ids
    let ratios = try DashboardHistory.lineCoverage(store, repositories: ["app", "none"])
    #expect(ratios == ["app": 55.0 / 80], "the newest run with coverage; none for a repository without")

    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/", method: .get) { response in
        let page = String(buffer: response.body)
        #expect(page.components(separatedBy: "aria-label=\"Line coverage per run").count == 2)
        #expect(page.components(separatedBy: "class=\"rc-point rc-").count == 3)
        #expect(page.contains("class=\"rc-point rc-partial\""))
      }
      try await client.execute(uri: "/api/runs/\(runIDs[1])", method: .get) { response in
        let text = String(buffer: response.body)
        #expect(text.contains("\"coverage\":{\"linesCovered\":55,\"linesTotal\":80,\"partial\":true,\"percent\":68.75"))
      }
      try await client.execute(uri: "/api/runs/\(runIDs[2])", method: .get) { response in
        #expect(!String(buffer: response.body).contains("\"coverage\""), "a run without coverage has none, not 0")
      }
      try await client.execute(uri: "/runs/\(runIDs[1])", method: .get) { response in
        #expect(String(buffer: response.body).contains("68.8% · 55 of 80 lines"))
      }
    }

    // No run with coverage: the sentence, no picture.
    let bare = try RouterFixture()
    let plain = try bare.store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .api))
    _ = try bare.store.markRunning(plain.id, logPath: nil)
    _ = try bare.store.finish(plain.id, state: .passed, reason: nil)
    try await bare.application(runs: .failing).test(.router) { client in
      try await client.execute(uri: "/", method: .get) { response in
        let page = String(buffer: response.body)
        #expect(!page.contains("aria-label=\"Line coverage per run"))
        #expect(page.contains("no coverage recorded; set coverage: true in rippled.yml"))
      }
    }
  }
}
