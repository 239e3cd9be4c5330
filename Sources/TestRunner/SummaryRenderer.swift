import Foundation
import RippleCore

/// The end-of-run text for people: a table per test target, then failures with file:line, then flaky
/// tests (with their first failure), quarantined failures and build failures. Pure.
public enum SummaryRenderer {
  public static func render(_ result: TestRunResult, now: Date = Date()) -> String {
    let notRunHere = result.notRunHere.map { $0.sentence + "\n" }.joined()
    let cached = result.cached.map { "cached: \(label($0)) \($0.sentence(now: now))\n" }.joined()
    let below = BelowTargetRendering.summary(result.belowTarget)
    if result.nothingAffected || (result.packages.isEmpty && !cached.isEmpty) {
      if !cached.isEmpty {
        return cached + "\nEvery selected test target passed before at this content: nothing was built or run.\n"
          + notRunHere + below
      }
      if !notRunHere.isEmpty { return "Nothing this host can run was selected.\n" + notRunHere + below }
      if !below.isEmpty {
        return "No test of the selected test targets executed what changed: nothing was built or run.\n" + below
      }
      return "No test target is affected: nothing was built or run.\n"
    }
    var out = ""
    var rows: [[String]] = [["package", "test target", "tests", "passed", "failed", "skipped", "duration"]]
    for package in result.packages {
      if package.status == .buildFailed || package.status == .error {
        rows.append([package.label, "(build failed)", "-", "-", "-", "-", format(package.buildDuration)])
        continue
      }
      for target in package.targets {
        let t = target.totals
        rows.append([
          package.label, target.name, "\(t.tests)", "\(t.passed)", "\(t.failed)", "\(t.skipped)",
          format(target.duration),
        ])
      }
      if package.status == .cancelled && package.targets.isEmpty {
        rows.append([package.label, "(cancelled)", "-", "-", "-", "-", "-"])
      }
    }
    out += table(rows)

    var failures: [String] = []
    var flaky: [String] = []
    var quarantined: [String] = []
    for package in result.packages {
      for target in package.targets {
        for test in target.tests {
          let id = test.identifier(target: target.name)
          if test.status == .failed {
            failures.append("✘ \(id)" + (package.path == "." ? "" : "  (\(package.path))"))
            for failure in test.failures { failures.append(indent(failure)) }
          } else if test.status == .quarantined {
            quarantined.append("◌ \(id) failed, quarantined: \(test.quarantine ?? "test.quarantine")")
            for failure in test.failures { quarantined.append(indent(failure)) }
          } else if test.flaky {
            let attempts = test.attempts - 1
            flaky.append(
              "~ \(id) passed on attempt \(test.attempts) after failing \(attempts == 1 ? "once" : "\(attempts) times"); first failure:"
            )
            for failure in test.failures { flaky.append(indent(failure)) }
          }
        }
      }
    }
    if !failures.isEmpty { out += "\nFailures:\n" + failures.joined(separator: "\n") + "\n" }
    if !flaky.isEmpty { out += "\nFlaky (passed on retry):\n" + flaky.joined(separator: "\n") + "\n" }
    if !quarantined.isEmpty {
      out += "\nQuarantined (failed, not failing the run):\n" + quarantined.joined(separator: "\n") + "\n"
    }
    for package in result.packages where package.status == .buildFailed {
      out += "\nBuild failed: \(package.path == "." ? "root package" : "package \(package.path)")\n"
      out +=
        (package.buildErrors.isEmpty ? [package.message ?? ""] : package.buildErrors).map { "  " + $0 }
        .joined(separator: "\n") + "\n"
    }
    for package in result.packages where package.status == .noTestsRan {
      out +=
        "\nNo test ran in \(package.path == "." ? "the root package" : "package \(package.path)"): "
        + "the filter \(package.filter ?? "(none)") matched nothing.\n"
    }
    if !notRunHere.isEmpty { out += "\n" + notRunHere }
    if !cached.isEmpty { out += "\n" + cached }
    out += below
    let totals = result.totals
    out += "\n\(totals.tests) tests, \(totals.passed) passed, \(totals.failed) failed, \(totals.skipped) skipped"
    if totals.flaky > 0 { out += ", \(totals.flaky) flaky" }
    if totals.quarantined > 0 { out += ", \(totals.quarantined) quarantined" }
    if !result.cached.isEmpty {
      out += "; \(result.cached.count) target\(result.cached.count == 1 ? "" : "s") cached"
    }
    out += " in \(format(result.duration))"
    if let shard = result.shard { out += " (shard \(shard))" }
    if result.cancelled { out += " — interrupted, results are partial" }
    if let wallClock = result.wallClock { out += "\n" + wallClock.sentence }
    return out + "\n"
  }

  /// `Target`, `Target (pkg/dir)`, with its run when it has one.
  static func label(_ target: CachedTarget) -> String {
    TerminalText.quoted(
      target.name + (target.package == "." ? "" : " (\(target.package))") + (target.run.map { " [\($0)]" } ?? ""))
  }

  static func indent(_ failure: TestFailure) -> String {
    let lines = failure.message.split(separator: "\n", omittingEmptySubsequences: false)
    let head = failure.location.map { "\($0): " } ?? ""
    return lines.enumerated().map { index, line in "    " + (index == 0 ? head : "  ") + line }.joined(separator: "\n")
  }

  static func format(_ seconds: Double) -> String {
    seconds < 60 ? String(format: "%.2fs", seconds) : String(format: "%dm%02ds", Int(seconds) / 60, Int(seconds) % 60)
  }

  /// Left-aligned text columns, right-aligned numbers.
  static func table(_ rows: [[String]]) -> String {
    guard let header = rows.first else { return "" }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        let pad = String(repeating: " ", count: widths[column] - cell.count)
        return column >= 2 ? pad + cell : cell + pad
      }.joined(separator: "  ").trimmingTrailingWhitespace()
    }.joined(separator: "\n") + "\n"
  }
}
