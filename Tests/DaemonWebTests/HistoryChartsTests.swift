import Foundation
import RunModel
import Testing

@testable import DaemonWeb

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The repository history pictures (BarChartSVG, HistoryCharts, ChartScale), parsed as XML: bars and their
/// heights, axes and units, labels, empty states, one series and two, escaping.
@Suite struct HistoryChartsTests {
  static let now = Date(timeIntervalSince1970: 1_795_600_000)  // 2026-11-25 07:06:40 UTC, a Wednesday
  static let plotHeight = BarChart.plot.bottom - BarChart.plot.top

  static func day(_ offset: Int) -> Date {
    HistoryPeriod.day.start(of: now).addingTimeInterval(Double(offset) * 86_400)
  }

  static func run(_ id: Int64, full: Double, selected: Double?, branch: String = "main") -> RunRecord {
    RunRecord(
      id: id, repository: "app", branch: branch, trigger: .fetch, head: "c0ffee", state: .passed,
      queuedAt: now - 3600, finishedAt: now - 3000 + Double(id), selectedTestTargets: selected == nil ? 0 : 2,
      totalTestTargets: 9, fullSuiteSeconds: full, selectedSeconds: selected)
  }

  /// A parsed chart: its root, its slots, and each slot's bars by series kind.
  struct Parsed {
    var xml: XML
    var root: XMLElement
    var slots: [XMLElement]

    init(_ svg: String) throws {
      xml = try XML(svg)
      root = try #require(xml.document.rootElement())
      slots = try xml.elements("g", class: "rc-slot")
    }

    func bars(_ slot: Int, _ kind: String) -> [XMLElement] {
      slots[slot].children(named: "rect").filter {
        ($0.attribute("class") ?? "").split(separator: " ").contains("rc-\(kind)")
      }
    }
    func tooltip(_ slot: Int) -> String { slots[slot].children(named: "title").first?.stringValue ?? "" }
    func categoryLabels() -> [String] { slots.compactMap { $0.children(named: "text").first?.stringValue } }
    func valueLabels() throws -> [String] {
      try xml.elements("g", class: "rc-axes").first?.children(named: "text")
        .filter { $0.attribute("class") == "rc-tick" }.compactMap(\.stringValue) ?? []
    }
    func texts(_ token: String) throws -> [String] { try xml.elements("text", class: token).compactMap(\.stringValue) }
    func allBars() throws -> [XMLElement] { try xml.elements("rect", class: "rc-bar") }
  }

  /// The value a bar's height stands for on an axis up to `top`.
  static func value(of bar: XMLElement, top: Double) -> Double { bar.number("height") / plotHeight * top }

  // MARK: Per run

  @Test func perRunTheSelectionStandsInFrontOfTheWholeSuiteOnOneScale() throws {
    let runs = [
      Self.run(5, full: 600, selected: 60), Self.run(6, full: 600, selected: 600),
      Self.run(7, full: 900, selected: nil),
    ]
    let chart = try Parsed(HistoryCharts.suiteTimes(runs).rendered)
    #expect(chart.root.localName == "svg")
    #expect(chart.root.attribute("role") == "img")
    let label = try #require(chart.root.attribute("aria-label"))
    #expect(label.hasPrefix(HistoryCharts.suiteTitle) && label.contains("3 timed runs"))
    #expect(chart.root.children(named: "title").first?.stringValue == label)
    #expect(chart.slots.count == 3)

    // 900 s at most: 5-minute steps up to 15 min.
    #expect(try chart.valueLabels() == ["0", "5", "10", "15"])
    #expect(try chart.texts("rc-axis-title").contains("test time (min)"))
    for (slot, (full, selected)) in [(600.0, 60.0), (600, 600), (900, 0)].enumerated() {
      let ghost = try #require(chart.bars(slot, "full").first)
      #expect(abs(Self.value(of: ghost, top: 900) - full) < 1)
      #expect(ghost.attribute("data-value") == "\(Int(full))")
      let front = chart.bars(slot, "selected")
      if selected == 0 {
        #expect(front.isEmpty, "nothing selected: no selected bar")
        continue
      }
      let bar = try #require(front.first)
      #expect(abs(Self.value(of: bar, top: 900) - selected) < 1)
      // In front: narrower, within the ghost, on the same baseline.
      #expect(bar.number("width") < ghost.number("width"))
      #expect(bar.number("x") > ghost.number("x"))
      #expect(bar.number("x") + bar.number("width") < ghost.number("x") + ghost.number("width"))
      #expect(abs((bar.number("y") + bar.number("height")) - (ghost.number("y") + ghost.number("height"))) < 0.2)
    }
    #expect(chart.categoryLabels() == ["#5", "#6", "#7"])
    #expect(chart.tooltip(0).contains("Run #5 · main · passed"))
    #expect(chart.tooltip(0).contains("selected ~1 min of ~10 min for the whole suite (90% saved)"))
    #expect(chart.tooltip(2).contains("(100% saved)"), "nothing selected: all of it")
    // Rounding never claims all of a suite for a run that took time, nor nothing for one that spared some.
    #expect(HistoryCharts.percentSaved(full: 600, selected: 1) == 99)
    #expect(HistoryCharts.percentSaved(full: 600, selected: 599) == 1)
    #expect(HistoryCharts.percentSaved(full: 600, selected: 600) == 0)
    let links = try chart.xml.elements("a").compactMap { $0.attribute("href") }
    #expect(links == ["/runs/5", "/runs/6", "/runs/7"])
    let legend = try chart.xml.elements("g", class: "rc-legend").first?.stringValue ?? ""
    #expect(legend.contains("whole suite") && legend.contains("selected"))
    #expect(HistoryCharts.suiteCaption(runs).summary == "last 3 runs: 69% of the test time saved")
  }

