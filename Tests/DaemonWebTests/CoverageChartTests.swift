import Foundation
import RunModel
import ServiceMetrics
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The per-repository "Line coverage per run" picture (LineChartSVG, HistoryCharts.coverage), the run page's
/// coverage and the `/metrics` gauge.
@Suite struct CoverageChartTests {
  static let now = HistoryChartsTests.now
  static let plotHeight = BarChart.plot.bottom - BarChart.plot.top

  static func run(_ id: Int64, covered: Int, of total: Int, notMeasured: Int = 0, branch: String = "main")
    -> RunRecord
  {
    RunRecord(
      id: id, repository: "app", branch: branch, trigger: .fetch, head: "c0ffee", state: .passed,
      queuedAt: now - 3600, finishedAt: now - 3000 + Double(id),
      coverage: RunCoverage(
        linesCovered: covered, linesTotal: total, targetsMeasured: 4, targetsNotMeasured: notMeasured))
  }

  static let runs = [
    run(1, covered: 50, of: 100), run(2, covered: 62, of: 100, notMeasured: 2), run(3, covered: 0, of: 0),
    run(4, covered: 75, of: 100),
  ]

  /// The sample history with 20 runs of coverage, every fifth partial (SamplePagesTests' coverage.html).
  static var sampleHistory: RepositoryHistory {
    var history = HistoryChartsTests.sample
    history.coverageRuns = (0..<20).map { index in
      let partial = index % 5 == 3
      return run(
        Int64(80 + index), covered: 610 + index * 6 + (index * 7) % 5 * 9 - (partial ? 90 : 0),
        of: partial ? 880 : 1000, notMeasured: partial ? 2 : 0)
    }
    return history
  }

