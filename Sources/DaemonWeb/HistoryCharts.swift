import Foundation
import RunModel

/// What the repository history charts draw (docs/DESIGN.md, "Repository history charts"); the daemon reads it
/// from the store (`RunStore.timedRuns`, `savedSecondsByDay`, `missCountsByWeek`).
public struct RepositoryHistory: Sendable {
  /// The last timed runs (suite times recorded), oldest first.
  public var runs: [RunRecord]
  /// Per UTC day, oldest first: the test time saved (whole suite minus selection) and by how many runs.
  public var savedPerDay: [(day: Date, seconds: Double, runs: Int)]
  /// What `savedPerDay` is measured against: a canary's wall-clock time of the whole suite (builds included), or,
  /// before the first canary, the recorded test times (an estimate, said so on the chart).
  public var fullSuite: FullSuiteBasis
  /// Per UTC week (Monday), oldest first: selection misses found.
  public var missesPerWeek: [(weekStart: Date, count: Int)]
  /// Per week: tests seen flaky. Empty: no flaky data (the chart says so). Its weeks need not start on Monday:
  /// each count goes to the week of `missesPerWeek` whose start is nearest.
  public var flakyPerWeek: [(weekStart: Date, count: Int)]
  /// The last runs that recorded line coverage (`coverage: true`), oldest first. Empty: no coverage chart, a note.
  public var coverageRuns: [RunRecord]
  /// Whether rippled.yml turns coverage on for the repository (nil: not known). On, with no run measured yet:
  /// the panel says the first run draws the chart, never to turn it on.
  public var coverageOn: Bool?

  public init(
    runs: [RunRecord], savedPerDay: [(day: Date, seconds: Double, runs: Int)],
    missesPerWeek: [(weekStart: Date, count: Int)], flakyPerWeek: [(weekStart: Date, count: Int)] = [],
    fullSuite: FullSuiteBasis = .estimate, coverageRuns: [RunRecord] = [], coverageOn: Bool? = nil
  ) {
    self.coverageRuns = coverageRuns
    self.coverageOn = coverageOn
    self.runs = runs
    self.savedPerDay = savedPerDay
    self.fullSuite = fullSuite
    self.missesPerWeek = missesPerWeek
    self.flakyPerWeek = flakyPerWeek
  }
}

extension Dashboard {
  /// Timed runs in the per-run chart, days in the time-saved chart, weeks in the misses chart.
  public static let historyRuns = 20
  public static let historyDays = 30
  public static let historyWeeks = 8

  /// A repository's history pictures, side by side under its runs: three, and line coverage when a run recorded it
  /// (else a sentence saying how to turn it on).
  static func historyPanel(_ history: RepositoryHistory, repository: String) -> Markup {
    var charts = [
      HistoryCharts.figure(HistoryCharts.suiteTimes(history.runs), caption: HistoryCharts.suiteCaption(history.runs)),
      HistoryCharts.figure(
        HistoryCharts.savedPerDay(history.savedPerDay, basis: history.fullSuite),
        caption: HistoryCharts.savedCaption(history.savedPerDay, basis: history.fullSuite)),
      HistoryCharts.figure(
        HistoryCharts.missesAndFlaky(misses: history.missesPerWeek, flaky: history.flakyPerWeek),
        caption: HistoryCharts.weeklyCaption(misses: history.missesPerWeek, flaky: history.flakyPerWeek)),
    ]
    var note: Markup = .empty
    if history.coverageRuns.isEmpty {
      let sentence = history.coverageOn == true ? HistoryCharts.coverageComing : HistoryCharts.noCoverage
      note = "<p class=\"muted history-note\">\(sentence)</p>\n"
    } else {
      charts.append(
        HistoryCharts.figure(
          HistoryCharts.coverage(history.coverageRuns), caption: HistoryCharts.coverageCaption(history.coverageRuns)))
    }
    return "<div class=\"history\" data-repository=\"\(repository)\">\n\(charts)</div>\n\(note)"
  }
}

/// What a repository's time saved is measured against.
public enum FullSuiteBasis: Sendable, Hashable {
  /// The whole suite's wall-clock seconds, measured by canary run `runID` that ended `at`.
  case measured(seconds: Double, runID: Int64, at: Date)
  /// No full run measured yet: the recorded test times of the whole suite and of each selection.
  case estimate
}

/// The pictures of a repository's history (`BarChart`s, and the coverage `LineChart`) and their captions. Pure.
enum HistoryCharts {
  /// The aria-labels start with these (`make dashboard-shot` counts them).
  static let suiteTitle = "Test time per run"
  static let savedTitle = "Time saved per day"
  static let weeklyTitle = "Selection misses and flaky tests per week"

