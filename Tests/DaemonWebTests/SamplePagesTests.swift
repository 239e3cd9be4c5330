import Foundation
import RunModel
import ServiceMetrics
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Writes the sample pages to `$DAEMONWEB_SAMPLES` (or a temporary directory) for a look in a browser.
@Suite struct SamplePagesTests {
  @Test func writeSamplePages() throws {
    let environment = ProcessInfo.processInfo.environment["DAEMONWEB_SAMPLES"]
    let directory = URL(
      fileURLWithPath: environment ?? FileManager.default.temporaryDirectory.appendingPathComponent("daemonweb").path)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let big = SampleData.bigGraph(count: 300)
    var bigDetail = SampleData.failedDetail
    bigDetail.analysis!.targets = big.targets
    bigDetail.analysis!.edges = big.edges
    let pages: [(String, String)] = [
      ("index.html", Dashboard.index(status: SampleData.status, runs: SampleData.runs, now: SampleData.now)),
      ("run.html", Dashboard.run(SampleData.failedDetail, now: SampleData.now)),
      ("queued.html", Dashboard.run(SampleData.queuedDetail, now: SampleData.now)),
      ("big.html", Dashboard.run(bigDetail, now: SampleData.now)),
      ("notfound.html", Dashboard.notFound("No run 999.")),
      (
        "history.html",
        Dashboard.index(
          status: SampleData.status, runs: SampleData.runs, now: SampleData.now,
          history: ["isowords": HistoryChartsTests.sample])
      ),
      (
        "coverage.html",
        Dashboard.index(
          status: SampleData.status, runs: SampleData.runs, now: SampleData.now,
          history: ["isowords": CoverageChartTests.sampleHistory])
      ),
      ("graph.svg", GraphSVG.render(targets: SampleData.targets, edges: SampleData.edges)),
    ]
    for (name, page) in pages {
      try Data(page.utf8).write(to: directory.appendingPathComponent(name))
      _ = try XML(page)
    }
    let metrics = DaemonMetrics(repositories: ["isowords"])
    metrics.runFinished(
      repository: "isowords", state: .passed, duration: 42, selectedTestTargets: 3, totalTestTargets: 25)
    try Data(MetricsTests.render(metrics).utf8).write(to: directory.appendingPathComponent("metrics.txt"))
  }
}
