import Foundation
import RippleCore

/// `ripple test --summary-md FILE`: the run for a pull request comment or a CI job summary (GitHub's
/// `$GITHUB_STEP_SUMMARY`). A headline, a table per test target, the failures with where they happened,
/// flaky and quarantined tests, cached targets, and the wall-clock line; what the selection was made of is
/// appended by the caller (`AffectedFormatter.markdown`). Every name and message is escaped.
public enum MarkdownSummary {
  /// Failures listed in full; the rest are counted.
  public static let failureLimit = 50

  public static func render(_ result: TestRunResult, nothingMessage: String? = nil) -> String {
    let totals = result.totals
    let ok = (try? result.check()) != nil
    var out = "### Ripple test: " + (ok ? "passed" : result.cancelled ? "interrupted" : "failed") + " — "
    out += "\(totals.tests) tests, \(totals.passed) passed, \(totals.failed) failed, \(totals.skipped) skipped"
    if totals.flaky > 0 { out += ", \(totals.flaky) flaky" }
    if totals.quarantined > 0 { out += ", \(totals.quarantined) quarantined" }
    if !result.cached.isEmpty { out += "; \(result.cached.count) cached" }
    out += " in \(SummaryRenderer.format(result.duration))"
    if let shard = result.shard { out += " (shard \(shard))" }
    out += "\n\n"
    if result.packages.isEmpty && result.cached.isEmpty {
      out += text(nothingMessage ?? "Nothing was run.") + "\n"
    }
    let rows = result.packages.flatMap { package in package.targets.map { (package, $0) } }
    if !rows.isEmpty {
      out += "| Test target | Package | Tests | Passed | Failed | Skipped | Time |\n|---|---|--:|--:|--:|--:|--:|\n"
      for (package, target) in rows {
        let counts = TestTotals(target.tests)
        out +=
          "| `\(code(target.name))` | \(cell(package.label)) | \(counts.tests) | \(counts.passed) | \(counts.failed) "
          + "| \(counts.skipped) | \(SummaryRenderer.format(target.duration)) |\n"
      }
    }
    for package in result.packages where package.status == .buildFailed {
      out += "\n**Build failed:** \(cell(package.label))\n\n"
      out += fenced(
        (package.buildErrors.isEmpty ? [package.message ?? ""] : package.buildErrors).joined(separator: "\n"))
    }
    let failing = rows.flatMap { package, target in
      target.tests.filter { $0.status == .failed }.map { (package, target, $0) }
    }
    if !failing.isEmpty {
      out += "\n**Failures**\n\n"
      for (_, target, test) in failing.prefix(failureLimit) {
        let first = test.failures.first
        let place = first?.location.map { " (\(text($0)))" } ?? ""
        let message = first.map { ": " + text(firstLine($0.message)) } ?? ""
        out += "- `\(code(test.identifier(target: target.name)))`\(place)\(message)\n"
      }
      if failing.count > failureLimit { out += "- … and \(failing.count - failureLimit) more\n" }
    }
    let flaky = rows.flatMap { _, target in target.tests.filter(\.flaky).map { test in (target, test) } }
    if !flaky.isEmpty {
      out += "\n**Flaky** (passed on a retry): "
      out += flaky.map { "`\(code($0.1.identifier(target: $0.0.name)))`" }.joined(separator: ", ") + "\n"
    }
    if !result.cached.isEmpty {
      out += "\n**Cached** (passed before at this content): "
      out += result.cached.map { "`\(code($0.name))`" }.joined(separator: ", ") + "\n"
    }
    out += BelowTargetRendering.markdown(result.belowTarget)
    if let wallClock = result.wallClock { out += "\n" + text(wallClock.sentence) + "\n" }
    return out
  }

  static func firstLine(_ text: String) -> String {
    let line = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
    return line.count > 300 ? String(line.prefix(300)) + "…" : line
  }

  /// Escaped for markdown, and quoted (`TerminalText`): names and sentences can come from a pass record.
  static func text(_ value: String) -> String {
    TerminalText.quoted(value).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  static func cell(_ value: String) -> String {
    text(value).replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }

  static func code(_ value: String) -> String { TerminalText.quoted(value).replacingOccurrences(of: "`", with: "'") }

  /// A fenced block whose fence is longer than any run of backticks inside.
  static func fenced(_ body: String) -> String {
    var fence = "```"
    while body.contains(fence) { fence += "`" }
    return fence + "\n" + body + "\n" + fence + "\n"
  }
}
