import Foundation
import RunModel

extension Dashboard {
  /// `/?repository=…&branch=…&state=…&before=…`: the runs a filter picks, newest first, `RunFilter.pageSize` a page,
  /// grouped by repository and branch as on the dashboard, with the filter form and links to the newest and the
  /// older runs. `hasOlder`: more runs match past the last one shown.
  public static func runList(
    filter: RunFilter, runs: [RunRecord], hasOlder: Bool, repositories: [String], now: Date,
    remotes: [String: String] = [:]
  ) -> String {
    var body = topBar(status: nil)
    body += """
      <main>
      <nav class="crumbs"><a href="/">Dashboard</a> / runs</nav>
      <div class="run-head"><h1>Runs</h1><span class="muted">\(filter.summary)</span></div>

      """
    body += filterForm(filter, repositories: repositories)
    if runs.isEmpty {
      body += "<div class=\"box plain\" id=\"no-runs\">No runs match \(filter.summary).</div>\n"
    }
    var byRepository: [String: [RunRecord]] = [:]
    for run in runs { byRepository[run.repository, default: []].append(run) }
    for name in byRepository.keys.sorted() {
      body += repository(
        name: name, status: nil, runs: byRepository[name] ?? [], now: now, runsPerBranch: RunFilter.pageSize,
        remote: remotes[name])
    }
    var links: [Markup] = []
    if filter.before != nil { links.append("<a id=\"newest\" href=\"\(filter.url())\">Newest runs</a>") }
    if hasOlder, let last = runs.last {
      links.append("<a id=\"older\" href=\"\(filter.url(before: last.id))\">Older runs →</a>")
    }
    if !links.isEmpty { body += "<nav class=\"pager\">\(links.joined(separator: " · "))</nav>\n" }
    body += "</main>"
    return Page.render(
      title: "Runs · \(filter.summary) · rippled", refreshSeconds: filter.before == nil ? refreshSeconds : nil,
      now: now, body: body)
  }

  /// A form that asks `/` for a filter (GET): repository, branch, state.
  static func filterForm(_ filter: RunFilter, repositories: [String]) -> Markup {
    func option(_ value: String, _ label: String, selected: Bool) -> Markup {
      "<option value=\"\(value)\"\(selected ? " selected=\"selected\"" as Markup : "")>\(label)</option>"
    }
    var names = repositories
    if let repository = filter.repository, !names.contains(repository) { names.append(repository) }
    let repositoryOptions =
      [option("", "any", selected: filter.repository == nil)]
      + names.map { option($0, $0, selected: $0 == filter.repository) }
    let stateOptions =
      [option("", "any", selected: filter.states.isEmpty)]
      + RunState.allCases.map { option($0.rawValue, $0.rawValue, selected: $0 == filter.states.first) }
    return """
      <form class="filters" method="get" action="/">\
      <label>Repository <select name="repository">\(repositoryOptions)</select></label>\
      <label>Branch <input type="text" name="branch" value="\(filter.branch ?? "")" placeholder="any"/></label>\
      <label>State <select name="state">\(stateOptions)</select></label>\
      <button type="submit" class="quiet">Filter</button>\
      \(filter == RunFilter() ? Markup.empty : "<a href=\"/\">Clear</a>")</form>

      """
  }
}
