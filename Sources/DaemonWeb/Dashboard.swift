import Foundation
import RunModel

/// The HTML pages of the daemon's web interface. Pure: values in, a complete page out.
///
/// Every page is HTML5 that also parses as XML (XHTML), has one inline stylesheet and no script, and escapes every
/// string that comes from data.
public enum Dashboard {
  /// The policy the pages are written for; send it as the `Content-Security-Policy` header of every page.
  /// Scripts and fetches only from rippled itself (`/static/live-log.js` following `/api/runs/{id}/log`), forms
  /// only to it (log in, re-run, cancel).
  public static let contentSecurityPolicy = metaContentSecurityPolicy + "; frame-ancestors 'none'"
  /// The same policy in each page's `<meta http-equiv>` (which cannot carry `frame-ancestors`).
  static let metaContentSecurityPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; script-src 'self'; connect-src 'self'; "
    + "base-uri 'none'; form-action 'self'"
  /// Seconds between the automatic reloads of the index page (and of the page of a live run).
  public static let refreshSeconds = 5
  /// Runs listed per branch on the index page.
  public static let runsPerBranch = 8

  // MARK: - Index

  /// `/`: header (ready/healthy, problems, current activity, queue length, running runs), then per repository and
  /// branch the most recent runs (newest first): id, state, head and base, trigger, when queued, duration,
  /// "N of M" test targets, failed tests, reason. Branches are ordered by their newest run.
  public static func index(
    status: DaemonStatus, runs: [RunRecord], now: Date, misses: [SelectionMiss] = [],
    flaky: [String: [FlakyTest]] = [:], history: [String: RepositoryHistory] = [:], remotes: [String: String] = [:]
  ) -> String {
    index(
      status: status, runs: runs, now: now, runsPerBranch: runsPerBranch, misses: misses, flaky: flaky,
      history: history, remotes: remotes)
  }

