import Foundation
import RunModel

extension Dashboard {
  /// Runs a target's history page lists.
  public static let targetHistoryRuns = 50

  /// `/repositories/{name}/targets/{package}:{target}`, each part percent-encoded (a package folder has slashes).
  public static func targetURL(repository: String, package: String, name: String) -> String {
    "/repositories/\(RunFilter.encode(repository))/targets/\(RunFilter.encode(package)):\(RunFilter.encode(name))"
  }

  /// `/repositories/{name}/targets/{package}:{target}`: how a target did over the last runs that selected it (newest
  /// first): failures and durations in numbers, a bar per run (oldest on the left), and a table of the runs with
  /// the target's status, duration and failures.
  public static func targetHistory(
    repository: String, package: String, name: String, runs: [TargetRun], now: Date, remote: String? = nil
  ) -> String {
    var body = topBar(status: nil)
    let packageLabel: Markup = package == "." ? "" : " <span class=\"muted\">\(package)</span>"
    body += """
      <main>
      <nav class="crumbs"><a href="/">Dashboard</a> / \
      <a href="\(RunFilter(repository: repository).url())">\(repository)</a> / targets</nav>
      <div class="run-head"><h1>\(name)</h1>\(packageLabel)</div>

      """
    guard !runs.isEmpty else {
      body +=
        "<div class=\"box plain\" id=\"no-history\">No recorded run of \(repository) selected this target.</div>\n"
      body += "</main>"
      return Page.render(title: "\(name) · \(repository) · rippled", refreshSeconds: nil, now: now, body: body)
    }
    let ran = runs.filter { [.passed, .failed].contains($0.target.status) }
    let failed = runs.filter { $0.target.status == .failed }
    let durations = ran.compactMap(\.target.duration).sorted()
    let median = durations.isEmpty ? nil : durations[durations.count / 2]
    func stat(_ label: String, _ value: Markup) -> Markup {
      "<div class=\"stat\"><div class=\"label\">\(label)</div><div class=\"value small\">\(value)</div></div>"
    }
    let lastFailure: Markup = failed.first.map { "<a href=\"/runs/\($0.run.id)\">#\($0.run.id)</a>" } ?? Page.dash
    body += "<div class=\"stats\">"
    body += stat("Runs", "\(runs.count)")
    body += stat("Failed", "\(failed.count) of \(ran.count) that ran")
    body += stat("Median duration", median.map { "\(Formatting.duration($0))" } ?? Page.dash)
    body += stat("Slowest", durations.last.map { "\(Formatting.duration($0))" } ?? Page.dash)
    body += stat("Last failure", lastFailure)
    body += "</div>\n"
    body += durationBars(runs)
    body += """
      <div class="card scroll"><table class="runs target-runs">
      <colgroup><col class="c-run"/><col class="c-state"/><col class="c-head"/><col class="c-queued"/>\
      <col class="c-status"/><col class="c-duration"/><col/></colgroup>
      <thead><tr><th>Run</th><th>Run state</th><th>Head</th><th>Queued</th><th>Target</th><th>Duration</th>\
      <th>Failures</th></tr></thead>
      <tbody>

      """
    for entry in runs {
      let run = entry.run
      var head = Page.commit(run.head, link: remote.flatMap { ForgeLink.commitURL(remote: $0, commit: run.head) })
      head += " <span class=\"muted\">on</span> \(run.branch)"
      head += commitName(run, subjectLength: listSubjectLength)
      let failures = entry.target.failures.prefix(3).map { failure -> Markup in "<li>\(failure)</li>" }
      var failureList: Markup = failures.isEmpty ? "" : "<ul class=\"failures\">\(Array(failures))</ul>"
      if entry.target.failures.count > 3 {
        failureList += "<span class=\"muted\">and \(entry.target.failures.count - 3) more</span>"
      }
      let duration: Markup = entry.target.duration.map { "\(Formatting.duration($0))" } ?? Page.dash
      body += """
        <tr class="run" data-run="\(run.id)"><td class="nowrap"><a href="/runs/\(run.id)#\(GraphSVG.anchor(for: entry.target.key))">#\(run.id)</a></td>\
        <td>\(Page.stateBadge(run.state))</td><td class="nowrap head">\(head)</td>\
        <td class="nowrap">\(Page.time(run.queuedAt, now: now))</td><td>\(Page.targetBadge(entry.target.status))</td>\
        <td class="nowrap">\(duration)</td>\
        <td>\(failureList)</td></tr>

        """
    }
    body += "</tbody></table></div>\n</main>"
    return Page.render(title: "\(name) · \(repository) · rippled", refreshSeconds: nil, now: now, body: body)
  }

  /// One bar per run, oldest on the left, its height the target's duration, its colour the target's status; on
  /// the history charts' axes (durations up the left, runs along the bottom, the newest and every few labelled).
  static func durationBars(_ runs: [TargetRun]) -> Markup {
    let ordered = Array(runs.reversed())
    let longest = ordered.compactMap(\.target.duration).max() ?? 0
    guard longest > 0 else { return .empty }
    let scale = ChartScale.make(maximum: longest, unit: .seconds)
    let p = BarChart.plot
    let slotWidth = (p.right - p.left) / Double(ordered.count)
    let barWidth = min(12, max(1, slotWidth * 0.7))
    let every = max(1, Int((Double(ordered.count) / 8).rounded(.up)))
    var bars: Markup = "<g class=\"rc-bars\">"
    for (index, entry) in ordered.enumerated() {
      let duration = entry.target.duration ?? 0
      let barHeight = max(2, scale.position(duration, length: p.bottom - p.top))
      let kind = entry.target.status.map { $0 == .skipped ? "notRun" : $0.rawValue } ?? "pending"
      let middle = p.left + (Double(index) + 0.5) * slotWidth
      bars += """
        <rect class="tb tb-\(kind)" x="\(coordinate: middle - barWidth / 2)" y="\(coordinate: p.bottom - barHeight)" \
        width="\(coordinate: barWidth)" height="\(coordinate: barHeight)"><title>#\(entry.run.id): \
        \(GraphStyle.statusText(entry.target.status)), \
        \(entry.target.duration.map { Formatting.duration($0) } ?? "no duration")</title></rect>
        """
      if (ordered.count - 1 - index) % every == 0 {
        let label = "#\(entry.run.id)"
        let half = BarChart.textWidth(label) / 2
        bars += """
          <text class="rc-tick" x="\(coordinate: min(max(middle, half + 2), BarChart.width - half - 2))" \
          y="\(coordinate: p.bottom + 14)" text-anchor="middle">\(label)</text>
          """
      }
    }
    let title = "Duration per run, oldest first, up to \(Formatting.duration(longest))"
    return """
      <div class="card graph target-bars">\(BarChart.open(kind: "target", title: title))\
      \(BarChart.axes(scale, valueTitle: "duration", categoryTitle: "run, oldest to newest"))\(bars)</g></svg></div>

      """
  }
}
