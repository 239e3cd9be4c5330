import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The index's filters (`?repository=&branch=&state=`) and pages (`?before=`).
@Suite struct RunFilterTests {
  @Test func parsesFiltersAndPagesAndNoneForAPlainIndex() throws {
    #expect(try RunFilter.parse([:]) == nil)
    #expect(try RunFilter.parse(["branch": " ", "state": ""]) == nil)
    let filter = try #require(try RunFilter.parse(["branch": "main", "state": "failed,error,failed", "before": "40"]))
    #expect(filter == RunFilter(branch: "main", states: [.failed, .error], before: 40))
    #expect(filter.url() == "/?branch=main&state=failed,error")
    #expect(filter.url(before: 12) == "/?branch=main&state=failed,error&before=12")
    #expect(RunFilter(repository: "a&b", branch: "feature/x y").url() == "/?repository=a%26b&branch=feature%2Fx%20y")
  }

  @Test func anUnknownStateOrABadPageIsAClearProblem() {
    #expect(throws: RunFilter.Problem.self) { try RunFilter.parse(["state": "failed,broken"]) }
    do {
      _ = try RunFilter.parse(["state": "broken"])
    } catch {
      #expect(error.description.contains("There is no run state 'broken'"))
      #expect(error.description.contains("queued, running, passed, failed"))
    }
    for before in ["x", "0", "-3", "1.5"] {
      #expect(throws: RunFilter.Problem.self) { try RunFilter.parse(["before": before]) }
    }
  }

  @Test func theListShowsTheFilterItsRunsAndLinksToOlderRuns() throws {
    let filter = RunFilter(branch: "main", states: [.failed], before: 200)
    let runs = SampleData.runs.filter { $0.branch == "main" }
    let html = Dashboard.runList(
      filter: filter, runs: runs, hasOlder: true, repositories: ["isowords", "tools"], now: SampleData.now)
    let xml = try XML(html)
    #expect(xml.text.contains("branch main, failed runs, older than run #200"))
    let shown = try xml.elements("tr").compactMap { $0.attribute("data-run") }
    #expect(shown == runs.sorted(by: Dashboard.newestFirst).map { String($0.id) })
    let older = try #require(try xml.elements("a").first { $0.attribute("id") == "older" })
    #expect(older.attribute("href") == "/?branch=main&state=failed&before=\(runs.map(\.id).min()!)")
    let newest = try #require(try xml.elements("a").first { $0.attribute("id") == "newest" })
    #expect(newest.attribute("href") == "/?branch=main&state=failed")
    // The form keeps the filter.
    let selected = try xml.elements("option").filter { $0.attribute("selected") == "selected" }
    #expect(selected.map(\.stringValue) == ["any", "failed"])
    #expect(try xml.elements("input").first?.attribute("value") == "main")
    // An older page does not refresh itself.
    #expect(try xml.elements("meta").allSatisfy { $0.attribute("http-equiv") != "refresh" })
  }

  @Test func nothingMatchingSaysSoWithoutPages() throws {
    let html = Dashboard.runList(
      filter: RunFilter(branch: SampleData.hostile), runs: [], hasOlder: false, repositories: [], now: SampleData.now)
    #expect(!html.contains("<script>"))
    let xml = try XML(html)
    #expect(xml.text.contains("No runs match branch \(SampleData.hostile)."))
    #expect(try xml.elements("nav", class: "pager").isEmpty)
  }

  @Test func theIndexLinksEachBranchToAllItsRuns() throws {
    let html = Dashboard.index(status: SampleData.status, runs: SampleData.runs, now: SampleData.now, runsPerBranch: 2)
    let xml = try XML(html)
    let more = try xml.elements("a", class: "more").compactMap { $0.attribute("href") }
    #expect(more.contains("/?repository=isowords&branch=main"))
    #expect(try xml.elements("form", class: "filters").count == 1)
  }
}