  @Test func perRunLabelsTheNewestAndEveryFewBeforeIt() throws {
    let runs = (1...20).map { Self.run(Int64($0), full: Double($0) * 10, selected: 5) }
    let chart = try Parsed(HistoryCharts.suiteTimes(runs).rendered)
    #expect(chart.slots.count == 20)
    #expect(chart.categoryLabels() == ["#2", "#5", "#8", "#11", "#14", "#17", "#20"])
    // 200 s at most: 1-minute steps, labelled in minutes.
    #expect(try chart.valueLabels() == ["0", "1", "2", "3", "4"])
  }

  @Test func noTimedRunsIsAPictureThatSaysSo() throws {
    let chart = try Parsed(HistoryCharts.suiteTimes([]).rendered)
    #expect(chart.root.attribute("aria-label")?.hasPrefix(HistoryCharts.suiteTitle) == true)
    #expect(chart.slots.isEmpty)
    #expect(try chart.allBars().isEmpty)
    #expect(try chart.xml.elements("rect", class: "rc-empty").count == 1)
    #expect(try chart.texts("rc-message") == ["No timed runs yet: a run records them once tests have been timed"])
    #expect(HistoryCharts.suiteCaption([]).summary == "no timed runs yet")
  }

  // MARK: Per day

  @Test func timeSavedSaysWhatItIsMeasuredAgainst() throws {
    let days = (-29...0).map { (day: Self.day($0), seconds: 60.0, runs: 1) }
    let measured = HistoryCharts.savedCaption(days, basis: .measured(seconds: 312, runID: 42, at: Self.day(-1)))
    #expect(measured.title == "Wall-clock saved per day")
    #expect(measured.summary.contains("the full suite took 5 min 12 s in canary run #42"), "\(measured.summary)")
    let estimate = HistoryCharts.savedCaption(days)
    #expect(estimate.title.contains("estimate") && estimate.summary.contains("no canary has measured"))
    let chart = try Parsed(
      HistoryCharts.savedPerDay(days, basis: .measured(seconds: 312, runID: 42, at: Self.day(0))).rendered)
    #expect(chart.root.attribute("aria-label")?.contains("wall-clock") == true)
  }

  @Test func timeSavedPerDayHasABarForEachDayWithRunsAndDatedLabels() throws {
    var days = (-29...0).map { (day: Self.day($0), seconds: 0.0, runs: 0) }
    days[0] = (days[0].day, 7200, 4)
    days[28] = (days[28].day, 35, 3)
    days[29] = (days[29].day, 1800, 1)
    let chart = try Parsed(HistoryCharts.savedPerDay(days).rendered)
    #expect(chart.root.attribute("aria-label")?.hasPrefix(HistoryCharts.savedTitle) == true)
    #expect(chart.slots.count == 30)
    #expect(try chart.allBars().count == 3)
    #expect(try chart.allBars().map { $0.attribute("data-value") } == ["7200", "35", "1800"])
    // 2 h at most: 30-minute steps, in minutes.
    #expect(try chart.valueLabels() == ["0", "30", "60", "90", "120"])
    #expect(try chart.texts("rc-axis-title") == ["time saved (min)", "day (UTC)"])
    #expect(abs(Self.value(of: chart.bars(29, "saved")[0], top: 7200) - 1800) < 1)
    // A 35 s day is small but still drawn.
    #expect(chart.bars(28, "saved")[0].number("height") >= 1)
    // Today and every 7th day before it.
    #expect(chart.categoryLabels() == ["Oct 28", "Nov 4", "Nov 11", "Nov 18", "Nov 25"])
    #expect(chart.tooltip(28) == "2026-11-24 (UTC): 35 s of test time (estimate) saved by 3 runs")
    #expect(chart.tooltip(29) == "2026-11-25 (UTC): 30 min of test time (estimate) saved by 1 run")
    #expect(chart.tooltip(5) == "2026-11-01 (UTC): 0 s of test time (estimate) saved by 0 runs")
    #expect(try chart.texts("rc-message").isEmpty)
    #expect(HistoryCharts.savedCaption(days).summary.hasPrefix("2 h 30 min in 30 days, 8 runs; an estimate"))
  }