  static let coverageTitle = "Line coverage per run"
  /// Said instead of the coverage chart while no run of the repository recorded coverage.
  static let noCoverage = "Line coverage: no coverage recorded; set coverage: true in rippled.yml"
  /// Said instead while coverage is on and no run has finished measuring it yet.
  static let coverageComing = "Line coverage: on; the chart appears once a run has measured it"

  static func figure(_ chart: BarChart, caption: (title: String, summary: String)) -> Markup {
    figure(chart.render(), caption: caption)
  }

  static func figure(_ chart: LineChart, caption: (title: String, summary: String)) -> Markup {
    figure(chart.render(), caption: caption)
  }

  private static func figure(_ picture: Markup, caption: (title: String, summary: String)) -> Markup {
    """
    <figure class="chart"><figcaption><strong>\(caption.title)</strong>\
    <span class="muted">\(caption.summary)</span></figcaption>\(picture)</figure>

    """
  }

  // MARK: Per run: selection against the whole suite

  /// Per run, the whole suite's recorded time as a pale bar with the selection's in front of it; each run links
  /// to its page.
  static func suiteTimes(_ runs: [RunRecord]) -> BarChart {
    let every = max(1, Int((Double(runs.count) / 8).rounded(.up)))
    let slots = runs.enumerated().map { index, run in
      let full = run.fullSuiteSeconds ?? 0
      let selected = run.selectedSeconds ?? 0
      var tooltip = "Run #\(run.id) · \(run.branch) · \(run.state.rawValue)"
      if let finished = run.finishedAt { tooltip += " · finished \(Formatting.utc(finished))" }
      tooltip += "\nselected ~\(Formatting.duration(selected)) of ~\(Formatting.duration(full)) for the whole suite"
      if full > 0 { tooltip += " (\(percentSaved(full: full, selected: selected))% saved)" }
      // Label the newest run and every few before it.
      let labelled = (runs.count - 1 - index) % every == 0
      return BarChart.Slot(label: labelled ? "#\(run.id)" : nil, tooltip: tooltip, link: "/runs/\(run.id)")
    }
    return BarChart(
      kind: "suite",
      title: "\(suiteTitle), the last \(runs.count) timed runs: the selected tests against the whole suite",
      valueTitle: "test time", categoryTitle: "run, oldest to newest", unit: .seconds, slots: slots,
      series: [
        BarChart.Series(name: "whole suite", kind: "full", values: runs.map { $0.fullSuiteSeconds ?? 0 }),
        BarChart.Series(name: "selected", kind: "selected", values: runs.map { $0.selectedSeconds ?? 0 }),
      ],
      layout: .overlay,
      emptyMessage: "No timed runs yet: a run records them once tests have been timed")
  }

  static func suiteCaption(_ runs: [RunRecord]) -> (title: String, summary: String) {
    let full = runs.reduce(0) { $0 + ($1.fullSuiteSeconds ?? 0) }
    let selected = runs.reduce(0) { $0 + ($1.selectedSeconds ?? 0) }
    guard full > 0 else { return ("Selected tests vs the whole suite", "no timed runs yet") }
    return (
      "Selected tests vs the whole suite",
      "last \(runs.count) runs: \(percentSaved(full: full, selected: selected))% of the test time saved"
    )
  }

  // MARK: Per run: line coverage

  /// Per run with coverage, its percentage as a point on a 0–100 % line; a partial run (some test targets not
  /// measured) is a hollow point. Runs whose coverage measured no line have no point (no number, not 0 %).
  static func coverage(_ runs: [RunRecord]) -> LineChart {
    let measured = runs.compactMap { run in
      run.coverage.flatMap { coverage in coverage.percent.map { (run, coverage, $0) } }
    }
    let every = max(1, Int((Double(measured.count) / 8).rounded(.up)))
    let points = measured.enumerated().map { index, entry in
      let (run, coverage, percent) = entry
      var tooltip = "Run #\(run.id) · \(run.branch) · \(run.state.rawValue)"
      if let finished = run.finishedAt { tooltip += " · finished \(Formatting.utc(finished))" }
      tooltip += "\n\(percentText(percent)) of lines covered (\(coverage.linesCovered) of \(coverage.linesTotal))"
      tooltip += "\n\(coverage.targetsMeasured) test targets measured"
      if coverage.isPartial { tooltip += ", \(coverage.targetsNotMeasured) not (partial: their files left out)" }
      let labelled = (measured.count - 1 - index) % every == 0
      return LineChart.Point(
        value: percent, marked: coverage.isPartial, label: labelled ? "#\(run.id)" : nil, tooltip: tooltip,
        link: "/runs/\(run.id)")
    }
    return LineChart(
      kind: "cov", title: "\(coverageTitle), the last \(points.count) runs with coverage: lines covered in percent",
      valueTitle: "lines covered", categoryTitle: "run, oldest to newest", unit: .percent, lineName: "line coverage",
      markKind: "partial", markName: "partial (targets not measured)", points: points,
      emptyMessage: "No run measured a line yet")
  }

