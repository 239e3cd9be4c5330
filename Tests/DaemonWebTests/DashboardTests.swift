import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct DashboardIndexTests {
  let html = Dashboard.index(status: SampleData.status, runs: SampleData.runs, now: SampleData.now)

  @Test func isWellFormedXHTMLWithRefreshAndCSPAndNoScripts() throws {
    let xml = try XML(html)
    #expect(xml.document.rootElement()?.localName == "html")
    let metas = try xml.elements("meta")
    #expect(metas.contains { $0.attribute("http-equiv") == "refresh" && $0.attribute("content") == "5" })
    #expect(metas.contains { $0.attribute("http-equiv") == "Content-Security-Policy" })
    #expect(try xml.elements("script").isEmpty)
    #expect(try xml.elements("link").isEmpty)
    #expect(!html.contains("http://") || !html.contains("src=\"http"))
  }

  @Test func groupsRunsByRepositoryAndBranchNewestFirst() throws {
    let xml = try XML(html)
    let sections = try xml.elements("section", class: "repo")
    let names = sections.compactMap { $0.children(named: "div").first?.children(named: "h2").first?.stringValue }
    #expect(names == ["isowords", "ripple", "tools"])

    let isowords = sections[0]
    let branches = try isowords.nodes(forXPath: ".//*[local-name()='tbody']").compactMap { $0 as? XMLElement }
    // Branches by their newest run; a branch without runs (a seen head only) last.
    #expect(branches.map { $0.attribute("data-branch") } == ["main", "game-center", "stale-branch"])
    func runIDs(_ branch: XMLElement) throws -> [String] {
      try branch.nodes(forXPath: ".//*[local-name()='tr'][@data-run]").compactMap {
        ($0 as? XMLElement)?.attribute("data-run")
      }
    }
    #expect(try runIDs(branches[0]) == ["105", "103", "102", "101", "99", "97"])
    #expect(try runIDs(branches[1]) == ["104", "98", "96", "95"])
    #expect(try runIDs(branches[2]).isEmpty)
    #expect(branches[2].stringValue?.contains("No runs yet") == true)
  }

  @Test func rowsShowStateHeadTimesDurationCountsAndLinks() throws {
    let xml = try XML(html)
    let row = try #require(try xml.elements("tr").first { $0.attribute("data-run") == "102" })
    let text = row.stringValue ?? ""
    #expect(text.contains("#102"))
    #expect(text.contains("failed"))
    #expect(text.contains(String(SampleData.sha(102).prefix(10))))
    #expect(!text.contains(SampleData.sha(102)))  // short sha only; the full one is the title
    #expect(text.contains("9 min ago"))
    #expect(text.contains("1 min 12 s"))
    #expect(text.contains("9 of 25"))
    #expect(text.contains("3 tests failed"))
    let links = try row.nodes(forXPath: ".//*[local-name()='a']").compactMap { ($0 as? XMLElement)?.attribute("href") }
    #expect(links == ["/runs/102"])
    let times = try row.nodes(forXPath: ".//*[local-name()='time']").compactMap { $0 as? XMLElement }
    #expect(times.first?.attribute("title") == Formatting.utc(SampleData.minutesAgo(9)))

    let running = try #require(try xml.elements("tr").first { $0.attribute("data-run") == "103" })
    #expect(running.stringValue?.contains("running 2 min") == true)
    #expect(running.stringValue?.contains("7 of 25") == true)
  }

  @Test func headerShowsHealthProblemsActivityQueueAndRunning() throws {
    let xml = try XML(html)
    let text = xml.text
    #expect(text.contains("ready"))
    #expect(text.contains("unhealthy"))
    #expect(text.contains("Log directory /var/log/rippled is not writable"))
    #expect(text.contains("Testing isowords main"))
    let stats = try xml.elements("div", class: "stat").map { $0.stringValue ?? "" }
    #expect(stats.contains("Queue2"))
    #expect(try xml.elements("a").contains { $0.attribute("href") == "/runs/103" && $0.stringValue == "#103" })

    var healthy = SampleData.status
    healthy.healthy = true
    healthy.problems = []
    healthy.ready = false
    let calm = Dashboard.index(status: healthy, runs: [], now: SampleData.now)
    #expect(calm.contains(">healthy<"))
    #expect(calm.contains(">starting<"))
    #expect(!calm.contains("Needs attention"))
  }

  @Test func limitsRunsPerBranch() throws {
    let many = (1...30).map { id in
      RunRecord(
        id: Int64(id), repository: "r", branch: "b", trigger: .fetch, head: SampleData.sha(id), state: .passed,
        queuedAt: SampleData.minutesAgo(Double(100 - id)))
    }
    let page = Dashboard.index(status: SampleData.status, runs: many, now: SampleData.now, runsPerBranch: 5)
    let rows = try XML(page).elements("tr").compactMap { $0.attribute("data-run") }
    #expect(rows == ["30", "29", "28", "27", "26"])
    #expect(page.contains("latest 5 of 30 runs"))
  }

  @Test func emptyDaemon() throws {
    let status = DaemonStatus(
      version: "1", startedAt: SampleData.now, ready: false, healthy: true, problems: [], activity: "",
      queueLength: 0, running: [], repositories: [])
    let page = Dashboard.index(status: status, runs: [], now: SampleData.now)
    #expect(try XML(page).text.contains("No repositories are configured"))
  }
}