  @Test func aMonthWithoutSavingsDrawsNoBarsAndSaysSo() throws {
    let days = (-29...0).map { (day: Self.day($0), seconds: 0.0, runs: 0) }
    let chart = try Parsed(HistoryCharts.savedPerDay(days).rendered)
    #expect(chart.slots.count == 30)
    #expect(try chart.allBars().isEmpty)
    #expect(try chart.valueLabels() == ["0", "1"])
    #expect(try chart.texts("rc-message") == ["No time saved in these 30 days"])
  }

  // MARK: Per week

  static var weeks: [(weekStart: Date, count: Int)] {
    HistoryPeriod.week.starts(count: 8, endingAt: now).enumerated().map {
      ($0.element, [0, 1, 0, 0, 3, 0, 1, 2][$0.offset])
    }
  }

  @Test func missesAloneAreOneSeriesAndTheChartSaysThereIsNoFlakyData() throws {
    let chart = try Parsed(HistoryCharts.missesAndFlaky(misses: Self.weeks, flaky: []).rendered)
    #expect(chart.root.attribute("aria-label")?.hasPrefix(HistoryCharts.weeklyTitle) == true)
    #expect(chart.slots.count == 8)
    #expect(try chart.xml.elements("rect", class: "rc-swatch").count == 1)
    #expect(try chart.texts("rc-note") == ["flaky tests: no flaky data"])
    #expect(try chart.xml.elements("rect", class: "rc-flaky").isEmpty)
    #expect(try chart.allBars().map { $0.attribute("data-value") } == ["1", "3", "1", "2"])
    #expect(try chart.valueLabels() == ["0", "1", "2", "3"])
    #expect(try chart.texts("rc-axis-title") == ["count", "week starting (UTC)"])
    #expect(chart.categoryLabels() == ["Oct 5", "Oct 12", "Oct 19", "Oct 26", "Nov 2", "Nov 9", "Nov 16", "Nov 23"])
    #expect(chart.tooltip(4) == "Week of 2026-11-02 (UTC): 3 selection misses, no flaky data")
    let single = chart.bars(4, "miss")[0]
    #expect(abs(Self.value(of: single, top: 3) - 3) < 0.05)
    #expect(HistoryCharts.weeklyCaption(misses: Self.weeks, flaky: []).summary == "7 misses in 8 weeks · no flaky data")
  }

  @Test func flakyCountsAreASecondSeriesOnTheNearestWeek() throws {
    let mondays = Self.weeks.map(\.weekStart)
    // A series whose weeks start on Sunday lines up with the Monday weeks; one before the range is dropped.
    let flaky = [
      (weekStart: mondays[1] - 86_400, count: 4), (weekStart: mondays[7] - 86_400, count: 1),
      (weekStart: mondays[0] - 8 * 86_400, count: 9),
    ]
    #expect(HistoryCharts.align(flaky, to: mondays) == [0, 4, 0, 0, 0, 0, 0, 1])
    let chart = try Parsed(HistoryCharts.missesAndFlaky(misses: Self.weeks, flaky: flaky).rendered)
    #expect(try chart.xml.elements("rect", class: "rc-swatch").count == 2)
    #expect(try chart.texts("rc-note").isEmpty)
    #expect(try chart.valueLabels() == ["0", "1", "2", "3", "4"])
    let miss = try #require(chart.bars(1, "miss").first)
    let flake = try #require(chart.bars(1, "flaky").first)
    #expect(miss.number("x") + miss.number("width") <= flake.number("x") + 0.1, "side by side")
    #expect(abs(Self.value(of: flake, top: 4) - 4) < 0.05)
    #expect(chart.bars(7, "flaky").count == 1 && chart.bars(7, "miss").count == 1)
    #expect(chart.tooltip(1) == "Week of 2026-10-12 (UTC): 1 selection miss, 4 flaky tests")
    #expect(HistoryCharts.weeklyCaption(misses: Self.weeks, flaky: flaky).summary == "7 misses, 5 flaky in 8 weeks")
    // Flaky counts alone still get their weeks.
    let alone = try Parsed(HistoryCharts.missesAndFlaky(misses: [], flaky: Array(flaky.prefix(2))).rendered)
    #expect(alone.slots.count == 2)
    #expect(try alone.allBars().map { $0.attribute("data-value") } == ["4", "1"])
  }

