import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `/repositories/{name}/targets/{package}:{target}`: a target's durations and failures over the last runs.
@Suite struct TargetHistoryPageTests {
  static func entries() -> [TargetRun] {
    let statuses: [TargetStatus] = [.passed, .failed, .passed, .notRun, .passed]
    return statuses.enumerated().map { index, status in
      let id = Int64(200 - index)
      let run = RunRecord(
        id: id, repository: "isowords", branch: "main", trigger: .fetch, head: SampleData.sha(Int(id)),
        state: status == .failed ? .failed : .passed, queuedAt: SampleData.minutesAgo(Double(index * 30)),
        subject: index == 1 ? SampleData.hostile : nil, author: index == 1 ? "Ada" : nil)
      let target = RunTarget(
        package: "Packages/Core", name: "CoreTests", kind: "test", isTest: true, reasons: [], status: status,
        duration: status == .notRun ? nil : Double(10 + index),
        failures: status == .failed ? ["CoreTests.S/a: <boom>", "b", "c", "d"] : [])
      return TargetRun(run: run, target: target)
    }
  }

  @Test func showsFailuresDurationsAndEachRun() throws {
    let html = Dashboard.targetHistory(
      repository: "isowords", package: "Packages/Core", name: "CoreTests", runs: Self.entries(), now: SampleData.now,
      remote: "git@github.com:pointfreeco/isowords.git")
    #expect(!html.contains("<script>"))
    let xml = try XML(html)
    let text = xml.text
    #expect(text.contains("Failed1 of 4 that ran"))
    #expect(text.contains("Median duration12 s"))
    #expect(text.contains("Slowest14 s"))
    let rows = try xml.elements("tr").compactMap { $0.attribute("data-run") }
    #expect(rows == ["200", "199", "198", "197", "196"])
    #expect(text.contains("CoreTests.S/a: <boom>") && text.contains("and 1 more"))
    #expect(text.contains(SampleData.hostile))
    // Each run links to the target's row on its page, and the head to its forge.
    let links = try xml.elements("a").compactMap { $0.attribute("href") }
    #expect(links.contains("/runs/199#\(GraphSVG.anchor(for: "Packages/Core:CoreTests"))"))
    #expect(links.contains("https://github.com/pointfreeco/isowords/commit/\(SampleData.sha(199))"))
    // The runs table is a table (the history charts' `.history` grid class once laid it out as a grid).
    #expect(try xml.elements("table", class: "target-runs").count == 1)
    #expect(try xml.elements("table", class: "history").isEmpty)
    // One bar per run, oldest first.
    let bars = try xml.elements("rect", class: "tb")
    #expect(
      bars.map { $0.attribute("class") } == [
        "tb tb-passed", "tb tb-notRun", "tb tb-passed", "tb tb-failed", "tb tb-passed",
      ])
  }

  @Test func aTargetWithoutRunsSaysSo() throws {
    let html = Dashboard.targetHistory(
      repository: "app", package: ".", name: SampleData.hostile, runs: [], now: SampleData.now)
    #expect(!html.contains("<script>"))
    #expect(try XML(html).text.contains("No recorded run of app selected this target."))
  }

  @Test func theRunPageLinksEachTestTargetToItsHistory() throws {
    let html = Dashboard.run(SampleData.failedDetail, now: SampleData.now)
    let links = try XML(html).elements("a").compactMap { $0.attribute("href") }
    #expect(links.contains("/repositories/isowords/targets/.:GameCoreTests"))
    #expect(
      Dashboard.targetURL(repository: "app", package: "Packages/Core", name: "CoreTests")
        == "/repositories/app/targets/Packages%2FCore:CoreTests")
  }
}
