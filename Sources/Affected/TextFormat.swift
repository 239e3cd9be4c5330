extension AffectedFormatter {
  /// `--format text`, for people: a counts line, why everything runs (if it does), the test targets
  /// grouped by package with their first reason, removed targets, then warnings. ANSI colours only when
  /// `color` is true (a terminal).
  public static func text(_ report: AffectedReport, color: Bool) -> String {
    let style = Style(enabled: color)
    var lines: [String] = [style.dim(comparison(report))]
    lines.append(
      style.bold(
        "\(count(report.changedFiles.count, "changed file")) → \(count(report.targets.count, "affected target")), "
          + count(report.testTargets.count, "test target")))
    if report.runAll {
      lines.append(style.yellow("Running every test target: ") + report.runAllReasons.joined(separator: "; "))
    }
    var package: String?
    for target in report.testTargets {
      if target.package != package {
        package = target.package
        lines.append(style.cyan(packageTitle(target.package, report)))
      }
      lines.append("  " + style.green(target.name) + style.dim("  " + (target.reasons.first ?? "")))
    }
    if report.testTargets.isEmpty { lines.append("No test target is affected.") }
    for removed in report.removedTargets {
      lines.append(style.dim("removed: \(removed.package):\(removed.name)"))
    }
    for warning in report.warnings { lines.append(style.yellow("warning: ") + warning) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A package by its name where the manifest gives one: `App (root package)`, `Core (Packages/Core)`; else its
  /// path (`. (root package)`).
  static func packageTitle(_ path: String, _ report: AffectedReport) -> String {
    let name = report.packageNames?[path]
    if path == "." { return "\(name ?? ".") (root package)" }
    return name.map { "\($0) (\(path))" } ?? path
  }

  /// What was compared: `Comparing the working tree with 1a2b3c4d5e (their merge-base 9f8e7d6c5b)`.
  public static func comparison(_ report: AffectedReport) -> String {
    let head = report.head == "worktree" ? "the working tree" : String(report.head.prefix(10))
    var line = "Comparing \(head) with \(report.base.prefix(10))"
    if let mergeBase = report.mergeBase, mergeBase != report.base {
      line += " (their merge-base \(mergeBase.prefix(10)))"
    }
    if let source = report.baseSource { line += "\n  " + source }
    return line
  }

  private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

  /// ANSI SGR sequences, or nothing when colour is off.
  private struct Style {
    var enabled: Bool
    func bold(_ s: String) -> String { wrap(s, "1") }
    func dim(_ s: String) -> String { wrap(s, "2") }
    func green(_ s: String) -> String { wrap(s, "32") }
    func yellow(_ s: String) -> String { wrap(s, "33") }
    func cyan(_ s: String) -> String { wrap(s, "36") }
    private func wrap(_ s: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
  }
}