  @Test func noWeeksAtAllIsAnEmptyPicture() throws {
    let chart = try Parsed(HistoryCharts.missesAndFlaky(misses: [], flaky: []).rendered)
    #expect(chart.slots.isEmpty)
    #expect(try chart.texts("rc-message") == ["No weeks to show"])
  }

  // MARK: Escaping and the page

  @Test func dataIsEscapedInTooltipsAndThePage() throws {
    let branch = SampleData.hostile + " & \"q\" 'a'"
    let svg = HistoryCharts.suiteTimes([Self.run(1, full: 10, selected: 1, branch: branch)]).rendered
    #expect(!svg.contains("<script"))
    let chart = try Parsed(svg)
    #expect(chart.tooltip(0).contains(branch))

    let history = RepositoryHistory(
      runs: [Self.run(1, full: 10, selected: 1, branch: branch)],
      savedPerDay: [(Self.day(0), 9, 1)], missesPerWeek: Self.weeks)
    let name = SampleData.hostile
    let run = RunRecord(id: 1, repository: name, branch: branch, trigger: .fetch, head: "c0ffee", queuedAt: Self.now)
    let html = Dashboard.index(
      status: SampleData.status, runs: SampleData.runs + [run], now: Self.now, history: [name: history])
    let page = try XML(html)
    #expect(try page.elements("script").isEmpty)
    let panels = try page.elements("div", class: "history")
    #expect(panels.map { $0.attribute("data-repository") } == [name])
    let pictures = try page.elements("svg", class: "rc")
    #expect(pictures.count == 3)
    #expect(pictures.map { $0.attribute("class") } == ["rc rc-suite", "rc rc-saved", "rc rc-weekly"])
    #expect(try page.elements("figcaption").count == 3)
    // Without history the page has no pictures (and the other repositories none).
    let plain = try XML(Dashboard.index(status: SampleData.status, runs: SampleData.runs, now: Self.now))
    #expect(try plain.elements("svg", class: "rc").isEmpty)
  }

  /// A realistic history for the sample pages: 20 runs, a month of days (some without runs), 8 weeks of misses.
  static var sample: RepositoryHistory {
    let runs = (0..<20).map { index -> RunRecord in
      let full = 460 + Double(index % 4) * 12
      let selected = index % 9 == 4 ? full : [35, 120, 8, 260, 64][index % 5]
      return run(Int64(80 + index), full: full, selected: index % 7 == 3 ? nil : selected)
    }
    let days = (-29...0).map { offset -> (day: Date, seconds: Double, runs: Int) in
      let count = offset % 6 == 0 || offset % 7 == -1 ? 0 : (offset + 40) % 5 + 1
      return (day(offset), Double(count) * (300 + Double((offset + 31) % 4) * 90), count)
    }
    return RepositoryHistory(runs: runs, savedPerDay: days, missesPerWeek: weeks)
  }

  // MARK: The scale

  @Test func scalesStepOnRoundValuesInTheUnitOfTheStep() {
    let cases: [(Double, ChartScale.Unit, [String], String)] = [
      (95, .seconds, ["0", "30", "60", "90", "120"], "s"),
      (4.2, .seconds, ["0", "1", "2", "3", "4", "5"], "s"),
      (0.7, .seconds, ["0", "200", "400", "600", "800"], "ms"),
      (0.018, .seconds, ["0", "5", "10", "15", "20"], "ms"),
      (0.0004, .seconds, ["0", "1"], "ms"),
      (850, .seconds, ["0", "5", "10", "15"], "min"),
      (5 * 3600, .seconds, ["0", "1", "2", "3", "4", "5"], "h"),
      (80 * 3600, .seconds, ["0", "20", "40", "60", "80"], "h"),
      (7, .count, ["0", "2", "4", "6", "8"], ""),
      (3, .count, ["0", "1", "2", "3"], ""),
      (0, .count, ["0", "1"], ""),
      (-5, .seconds, ["0", "1"], "min"),
      (.nan, .count, ["0", "1"], ""),
      (1234, .count, ["0", "500", "1000", "1500"], ""),
    ]
    for (maximum, unit, labels, name) in cases {
      let scale = ChartScale.make(maximum: maximum, unit: unit)
      #expect(scale.ticks.map(scale.label) == labels, "\(maximum)")
      #expect(scale.unitName == name, "\(maximum)")
      #expect(maximum.isNaN || scale.top >= maximum)
    }
    let scale = ChartScale.make(maximum: 100, unit: .count)
    #expect(scale.position(50, length: 160) == 80)
    #expect(scale.position(500, length: 160) == 160)
    #expect(scale.position(-1, length: 160) == 0)
  }
}
