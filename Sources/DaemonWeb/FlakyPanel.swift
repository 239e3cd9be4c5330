import Foundation
import RunModel

extension Dashboard {
  /// Days of runs the flaky panel counts.
  public static let flakyPanelDays = 30

  /// A repository's flaky tests over the last 30 days (the caller passes those, flakiest first): flake rate,
  /// flaky runs of runs, first and last seen, and the last flaky run with what failed there first.
  static func flakyPanel(_ tests: [FlakyTest], repository: String, now: Date) -> Markup {
    guard !tests.isEmpty else { return "" }
    let rows = tests.map { test -> Markup in
      let package: Markup = test.package == "." ? "" : "<span class=\"pkg\">\(test.package)</span>"
      let failure: Markup = test.lastFailure.map { "<ul class=\"failures\"><li>\($0)</li></ul>" } ?? ""
      return """
        <tr><td><span class="name">\(test.test)</span>\(package)\(failure)</td>\
        <td class="num">\(String(format: "%.0f%%", test.rate * 100))</td>\
        <td class="num">\(test.flakyRuns) of \(test.runs)</td>\
        <td>\(Page.time(test.firstSeen, now: now))</td><td>\(Page.time(test.lastSeen, now: now))</td>\
        <td>\(lastRun(test))</td></tr>

        """
    }
    return """
      <section class="misses flaky" id="flaky-\(repository)"><h2>Flaky tests in \(repository) \
      <span class="muted">· \(tests.count) in the last \(flakyPanelDays) days</span></h2>
      <div class="card scroll"><table class="miss-table">
      <thead><tr><th>Test</th><th class="num" title="flaky runs / runs">Rate</th><th class="num">Flaky</th>\
      <th>First seen</th><th>Last seen</th><th>Last flaky run</th></tr></thead>
      <tbody>
      \(rows)</tbody></table></div></section>

      """
  }

  /// The run's link; a test only CI runners saw flaky (the team's shared history) has no run here.
  static func lastRun(_ test: FlakyTest) -> Markup {
    test.lastRun > 0
      ? "<a href=\"/runs/\(test.lastRun)\">#\(test.lastRun)</a>"
      : "<span class=\"muted\" title=\"from the team's shared history (CI runners)\">CI</span>"
  }

  /// A run page's tests that did not simply pass although the run may have: flaky and quarantined ones.
  static func runTests(_ tests: [TestOutcome]) -> Markup {
    let shown = tests.filter { $0.kind == .flaky || $0.kind == .quarantined }
    guard !shown.isEmpty else { return "" }
    let items = shown.map { test -> Markup in
      let what: Markup =
        test.kind == .flaky ? "flaky: failed, then passed on a retry" : "quarantined: failed, not failing the run"
      let failure: Markup = test.failure.map { "<ul class=\"failures\"><li>\($0)</li></ul>" } ?? ""
      return "<li><strong>\(test.test)</strong> \(what)\(failure)</li>"
    }
    let flaky = shown.filter { $0.kind == .flaky }.count
    let quarantined = shown.count - flaky
    var title: [String] = []
    if flaky > 0 { title.append("\(flaky) flaky test\(flaky == 1 ? "" : "s")") }
    if quarantined > 0 { title.append("\(quarantined) quarantined") }
    return """
      <div class="box warn" id="run-flaky"><strong>\(title.joined(separator: ", "))</strong><ul>\(items)</ul></div>

      """
  }
}
