import PackageModel

extension AffectedFormatter {
  /// Most nodes the Mermaid graph draws: GitHub renders larger graphs slowly or not at all.
  public static let markdownGraphLimit = 80

  /// `--format markdown`, for a pull request comment or a CI job summary: what was compared, a table of the
  /// selected test targets with every reason, and the graph from the changed targets to them (Mermaid, in a
  /// collapsed `<details>`). `result` gives the edges (each target's first path, as `--explain` follows it).
  public static func markdown(_ report: AffectedReport, result: AffectedResult? = nil) -> String {
    var out = "### Ripple: \(plural(report.testTargets.count, "test target")) affected by "
    out += "\(plural(report.changedFiles.count, "changed file"))\n\n"
    out += markdownText(comparison(report).replacingOccurrences(of: "\n  ", with: "; ")) + "\n\n"
    if report.runAll {
      out += "**Every test target runs:** " + markdownText(report.runAllReasons.joined(separator: "; ")) + "\n\n"
    }
    if report.testTargets.isEmpty {
      out += "No test target is affected.\n"
    } else {
      out += "| Package | Test target | Why |\n|---|---|---|\n"
      for target in report.testTargets {
        let reasons = target.reasons.map(markdownCell).joined(separator: "<br>")
        out +=
          "| \(markdownCell(packageTitle(target.package, report))) | `\(markdownCode(target.name))` | \(reasons) |\n"
      }
    }
    if let result, let graph = mermaid(result) {
      out += "\n<details><summary>Graph: from the changed targets to the test targets</summary>\n\n"
      out += "```mermaid\n" + graph + "```\n\n</details>\n"
    }
    for warning in report.warnings { out += "\n> **warning:** " + markdownText(warning) + "\n" }
    return out
  }

  /// `graph LR`: every affected target a node, an edge from the dependency each was first reached from.
  static func mermaid(_ result: AffectedResult) -> String? {
    let targets = result.targets.sorted { ($0.package, $0.name) < ($1.package, $1.name) }
    guard !targets.isEmpty else { return nil }
    let shown = Array(targets.prefix(markdownGraphLimit))
    var ids: [TargetRef: String] = [:]
    var out = "graph LR\n"
    for (index, target) in shown.enumerated() {
      let ref = TargetRef(package: target.package, name: target.name)
      ids[ref] = "t\(index)"
      let label = target.package == "." ? target.name : "\(target.name) · \(target.package)"
      let shape = target.kind.isTest ? ("([\"", "\"])") : ("[\"", "\"]")
      out += "  t\(index)\(shape.0)\(mermaidLabel(label))\(shape.1)\n"
    }
    for target in shown {
      guard let via = target.via, let from = ids[via],
        let to = ids[TargetRef(package: target.package, name: target.name)]
      else { continue }
      out += "  \(from) --> \(to)\n"
    }
    if targets.count > shown.count {
      out += "  more[\"… and \(targets.count - shown.count) more targets\"]\n"
    }
    return out
  }

  /// Text in a table cell: no line breaks, `|` escaped, and no HTML a comment would render.
  static func markdownCell(_ text: String) -> String {
    markdownText(text).replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
  }

  static func markdownText(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }

  static func markdownCode(_ text: String) -> String { text.replacingOccurrences(of: "`", with: "'") }

  /// Mermaid's quoted labels take `#quot;` for a quote; `<` and `>` as entities too.
  static func mermaidLabel(_ text: String) -> String {
    text.replacingOccurrences(of: "\"", with: "#quot;").replacingOccurrences(of: "<", with: "#lt;")
      .replacingOccurrences(of: ">", with: "#gt;").replacingOccurrences(of: "\n", with: " ")
  }

  private static func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