  static func coverageCaption(_ runs: [RunRecord]) -> (title: String, summary: String) {
    let measured = runs.filter { $0.coverage?.percent != nil }
    guard let newest = measured.last, let percent = newest.coverage?.percent else {
      return ("Line coverage per run", "no run measured a line yet")
    }
    let partial = measured.filter { $0.coverage?.isPartial == true }.count
    var summary = "newest \(percentText(percent)) (run #\(newest.id)); last \(measured.count) runs, "
    summary += partial == 0 ? "none partial" : "\(partial) partial (some test targets not measured)"
    return ("Line coverage per run", summary)
  }

  /// "71.3%".
  static func percentText(_ percent: Double) -> String { String(format: "%.1f%%", percent) }

  // MARK: Per day: time saved

  static func savedPerDay(_ days: [(day: Date, seconds: Double, runs: Int)], basis: FullSuiteBasis = .estimate)
    -> BarChart
  {
    let what = basis == .estimate ? "test time (estimate)" : "wall-clock"
    let slots = days.enumerated().map { index, day in
      let runs = day.runs == 1 ? "1 run" : "\(day.runs) runs"
      // Label today and every 7th day before it.
      let labelled = (days.count - 1 - index) % 7 == 0
      return BarChart.Slot(
        label: labelled ? shortDate(day.day) : nil,
        tooltip: "\(isoDate(day.day)) (UTC): \(Formatting.duration(day.seconds)) of \(what) saved by \(runs)")
    }
    let series =
      basis == .estimate ? "whole suite − selected (recorded test time)" : "full run − this run (wall-clock)"
    return BarChart(
      kind: "saved", title: "\(savedTitle), the last \(days.count) days (UTC), \(what)", valueTitle: "time saved",
      categoryTitle: "day (UTC)", unit: .seconds, slots: slots,
      series: [BarChart.Series(name: series, kind: "saved", values: days.map(\.seconds))],
      emptyMessage: "No days to show", zeroMessage: "No time saved in these \(days.count) days")
  }

  static func savedCaption(_ days: [(day: Date, seconds: Double, runs: Int)], basis: FullSuiteBasis = .estimate)
    -> (title: String, summary: String)
  {
    let total = days.reduce(0) { $0 + $1.seconds }
    let runs = days.reduce(0) { $0 + $1.runs }
    let figures = "\(Formatting.duration(total)) in \(days.count) days, \(runs) runs"
    switch basis {
    case .measured(let seconds, let runID, let at):
      return (
        "Wall-clock saved per day",
        "\(figures); the full suite took \(Formatting.duration(seconds)) in canary run #\(runID) (\(isoDate(at)))"
      )
    case .estimate:
      return (
        "Test time saved per day (estimate)",
        "\(figures); an estimate from recorded test times, builds left out: no canary has measured the full suite yet"
      )
    }
  }

  // MARK: Per week: misses and flaky tests

  static func missesAndFlaky(
    misses: [(weekStart: Date, count: Int)], flaky: [(weekStart: Date, count: Int)]
  ) -> BarChart {
    let weeks = weekGrid(misses: misses, flaky: flaky)
    let missCounts = misses.isEmpty ? weeks.map { _ in 0 } : misses.map(\.count)
    let flakyCounts = align(flaky, to: weeks)
    let every = weeks.count > 8 ? 2 : 1
    let slots = weeks.indices.map { index in
      let missText = missCounts[index] == 1 ? "1 selection miss" : "\(missCounts[index]) selection misses"
      let flakyText =
        flaky.isEmpty
        ? "no flaky data" : flakyCounts[index] == 1 ? "1 flaky test" : "\(flakyCounts[index]) flaky tests"
      return BarChart.Slot(
        label: (weeks.count - 1 - index) % every == 0 ? shortDate(weeks[index]) : nil,
        tooltip: "Week of \(isoDate(weeks[index])) (UTC): \(missText), \(flakyText)")
    }
    var series = [
      BarChart.Series(name: "selection misses", kind: "miss", values: missCounts.map(Double.init))
    ]
    if !flaky.isEmpty {
      series.append(BarChart.Series(name: "flaky tests", kind: "flaky", values: flakyCounts.map(Double.init)))
    }
    return BarChart(
      kind: "weekly", title: "\(weeklyTitle), the last \(weeks.count) weeks (UTC, from Monday)",
      valueTitle: "count", categoryTitle: "week starting (UTC)", unit: .count, slots: slots, series: series,
      notes: flaky.isEmpty ? ["flaky tests: no flaky data"] : [], emptyMessage: "No weeks to show",
      zeroMessage: flaky.isEmpty ? "No selection misses" : "No selection misses or flaky tests")
  }