@Suite struct DashboardRunTests {
  @Test func theRunPageShowsWhatTheSelectionSaved() throws {
    var detail = SampleData.failedDetail
    #expect(try XML(Dashboard.run(detail, now: SampleData.now)).text.contains("no timings recorded yet"))
    detail.run.fullSuiteSeconds = 840
    detail.run.selectedSeconds = 84
    let text = try XML(Dashboard.run(detail, now: SampleData.now)).text
    #expect(text.contains("of recorded test time; this selection ~"), "\(text)")
    #expect(text.contains("(90% saved)"))
  }

  @Test func failedRunWithAnalysis() throws {
    let detail = SampleData.failedDetail
    let html = Dashboard.run(detail, now: SampleData.now)
    let xml = try XML(html)
    let text = xml.text
    #expect(text.contains("Run #102"))
    #expect(text.contains(SampleData.sha(102)))  // full head in the facts
    #expect(text.contains("9 of 25"))
    #expect(text.contains("1 min 12 s"))
    // Timeline in order, with notes.
    let steps = try xml.document.nodes(forXPath: "//*[local-name()='ol'][@class='timeline']/*").map {
      $0.stringValue ?? ""
    }
    #expect(steps.count == 3)
    #expect(steps[0].contains("queued") && steps[0].contains("new head of main"))
    #expect(steps[2].contains("running →") && steps[2].contains("failed") && steps[2].contains("+1 min 16 s"))
    // Changed files, warnings.
    #expect(text.contains("docs/<notes> & \"ideas\".md"))
    #expect(text.contains("Package.resolved pin swift-nio changed"))
    // The graph, inline.
    #expect(try xml.elements("svg").count == 1)
    #expect(try xml.elements("g", class: "rg-node").count == SampleData.targets.count)
    // The table: one row per target, failing tests first, with reasons and failures.
    let rows = try xml.document.nodes(forXPath: "//*[local-name()='table'][@class='targets']/*[local-name()='tbody']/*")
      .compactMap { $0 as? XMLElement }
    #expect(rows.count == SampleData.targets.count)
    #expect(rows[0].stringValue?.contains("AppFeatureTests") == true)
    #expect(rows[1].stringValue?.contains("GameCoreTests") == true)
    #expect(rows[1].stringValue?.contains("(\"<36>\") is not equal to (\"&37\")") == true)
    #expect(rows[1].attribute("id") == GraphSVG.anchor(for: ".:GameCoreTests"))
    #expect(text.contains("changed Sources/SharedModels/Move.swift"))
    // The log link; a finished run does not refresh.
    #expect(try xml.elements("a").contains { $0.attribute("href") == "/api/runs/102/log" })
    #expect(try xml.elements("meta").allSatisfy { $0.attribute("http-equiv") != "refresh" })
  }

