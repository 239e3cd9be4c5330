import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Axes on every chart (issue 52): each chart the dashboard draws has an x axis and a y axis line, the y axis'
/// tick values, a title on each axis, and labels along the x axis.
@Suite struct ChartAxesTests {
  static func charts() -> [(String, String)] {
    let runs = (1...12).map { HistoryChartsTests.run(Int64($0), full: 600, selected: Double($0) * 10) }
    let days = (-29...0).map { (day: HistoryChartsTests.day($0), seconds: Double(-$0) * 60, runs: 1) }
    let weeks = (-7...0).map { (weekStart: HistoryChartsTests.day($0 * 7), count: -$0) }
    return [
      ("suite", HistoryCharts.suiteTimes(runs).rendered),
      ("saved", HistoryCharts.savedPerDay(days).rendered),
      ("weekly", HistoryCharts.missesAndFlaky(misses: weeks, flaky: weeks).rendered),
      ("coverage", HistoryCharts.coverage(CoverageChartTests.runs).rendered),
      ("target", Dashboard.durationBars(TargetHistoryPageTests.entries()).rendered),
    ]
  }

  @Test func everyChartHasBothAxesWithTicksAndTitles() throws {
    for (name, markup) in Self.charts() {
      let xml = try XML(markup)
      let axes = try #require(try xml.elements("g", class: "rc-axes").first, "\(name): no axes")
      #expect(try xml.elements("line", class: "rc-axis-x").count == 1, "\(name): one x axis")
      #expect(try xml.elements("line", class: "rc-axis-y").count == 1, "\(name): one y axis")
      let yTicks = axes.children(named: "text").filter { $0.attribute("class") == "rc-tick" }.compactMap(\.stringValue)
      #expect(yTicks.count >= 3 && yTicks.first == "0", "\(name): y tick values \(yTicks)")
      let titles = try xml.elements("text", class: "rc-axis-title").compactMap(\.stringValue)
      #expect(titles.count == 2 && titles.allSatisfy { !$0.isEmpty }, "\(name): axis titles \(titles)")
      let xLabels = try xml.elements("text", class: "rc-tick").filter { $0.parent !== axes }.compactMap(\.stringValue)
      #expect(!xLabels.isEmpty, "\(name): labels along the x axis")
    }
  }

  /// The target page's chart: durations up the left in the unit its title names, the newest run labelled.
  @Test func theTargetDurationChartIsScaledAndLabelled() throws {
    let xml = try XML(Dashboard.durationBars(TargetHistoryPageTests.entries()).rendered)
    #expect(
      try xml.elements("text", class: "rc-axis-title").compactMap(\.stringValue) == [
        "duration (s)", "run, oldest to newest",
      ])
    let labels = try xml.elements("g", class: "rc-bars").first?.children(named: "text").compactMap(\.stringValue)
    #expect(labels?.last == "#200", "\(labels ?? [])")
  }
}