  static func weeklyCaption(
    misses: [(weekStart: Date, count: Int)], flaky: [(weekStart: Date, count: Int)]
  ) -> (title: String, summary: String) {
    let weeks = weekGrid(misses: misses, flaky: flaky)
    let missTotal = misses.reduce(0) { $0 + $1.count }
    var summary = "\(missTotal) \(missTotal == 1 ? "miss" : "misses")"
    if flaky.isEmpty {
      summary += " in \(weeks.count) weeks · no flaky data"
    } else {
      summary += ", \(align(flaky, to: weeks).reduce(0, +)) flaky in \(weeks.count) weeks"
    }
    return ("Misses and flaky tests per week", summary)
  }

  /// The weeks the chart counts in: those of the misses (the store gives every week, 0 or not), else the flaky
  /// series' own.
  static func weekGrid(misses: [(weekStart: Date, count: Int)], flaky: [(weekStart: Date, count: Int)]) -> [Date] {
    misses.isEmpty ? flaky.map(\.weekStart) : misses.map(\.weekStart)
  }

  /// The counts of `series` on the grid `weeks`: each point goes to the week whose start is nearest to its own
  /// (half a week at most), so a series whose weeks start on another day still lines up; points outside are dropped.
  static func align(_ series: [(weekStart: Date, count: Int)], to weeks: [Date]) -> [Int] {
    var counts = weeks.map { _ in 0 }
    for point in series {
      let distances = weeks.map { abs($0.timeIntervalSince(point.weekStart)) }
      guard let nearest = distances.indices.min(by: { distances[$0] < distances[$1] }),
        distances[nearest] <= HistoryPeriod.week.seconds / 2
      else { continue }
      counts[nearest] += point.count
    }
    return counts
  }

  // MARK: Text

  /// The share of `full` a selection of `selected` spared, rounded, but never 100 % for a selection that took
  /// any time (a 44 s run read "(100% saved)") nor 0 % for one that spared some.
  static func percentSaved(full: Double, selected: Double) -> Int {
    guard full > 0 else { return 0 }
    let percent = max(0, min(100, Int(((full - selected) / full * 100).rounded())))
    if selected > 0 && percent == 100 { return 99 }
    if selected < full && percent == 0 { return 1 }
    return percent
  }

  /// "2026-11-24".
  static func isoDate(_ date: Date) -> String { String(Formatting.utc(date).prefix(10)) }

  /// "Nov 24" (UTC).
  static func shortDate(_ date: Date) -> String {
    let parts = calendar.dateComponents([.month, .day], from: date)
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(months[((parts.month ?? 1) - 1) % 12]) \(parts.day ?? 0)"
  }

  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// The charts' part of the page's stylesheet (the page has no dark theme, so neither do they).
  static let stylesheet: Markup = """
    .history{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:12px;margin:12px 0 0}
    .history figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;\
    padding:8px 10px 4px;min-width:0}
    .history figcaption{display:flex;flex-direction:column;font-size:13px}
    .history figcaption .muted{font-size:12px}
    .history svg{display:block;width:100%;height:auto;margin-top:4px}
    .rc text{font-size:11px;fill:var(--muted)}
    .rc .rc-legend text{fill:var(--fg)}
    .rc .rc-legend .rc-note{fill:var(--muted);font-style:italic}
    .rc .rc-axis-title{font-size:10.5px}
    .rc .rc-message{font-size:12px;font-style:italic}
    .rc-grid{stroke:var(--line)}
    .rc-axis{stroke:#94a3b8}
    .rc-hit{fill:transparent}
    .rc-slot:hover .rc-hit{fill:#f1f5f9}
    .rc-empty{fill:#f8fafc;stroke:#cbd5e1}
    .rc-full{fill:#e2e8f0;stroke:#cbd5e1}
    .rc-selected{fill:#2563eb}
    .rc-saved{fill:#16a34a}
    .rc-miss{fill:#ea580c}
    .rc-flaky{fill:#9333ea}
    .rc-line.rc-cov{fill:none;stroke:#0d9488;stroke-width:2}
    .rc-cov{fill:#0d9488}
    .rc-partial{fill:#fff;stroke:#d97706;stroke-width:2}
    .history-note{font-size:12.5px;margin:6px 0 0}
    """
}