  @Test func queuedRunWithoutAnalysis() throws {
    let html = Dashboard.run(SampleData.queuedDetail, now: SampleData.now)
    let xml = try XML(html)
    #expect(xml.text.contains("Run #105"))
    #expect(xml.text.contains("Waiting in the queue"))
    #expect(try xml.elements("svg").isEmpty)
    #expect(try xml.elements("meta").contains { $0.attribute("http-equiv") == "refresh" })
    #expect(!xml.text.contains("Targets"))
  }

  @Test func finishedRunWithoutAnalysisOrTransitions() throws {
    var detail = SampleData.queuedDetail
    detail.run.state = .cancelled
    detail.transitions = []
    let xml = try XML(Dashboard.run(detail, now: SampleData.now))
    #expect(xml.text.contains("No analysis was recorded"))
    #expect(xml.text.contains("No state changes recorded"))
  }

  @Test func runAllReasonsAndEmptyGraph() throws {
    var detail = SampleData.failedDetail
    detail.analysis!.runAllReasons = ["Package.resolved changed: every test runs"]
    detail.analysis!.targets = []
    detail.analysis!.edges = []
    let xml = try XML(Dashboard.run(detail, now: SampleData.now))
    #expect(xml.text.contains("Every test was selected"))
    #expect(xml.text.contains("Package.resolved changed: every test runs"))
    #expect(xml.text.contains("Nothing affected"))
  }
}

@Suite struct FormattingTests {
  @Test func relativeTimes() {
    let now = SampleData.now
    #expect(Formatting.relative(now, now: now) == "just now")
    #expect(Formatting.relative(now - 42, now: now) == "42 s ago")
    #expect(Formatting.relative(now - 180, now: now) == "3 min ago")
    #expect(Formatting.relative(now - 7200, now: now) == "2 h ago")
    #expect(Formatting.relative(now - 86400 * 5, now: now) == "5 d ago")
    #expect(Formatting.relative(now + 120, now: now) == "in 2 min")
    #expect(Formatting.utc(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00 UTC")
  }

  @Test func durations() {
    #expect(Formatting.duration(0.35) == "350 ms")
    #expect(Formatting.duration(4.24) == "4.2 s")
    #expect(Formatting.duration(12) == "12 s")
    #expect(Formatting.duration(72) == "1 min 12 s")
    #expect(Formatting.duration(120) == "2 min")
    #expect(Formatting.duration(3725) == "1 h 2 min")
    #expect(Formatting.shortCommit(SampleData.sha(1)) == String(SampleData.sha(1).prefix(10)))
    #expect(Formatting.shortCommit("worktree") == "worktree")
  }

  @Test func jsonDatesHaveFractionalSecondsAndKeysAreSorted() throws {
    struct Sample: Codable, Equatable {
      var zebra = 1
      var apple: Date
    }
    let value = Sample(apple: Date(timeIntervalSince1970: 1_776_600_000.25))
    let text = String(decoding: try APIJSON.encode(value), as: UTF8.self)
    #expect(text == #"{"apple":"2026-04-19T12:00:00.250Z","zebra":1}"#)
    #expect(try APIJSON.decode(Sample.self, from: Array(text.utf8)) == value)
    let whole = try APIJSON.decode(Sample.self, from: Array(#"{"apple":"2026-04-19T12:00:00Z","zebra":1}"#.utf8))
    #expect(whole.apple == Date(timeIntervalSince1970: 1_776_600_000))
    let detail = try APIJSON.decode(RunDetail.self, from: try APIJSON.encode(SampleData.failedDetail))
    #expect(detail.run.id == 102)
  }
}
