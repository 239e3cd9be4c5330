import Foundation
import RunModel

extension Dashboard {
  /// Days of misses the dashboard's panel shows.
  public static let missPanelDays = 30

  /// The dashboard's miss panel: the selection misses canaries found in the last 30 days (the caller passes
  /// those), each linking the run that left the target out, its commit, and the canary that saw it fail.
  static func missPanel(_ misses: [SelectionMiss], now: Date) -> Markup {
    guard !misses.isEmpty else { return "" }
    let rows = misses.map { miss -> Markup in
      """
      <tr><td><span class="name">\(miss.target)</span></td>\
      <td><a href="/runs/\(miss.runID)">#\(miss.runID)</a> \(Page.commit(miss.commit))</td>\
      <td><a href="/runs/\(miss.canaryID)">canary #\(miss.canaryID)</a></td>\
      <td>\(Page.time(miss.foundAt, now: now))</td></tr>

      """
    }
    return """
      <section class="misses" id="misses"><h2>Selection misses <span class="muted">· \(misses.count) in the last \
      \(missPanelDays) days</span></h2>
      <div class="card scroll"><table class="miss-table">
      <thead><tr><th>Test target</th><th>Left out by</th><th>Failed in</th><th>Found</th></tr></thead>
      <tbody>
      \(rows)</tbody></table></div></section>

      """
  }

  /// A run page's misses: what this canary found, or which failing targets this run left out.
  static func runMisses(_ misses: [SelectionMiss], run: RunRecord) -> Markup {
    guard !misses.isEmpty else { return "" }
    let items = misses.map { miss -> Markup in
      if miss.canaryID == run.id {
        return """
          <li><strong>\(miss.target)</strong> failed here; <a href="/runs/\(miss.runID)">run #\(miss.runID)</a> \
          (\(Page.commit(miss.commit))) left it out and passed</li>
          """
      }
      return """
        <li>This run left out <strong>\(miss.target)</strong>, which failed in \
        <a href="/runs/\(miss.canaryID)">canary #\(miss.canaryID)</a></li>
        """
    }
    return """
      <div class="box warn" id="run-misses"><strong>Selection misses</strong><ul>\(items)</ul></div>

      """
  }
}
