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

  /// One bar per run, oldest on the left, its height the target's duration, its colour the target's status.
  static func durationBars(_ runs: [TargetRun]) -> Markup {
    let ordered = runs.reversed()
    let longest = ordered.compactMap(\.target.duration).max() ?? 0
    guard longest > 0 else { return .empty }
    let barWidth = 12.0
    let gap = 4.0
    let height = 80.0
    let width = Double(ordered.count) * (barWidth + gap)
    var bars: Markup = ""
    for (index, entry) in ordered.enumerated() {
      let duration = entry.target.duration ?? 0
      let barHeight = max(2, duration / longest * height)
      let kind = entry.target.status.map { $0 == .skipped ? "notRun" : $0.rawValue } ?? "pending"
      bars += """
        <rect class="tb tb-\(kind)" x="\(coordinate: Double(index) * (barWidth + gap))" \
        y="\(coordinate: height - barHeight)" width="\(coordinate: barWidth)" height="\(coordinate: barHeight)">\
        <title>#\(entry.run.id): \(GraphStyle.statusText(entry.target.status)), \
        \(entry.target.duration.map { Formatting.duration($0) } ?? "no duration")</title></rect>
        """
    }
    return """
      <div class="card graph target-bars"><svg xmlns="http://www.w3.org/2000/svg" width="\(coordinate: width)" \
      height="\(coordinate: height)" viewBox="0 0 \(coordinate: width) \(coordinate: height)" role="img" \
      aria-label="Duration per run, oldest first, up to \(Formatting.duration(longest))">\(bars)</svg></div>

      """
  }
}