  @Test func eachRunIsAPointOnAZeroToHundredPercentLine() throws {
    let xml = try XML(HistoryCharts.coverage(Self.runs).rendered)
    let root = try #require(xml.document.rootElement())
    let label = try #require(root.attribute("aria-label"))
    #expect(label.hasPrefix("Line coverage per run"))
    #expect(label.contains("3 runs"), "the run that measured no line has no point")
    let points = try xml.elements("circle", class: "rc-point")
    #expect(points.map { $0.attribute("data-value") } == ["50", "62", "75"])
    // The axis is 0–100 % whatever the values, and each point stands at its percentage.
    let ticks = try xml.elements("g", class: "rc-axes").first?.children(named: "text")
      .filter { $0.attribute("class") == "rc-tick" }.compactMap(\.stringValue)
    #expect(ticks == ["0", "20", "40", "60", "80", "100"])
    #expect(try xml.elements("text", class: "rc-axis-title").compactMap(\.stringValue).contains("lines covered (%)"))
    for (point, percent) in zip(points, [50.0, 62, 75]) {
      let height = BarChart.plot.bottom - point.number("cy")
      #expect(abs(height / Self.plotHeight * 100 - percent) < 0.5)
    }
    // Joined in order, one vertex per point, left to right.
    let line = try #require(try xml.elements("polyline", class: "rc-line").first)
    let vertices = (line.attribute("points") ?? "").split(separator: " ")
    #expect(vertices.count == 3)
    let xs = vertices.compactMap { Double($0.split(separator: ",")[0]) }
    #expect(xs == xs.sorted() && Set(xs).count == 3)
    // Each point links to its run and says its figures.
    let slots = try xml.elements("g", class: "rc-slot")
    #expect(slots.count == 3)
    #expect(
      slots[0].children(named: "title").first?.stringValue?.contains("50.0% of lines covered (50 of 100)") == true)
    #expect(try xml.elements("a").compactMap { $0.attribute("href") } == ["/runs/1", "/runs/2", "/runs/4"])
  }

  @Test func aPartialRunIsDrawnApartNamedInTheLegendAndCounted() throws {
    let xml = try XML(HistoryCharts.coverage(Self.runs).rendered)
    let partial = try xml.elements("circle", class: "rc-partial")
    #expect(partial.map { $0.attribute("data-value") } == ["62"])
    #expect(try xml.elements("circle", class: "rc-cov").count == 2)
    let legend = try xml.elements("g", class: "rc-legend").first?.children(named: "text").compactMap(\.stringValue)
    #expect(legend == ["line coverage", "partial (targets not measured)"])
    let tooltip = try xml.elements("g", class: "rc-slot")[1].children(named: "title").first?.stringValue ?? ""
    #expect(tooltip.contains("2 not (partial"))

    let caption = HistoryCharts.coverageCaption(Self.runs)
    #expect(caption.title == "Line coverage per run")
    #expect(caption.summary == "newest 75.0% (run #4); last 3 runs, 1 partial (some test targets not measured)")
    // Without partial runs the legend has the line only.
    let whole = try XML(HistoryCharts.coverage([Self.runs[0], Self.runs[3]]).rendered)
    #expect(try whole.elements("rect", class: "rc-partial").isEmpty)
    #expect(HistoryCharts.coverageCaption([Self.runs[0]]).summary.hasSuffix("none partial"))
  }

  @Test func thePanelShowsTheChartOnlyWhenARunHasCoverage() throws {
    let history = HistoryChartsTests.sample
    var covered = history
    covered.coverageRuns = Self.runs
    func page(_ history: RepositoryHistory) throws -> XML {
      try XML(
        Dashboard.index(
          status: SampleData.status, runs: SampleData.runs, now: Self.now, history: ["isowords": history]))
    }
    let without = try page(history)
    #expect(try without.elements("svg", class: "rc-cov").isEmpty)
    let note = try without.elements("p", class: "history-note").compactMap(\.stringValue)
    #expect(note == ["Line coverage: no coverage recorded; set coverage: true in rippled.yml"])
    // Coverage on in rippled.yml, no run measured yet: never "set coverage: true" (issue 52).
    var on = history
    on.coverageOn = true
    let waiting = try page(on).elements("p", class: "history-note").compactMap(\.stringValue)
    #expect(waiting == ["Line coverage: on; the chart appears once a run has measured it"])

    let with = try page(covered)
    let pictures = try with.elements("svg", class: "rc")
    #expect(pictures.map { $0.attribute("class") } == ["rc rc-suite", "rc rc-saved", "rc rc-weekly", "rc rc-cov"])
    #expect(pictures.last?.attribute("aria-label")?.hasPrefix("Line coverage per run") == true)
    #expect(try with.elements("p", class: "history-note").isEmpty)
  }

  @Test func dataIsEscapedInTheCoverageTooltips() throws {
    let branch = SampleData.hostile
    let svg = HistoryCharts.coverage([Self.run(1, covered: 1, of: 2, branch: branch)]).rendered
    #expect(!svg.contains("<script"))
    let tooltip = try XML(svg).elements("g", class: "rc-slot").first?.children(named: "title").first?.stringValue
    #expect(tooltip?.contains(branch) == true)
  }

  @Test func theRunPageSaysTheCoverageOrThatThereIsNone() {
    #expect(Dashboard.lineCoverage(Self.runs[1]).rendered.hasPrefix("62.0% · 62 of 100 lines"))
    #expect(Dashboard.lineCoverage(Self.runs[1]).rendered.contains("2 not: partial"))
    #expect(Dashboard.lineCoverage(Self.runs[2]).rendered.hasPrefix("no line measured"))
    let plain = RunRecord(id: 9, repository: "app", branch: "main", trigger: .fetch, head: "c0ffee", queuedAt: Self.now)
    #expect(Dashboard.lineCoverage(plain).rendered.contains("not measured"))
    #expect(!Dashboard.lineCoverage(plain).rendered.contains("0%"))
  }

  @Test func metricsGaugeTheNewestCoveragePerRepository() {
    let text = DaemonMetrics().render(
      runsByState: [:], queueLength: 0, running: 0, ready: true, healthy: true,
      lineCoverage: ["app": 0.713, "web": 1.4])
    #expect(text.contains("# TYPE rippled_line_coverage_ratio gauge\n"))
    #expect(MetricsTests.value(text, "rippled_line_coverage_ratio{repository=\"app\"}") == 0.713)
    #expect(MetricsTests.value(text, "rippled_line_coverage_ratio{repository=\"web\"}") == 1, "clamped to 0…1")
    // Before any run with coverage: the family, without samples (never a 0).
    let none = DaemonMetrics().render(runsByState: [:], queueLength: 0, running: 0, ready: true, healthy: true)
    #expect(none.contains("# HELP rippled_line_coverage_ratio "))
    #expect(!none.contains("rippled_line_coverage_ratio{"))
  }
}