  /// `remotes`: repository name → its remote's URL, for the links to each commit on its forge (`ForgeLink`).
  public static func index(
    status: DaemonStatus, runs: [RunRecord], now: Date, runsPerBranch: Int, misses: [SelectionMiss] = [],
    flaky: [String: [FlakyTest]] = [:], history: [String: RepositoryHistory] = [:], remotes: [String: String] = [:]
  ) -> String {
    var body = topBar(status: status)
    body += "<main>\n"
    body += stats(status: status, now: now)
    if !status.problems.isEmpty {
      let items = status.problems.map { problem -> Markup in "<li>\(problem)</li>" }
      body += "<div class=\"box problem\"><strong>Needs attention</strong><ul>\(items)</ul></div>\n"
    }
    body += missPanel(misses, now: now)
    let repositoryNames = Set(status.repositories.map(\.name)).union(runs.map(\.repository)).sorted()
    if !repositoryNames.isEmpty { body += filterForm(RunFilter(), repositories: repositoryNames) }

    var byRepository: [String: [RunRecord]] = [:]
    for run in runs { byRepository[run.repository, default: []].append(run) }
    let known = Dictionary(status.repositories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let names = Set(known.keys).union(byRepository.keys).sorted()
    if names.isEmpty {
      body += "<div class=\"box plain\">No repositories are configured, and no runs are recorded.</div>\n"
    }
    for name in names {
      body += repository(
        name: name, status: known[name], runs: byRepository[name] ?? [], now: now, runsPerBranch: runsPerBranch,
        history: history[name], remote: remotes[name])
      body += flakyPanel(flaky[name] ?? [], repository: name, now: now)
    }
    body += "</main>"
    let title = status.healthy ? "rippled" : "rippled — needs attention"
    return Page.render(title: title, refreshSeconds: refreshSeconds, now: now, body: body)
  }

  static func topBar(status: DaemonStatus?) -> Markup {
    var bar: Markup = "<header class=\"top\"><a class=\"brand\" href=\"/\">rippled</a>"
    if let status {
      bar += "<span class=\"version\">\(status.version)</span>"
      bar += status.ready ? "<span class=\"pill good\">ready</span>" : "<span class=\"pill wait\">starting</span>"
      bar += status.healthy ? "<span class=\"pill good\">healthy</span>" : "<span class=\"pill bad\">unhealthy</span>"
      if !status.activity.isEmpty { bar += "<span class=\"activity\">\(status.activity)</span>" }
    }
    return bar + "</header>\n"
  }

  private static func stats(status: DaemonStatus, now: Date) -> Markup {
    let running: Markup =
      status.running.isEmpty
      ? "0"
      : status.running.sorted().map { id -> Markup in "<a href=\"/runs/\(id)\">#\(id)</a>" }.joined(separator: " ")
    return """
      <div class="stats">\
      <div class="stat"><div class="label">Queue</div><div class="value">\(status.queueLength)</div></div>\
      <div class="stat"><div class="label">Running</div><div class="value">\(running)</div></div>\
      <div class="stat"><div class="label">Repositories</div>\
      <div class="value">\(status.repositories.count)</div></div>\
      <div class="stat"><div class="label">Started</div>\
      <div class="value small">\(Page.time(status.startedAt, now: now))</div></div>\
      </div>

      """
  }

  static func repository(
    name: String, status: RepositoryStatus?, runs: [RunRecord], now: Date, runsPerBranch: Int,
    history: RepositoryHistory? = nil, remote: String? = nil
  ) -> Markup {
    var out: Markup = "<section class=\"repo\">\n<div class=\"repo-head\"><h2>\(name)</h2>"
    if let status {
      out += "<span class=\"muted\">\(status.source)</span>"
      if let lastCheck = status.lastCheck {
        out += "<span class=\"muted\">checked \(Page.time(lastCheck, now: now))</span>"
      }
      if let lastError = status.lastError { out += "<span class=\"repo-error\">\(lastError)</span>" }
    }
    out += "</div>\n"

    var byBranch: [String: [RunRecord]] = [:]
    for run in runs { byBranch[run.branch, default: []].append(run) }
    for branch in byBranch.keys { byBranch[branch]!.sort(by: newestFirst) }
    let heads = status?.heads ?? [:]
    // Branches with runs by their newest run, then branches only seen (no run yet) by name.
    let withRuns = byBranch.keys.sorted { lhs, rhs in
      let a = byBranch[lhs]![0]
      let b = byBranch[rhs]![0]
      return a.queuedAt != b.queuedAt ? a.queuedAt > b.queuedAt : lhs < rhs
    }
    let withoutRuns = heads.keys.filter { byBranch[$0] == nil }.sorted()
    if withRuns.isEmpty && withoutRuns.isEmpty {
      return out + "<div class=\"box plain\">No runs yet.</div>\n</section>\n"
    }

    out += """
      <div class="card scroll"><table class="runs">
      <colgroup><col class="c-run"/><col class="c-state"/><col class="c-head"/><col class="c-trigger"/>\
      <col class="c-queued"/><col class="c-duration"/><col class="c-tests"/><col class="c-failed"/><col/></colgroup>
      <thead><tr><th>Run</th><th>State</th><th>Head</th><th>Trigger</th><th>Queued</th><th>Duration</th>\
      <th title="test targets run, of the test targets in the graph">Tests</th>\
      <th class="num" title="failed tests">Failed</th><th>Reason</th></tr></thead>

      """
    for branch in withRuns + withoutRuns {
      let branchRuns = byBranch[branch] ?? []
      let branchURL = RunFilter(repository: name, branch: branch).url()
      out += """
        <tbody class="branch" data-branch="\(branch)">
        <tr class="group"><th colspan="9"><a class="branch-link" href="\(branchURL)">\(branch)</a>
        """
      if let head = heads[branch], head != branch {
        out += " <span class=\"muted\">· head</span> \(Page.commit(head))"
      }
      if branchRuns.count > runsPerBranch {
        out += """
           <span class="muted">· latest \(runsPerBranch) of \(branchRuns.count) runs ·</span> \
          <a class="more" href="\(branchURL)">all runs</a>
          """
      }
      out += "</th></tr>\n"
      if branchRuns.isEmpty {
        out += "<tr><td colspan=\"9\" class=\"muted\">No runs yet.</td></tr>\n"
      }
      for run in branchRuns.prefix(runsPerBranch) { out += runRow(run, now: now, remote: remote) }
      out += "</tbody>\n"
    }
    out += "</table></div>\n"
    if let history { out += historyPanel(history, repository: name) }
    return out + "</section>\n"
  }

  static func newestFirst(_ a: RunRecord, _ b: RunRecord) -> Bool {
    a.queuedAt != b.queuedAt ? a.queuedAt > b.queuedAt : a.id > b.id
  }

  /// Characters of a commit's subject the runs list shows (the rest is cut, with an ellipsis; the run page has it all).
  static let listSubjectLength = 72

  private static func runRow(_ run: RunRecord, now: Date, remote: String?) -> Markup {
    var head = Page.commit(run.head, link: remote.flatMap { ForgeLink.commitURL(remote: $0, commit: run.head) })
    if let base = run.base { head += " <span class=\"muted\">from</span> \(Page.commit(base))" }
    head += commitName(run, subjectLength: listSubjectLength)
    let failed: Markup =
      switch run.failedTests {
      case nil: "<td class=\"num\">\(Page.dash)</td>"
      case 0?: "<td class=\"num\">0</td>"
      case let count?: "<td class=\"num fail\">\(count)</td>"
      }
    let targets = testTargets(
      selected: run.selectedTestTargets, total: run.totalTestTargets, cached: run.cachedTestTargets)
    let retry: Markup = run.attempt > 1 ? " <span class=\"muted\" title=\"attempt \(run.attempt)\">↻</span>" : ""
    return """
      <tr class="run" data-run="\(run.id)"><td class="nowrap"><a href="/runs/\(run.id)">#\(run.id)</a>\(retry)</td>\
      <td>\(Page.stateBadge(run.state))</td><td class="nowrap head">\(head)</td><td>\(run.trigger.rawValue)</td>\
      <td class="nowrap">\(Page.time(run.queuedAt, now: now))</td><td class="nowrap">\(duration(run, now: now))</td>\
      <td class="nowrap">\(targets)</td>\(failed)\
      <td class="reason">\(run.reason ?? "")</td></tr>

      """
  }

  /// The head commit's subject (cut to `subjectLength` characters with an ellipsis, when given) and author, on a line
  /// of their own; nothing before they are read, or when the mirror did not hold the commit.
  /// Both are a pusher's text: bidi controls are dropped and each is isolated (`<bdi>`), so a U+202E cannot turn
  /// the rest of the row around.
  static func commitName(_ run: RunRecord, subjectLength: Int?) -> Markup {
    let subject = Formatting.withoutBidiControls(run.subject ?? "")
    let author = Formatting.withoutBidiControls(run.author ?? "")
    guard !subject.isEmpty || !author.isEmpty else { return .empty }
    let shown = subjectLength.map { Formatting.truncated(subject, to: $0) } ?? subject
    var out: Markup = "<span class=\"commit-name\"><span class=\"subject\"><bdi>\(shown)</bdi></span>"
    if !author.isEmpty { out += " <span class=\"author\">· <bdi>\(author)</bdi></span>" }
    return out + "</span>"
  }

  /// Finished: start to finish. Running: "running 1 min 2 s". Otherwise a dash.
  private static func duration(_ run: RunRecord, now: Date) -> Markup {
    if let duration = run.duration { return "\(Formatting.duration(duration))" }
    if run.state == .running, let startedAt = run.startedAt {
      return "<span class=\"muted\">running</span> \(Formatting.duration(now.timeIntervalSince(startedAt)))"
    }
    return Page.dash
  }

  // MARK: - Run

  /// `/runs/{id}`: the run's facts, state timeline, changed files, run-all reasons and warnings, the affected graph,
  /// a table of targets with reasons and (test targets) status, duration and failures, and a link to the log.
  /// Works without analysis (a queued run). A live run's page refreshes itself.
  public static func run(_ detail: RunDetail, now: Date) -> String {
    run(detail, now: now, options: RunPageOptions())
  }

  /// The run page with the viewer's controls and the log so far (docs/DESIGN.md, "Web login").
  public static func run(_ detail: RunDetail, now: Date, options: RunPageOptions) -> String {
    let run = detail.run
    // A live log follows itself and reloads the page at the end; without a script the page refreshes.
    let refresh: Int? = run.state.isFinal ? nil : refreshSeconds
    let liveLog = options.log != nil && !run.state.isFinal
    var body = topBar(status: nil)
    body += "<main>\n"
    body += """
      <nav class="crumbs"><a href="/">Dashboard</a> / \(run.repository) / \(run.branch)</nav>
      <div class="run-head"><h1>Run #\(run.id)</h1>\(Page.stateBadge(run.state))
      """
    if run.attempt > 1 { body += "<span class=\"muted\">attempt \(run.attempt)</span>" }
    body += "</div>\n"
    if let reason = run.reason { body += "<p class=\"run-reason\">\(reason)</p>\n" }
    body += controls(run, loggedIn: options.loggedIn)
    body += facts(run, analysis: detail.analysis, now: now, remote: options.remote)
    body += runMisses(options.misses, run: run)
    body += runTests(options.tests)
    let log = logSection(run, tail: options.log)

    body += "<div class=\"columns\">\n<div>\n<h2>Timeline</h2>\n"
    body += timeline(detail.transitions, run: run, now: now)
    body += "</div>\n<div>\n"
    if let analysis = detail.analysis {
      body += changedFiles(analysis.changedFiles)
    }
    body += "</div>\n</div>\n"

    guard let analysis = detail.analysis else {
      let message =
        run.state == .queued
        ? "Waiting in the queue: the affected targets appear here once the run starts."
        : run.state == .running
          ? "Analysing: the affected targets appear here once they are known."
          : "No analysis was recorded for this run."
      body += "<h2>Affected targets</h2>\n<div class=\"box plain\">\(message)</div>\n\(log)</main>"
      return Page.render(
        title: "Run #\(run.id) · \(run.state.rawValue)", refreshSeconds: refresh, now: now, body: body,
        refreshOnlyWithoutScript: liveLog)
    }

    if !analysis.runAllReasons.isEmpty {
      let items = analysis.runAllReasons.map { reason -> Markup in "<li>\(reason)</li>" }
      body += "<div class=\"box info\"><strong>Every test was selected</strong><ul>\(items)</ul></div>\n"
    }
    if !analysis.warnings.isEmpty {
      let items = analysis.warnings.map { warning -> Markup in "<li>\(warning)</li>" }
      body += "<div class=\"box warn\"><strong>Warnings</strong><ul>\(items)</ul></div>\n"
    }

    let tests = analysis.targets.filter(\.isTest).count
    // Open by default; the picture keeps its size and the box scrolls both ways (a deep graph is taller and wider
    // than the page).
    body += """
      <details class="graph-box" open="open"><summary><h2>Affected graph \
      <span class="muted">· \(analysis.targets.count) targets, \(tests) test targets</span></h2></summary>
      <div class="card graph">\(Markup(trusted: GraphSVG.render(targets: analysis.targets, edges: analysis.edges, linkToAnchors: true)))</div>
      </details>

      """
    body += targetTable(analysis.targets, repository: run.repository)
    body += log
    body += "</main>"
    return Page.render(
      title: "Run #\(run.id) · \(run.state.rawValue)", refreshSeconds: refresh, now: now, body: body,
      refreshOnlyWithoutScript: liveLog)
  }

  private static func facts(_ run: RunRecord, analysis: RunAnalysis?, now: Date, remote: String?) -> Markup {
    func fact(_ label: String, _ value: Markup, wide: Bool = false, full: Bool = false) -> Markup {
      let width: Markup = full ? " class=\"full\"" : wide ? " class=\"wide\"" : ""
      return "<div\(width)><dt>\(label)</dt><dd>\(value)</dd></div>"
    }
    func when(_ date: Date?) -> Markup {
      guard let date else { return Page.dash }
      return "\(Formatting.relative(date, now: now))<span class=\"sub\">\(Formatting.utc(date))</span>"
    }
    let base = run.base ?? analysis?.base
    let selected = run.selectedTestTargets ?? analysis?.selectedTestTargets
    let total = run.totalTestTargets ?? analysis?.totalTestTargets
    let commit: (String) -> Markup = { "<code>\($0)</code>" }
    let log: Markup =
      run.logPath == nil && run.state == .queued
      ? "<span class=\"muted\">not started</span>" : "<a href=\"/api/runs/\(run.id)/log\">/api/runs/\(run.id)/log</a>"
    var attempt: Markup = "\(run.attempt)"
    if let retryOf = run.retryOf {
      attempt += " <span class=\"muted\">(repeats <a href=\"/runs/\(retryOf)\">#\(retryOf)</a>)</span>"
    }
    var head = commit(run.head)
    if let remote, let url = ForgeLink.commitURL(remote: remote, commit: run.head) {
      let forge = ForgeLink.repository(remote)?.forge == .gitlab ? "GitLab" : "GitHub"
      head += " <a class=\"forge\" href=\"\(url)\">on \(forge)</a>"
    }
    let name = commitName(run, subjectLength: nil)
    let items: [Markup] = [
      fact("Repository", "\(run.repository)"),
      fact("Branch", "\(run.branch)"),
      fact("Trigger", "\(run.trigger.rawValue)"),
      fact("Attempt", attempt),
      fact("Head", head, wide: true),
      fact(
        "Base",
        (base.map(commit) ?? Page.dash)
          + (analysis?.baseNote.map { note -> Markup in "<span class=\"sub\">\(note)</span>" } ?? .empty),
        wide: true),
      fact("Queued", when(run.queuedAt)),
      fact("Started", when(run.startedAt)),
      fact("Finished", when(run.finishedAt)),
      fact("Duration", duration(run, now: now)),
      fact("Build · tests", phases(run)),
      fact("Full suite", fullSuite(run)),
      fact("Test targets", testTargets(selected: selected, total: total, analysis: analysis)),
      fact("Failed tests", run.failedTests.map { "\($0)" } ?? Page.dash),
      fact("Line coverage", lineCoverage(run), wide: true),
      fact("Log", log, wide: true),
    ]
    if name != .empty {
      return "<dl class=\"card facts\">\(fact("Commit", name, full: true))\(items)</dl>\n"
    }
    return "<dl class=\"card facts\">\(items)</dl>\n"
  }

  /// "2 run, 4 cached of 10" for a run partly served from pass records; "6 of 10" otherwise.
  static func testTargets(selected: Int?, total: Int?, analysis: RunAnalysis?) -> Markup {
    testTargets(
      selected: selected, total: total, cached: analysis?.targets.filter { $0.isTest && $0.status == .cached }.count)
  }

  /// The same words in the runs list and on the run page: "2 run, 4 cached of 10", or "6 of 10".
  static func testTargets(selected: Int?, total: Int?, cached: Int?) -> Markup {
    guard let selected, let cached, cached > 0 else { return Page.count(selected, of: total) }
    let of: Markup = total.map { " <span class=\"muted\">of \($0)</span>" } ?? .empty
    return "\(max(selected - cached, 0)) run, \(cached) cached" + of
  }

  /// "build 1 min 2 s · tests 30 s" and a bar split the same way; a dash before the tests ended.
  static func phases(_ run: RunRecord) -> Markup {
    guard let build = run.buildSeconds, let tests = run.testSeconds else { return Page.dash }
    var out: Markup = "build \(Formatting.duration(build)) · tests \(Formatting.duration(tests))"
    let total = build + tests
    guard total > 0 else { return out }
    let width = 160.0
    let buildWidth = build / total * width
    out += """
      <svg xmlns="http://www.w3.org/2000/svg" class="phases" width="160" height="8" viewBox="0 0 160 8" role="img" \
      aria-label="build \(Int((build / total * 100).rounded()))%, tests \(Int((tests / total * 100).rounded()))%">\
      <rect class="ph-build" x="0" y="0" width="\(coordinate: buildWidth)" height="8"/>\
      <rect class="ph-test" x="\(coordinate: buildWidth)" y="0" width="\(coordinate: width - buildWidth)" height="8"/></svg>
      """
    return out
  }

  /// "71.3% · 812 of 1139 lines" and which test targets counted; "not measured" for a run without coverage.
  static func lineCoverage(_ run: RunRecord) -> Markup {
    guard let coverage = run.coverage else { return "<span class=\"muted\">not measured</span>" }
    let lines = "\(coverage.linesCovered) of \(coverage.linesTotal) lines"
    var out: Markup =
      coverage.percent.map { "\(HistoryCharts.percentText($0)) · \(lines)" } ?? "no line measured"
    var targets = "\(coverage.targetsMeasured) test targets measured"
    if coverage.isPartial {
      targets += ", \(coverage.targetsNotMeasured) not: partial, the files they reach are left out"
    }
    out += "<span class=\"sub\">\(targets)</span>"
    return out
  }

  /// "~14m 10s recorded test time; this selection ~1m 5s (92% saved)", from the timing history.
  static func fullSuite(_ run: RunRecord) -> Markup {
    guard let full = run.fullSuiteSeconds else { return "<span class=\"muted\">no timings recorded yet</span>" }
    var text = "~\(Formatting.duration(full)) of recorded test time"
    if let selected = run.selectedSeconds, full > 0 {
      text +=
        "; this selection ~\(Formatting.duration(selected)) "
        + "(\(HistoryCharts.percentSaved(full: full, selected: selected))% saved)"
    }
    return "\(text)"
  }

  private static func timeline(_ transitions: [RunTransition], run: RunRecord, now: Date) -> Markup {
    guard !transitions.isEmpty else {
      return "<div class=\"box plain\">No state changes recorded.</div>\n"
    }
    let ordered = transitions.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
    let origin = ordered[0].element.at
    var out: Markup = "<div class=\"card\"><ol class=\"timeline\">\n"
    for (_, transition) in ordered {
      let offset = transition.at.timeIntervalSince(origin)
      let from: Markup = transition.from.map { "<span class=\"muted\">\($0.rawValue) →</span> " } ?? ""
      out += """
        <li><span class="at" title="\(Formatting.utc(transition.at))">+\(Formatting.duration(offset))</span>\
        <span>\(from)\(Page.stateBadge(transition.to))</span>\
        <span class="note">\(transition.note ?? "")</span></li>

        """
    }
    return out + "</ol></div>\n"
  }

  private static func changedFiles(_ files: [String]) -> Markup {
    let heading: Markup = "<h2>Changed files <span class=\"muted\">· \(files.count)</span></h2>\n"
    guard !files.isEmpty else { return heading + "<div class=\"box plain\">No changed files.</div>\n" }
    let items = files.map { file -> Markup in "<li><code>\(file)</code></li>" }
    return heading + "<div class=\"card\"><ul class=\"files\">\(items)</ul></div>\n"
  }

  private static func targetTable(_ targets: [RunTarget], repository: String) -> Markup {
    func rank(_ target: RunTarget) -> Int {
      guard target.isTest else { return GraphStyle.isDirect(target) ? 3 : 4 }
      switch target.status {
      case .failed: return 0
      case .notRun, nil: return 1
      case .passed, .skipped, .cached: return 2
      }
    }
    var seen = Set<String>()
    let unique = targets.filter { seen.insert($0.key).inserted }
    let ordered = unique.sorted { (rank($0), $0.name, $0.package) < (rank($1), $1.name, $1.package) }
    var out: Markup = """
      <h2>Targets</h2>
      <div class="card scroll"><table class="targets">
      <colgroup><col class="c-target"/><col class="c-kind"/><col class="c-why"/><col class="c-status"/>\
      <col class="c-duration"/><col/></colgroup>
      <thead><tr><th>Target</th><th>Kind</th><th>Why</th><th>Status</th><th>Duration</th><th>Failures · notes</th></tr></thead>
      <tbody>

      """
    for target in ordered {
      let package: Markup = target.package == "." ? "" : "<span class=\"pkg\">\(target.package)</span>"
      let reasons = target.reasons.map { reason -> Markup in "<li>\(reason)</li>" }
      // A test target links to its history over the last runs.
      let history = targetURL(repository: repository, package: target.package, name: target.name)
      let nameCell: Markup =
        target.isTest ? "<a href=\"\(history)\" title=\"its last runs\">\(target.name)</a>" : "\(target.name)"
      let status: Markup = target.isTest ? Page.targetBadge(target.status) : Page.dash
      let duration: Markup = target.duration.map { "\(Formatting.duration($0))" } ?? Page.dash
      var failures: Markup = ""
      if !target.failures.isEmpty {
        let shown = target.failures.prefix(5).map { failure -> Markup in "<li>\(failure)</li>" }
        failures = "<ul class=\"failures\">\(Array(shown))</ul>"
        if target.failures.count > 5 {
          let rest = target.failures.dropFirst(5).map { failure -> Markup in "<li>\(failure)</li>" }
          failures += """
            <details><summary>\(target.failures.count - 5) more</summary><ul class="failures">\(rest)</ul></details>
            """
        }
      }
      // Why it did not run (cached: where it passed): a note, apart from failures and not in red.
      if let note = target.note { failures += "<p class=\"target-note muted\">\(note)</p>" }
      out += """
        <tr id="\(GraphSVG.anchor(for: target.key))"><td><span class="name">\(nameCell)</span>\(package)</td>\
        <td>\(target.kind)</td><td><ul class="reasons">\(reasons)</ul></td><td>\(status)</td>\
        <td class="nowrap">\(duration)</td><td>\(failures)</td></tr>

        """
    }
    return out + "</tbody></table></div>\n"
  }

  // MARK: - Errors

  /// A small 404/error page.
  public static func notFound(_ message: String) -> String {
    error(title: "Not found", message: message)
  }

  /// A small error page: a title and one message.
  public static func error(title: String, message: String) -> String {
    error(title: title, message: message, back: "/")
  }

  /// An error page with a way back (a run page) and, for `login`, a link to the login form that returns there.
  public static func error(title: String, message: String, back: String, login: Bool = false) -> String {
    let loginLink: Markup = login ? "<p><a id=\"login-link\" href=\"/login?next=\(back)\">Log in</a></p>\n" : ""
    let backText = back == "/" ? "Back to the dashboard" : "Back"
    let body: Markup = """
      \(topBar(status: nil))<main><div class="not-found"><h1>\(title)</h1>
      <p id="message">\(message)</p>
      \(loginLink)<p><a href="\(back)">\(backText)</a></p></div></main>
      """
    return Page.render(title: "\(title) · rippled", refreshSeconds: nil, now: nil, body: body)
  }
}
