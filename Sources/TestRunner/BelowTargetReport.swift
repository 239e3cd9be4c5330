import Foundation

/// What test-level selection (`test.granularity: test`) decided for one selected test target, as every report
/// says it: the tests it runs with why, the ones it leaves out (listed as not run, never as passed), or why the
/// whole target runs. A plain value: the runner does not depend on the coverage maps it came from.
public struct BelowTargetReport: Sendable, Codable, Hashable {
  public var package: String
  public var target: String
  public var run: String?
  /// The sentence for people: "3 of 214 tests of CoreTests: they executed Sources/Core/Parser.swift's
  /// `Parser.parse(_:)`", or "CoreTests runs whole: …".
  public var sentence: String
  /// Nil when the target runs whole; then `wholeReason` says why.
  public var wholeReason: String?
  /// Selected tests (`Target.Suite/test`) with their reasons.
  public var selected: [String: [String]]
  /// Suites (`Target.Suite`) run whole because a test was added to them (the map cannot know it).
  public var suitesWithNewTests: [String]
  /// The target's other tests, as the map knows them: not run.
  public var notRun: [String]
  /// The commit the map was made at.
  public var mapCommit: String?

  public init(
    package: String, target: String, run: String?, sentence: String, wholeReason: String? = nil,
    selected: [String: [String]] = [:], suitesWithNewTests: [String] = [], notRun: [String] = [],
    mapCommit: String? = nil
  ) {
    self.package = package
    self.target = target
    self.run = run
    self.sentence = sentence
    self.wholeReason = wholeReason
    self.selected = selected
    self.suitesWithNewTests = suitesWithNewTests
    self.notRun = notRun
    self.mapCommit = mapCommit
  }

  public var unit: String { "\(package):\(target)" }
  public var runsWhole: Bool { wholeReason != nil }

  /// `--explain TARGET/test`: why one test runs or does not. `test` is the full id (`CoreTests.S/t()`) or the part
  /// after the target (`S/t()`); nil when this target does not know it.
  public func explain(_ test: String) -> String? {
    let id = test.hasPrefix(target + ".") || test.hasPrefix(target + "/") ? test : target + "." + test
    if let reason = wholeReason { return "\(id) runs: \(target) runs whole (\(reason))" }
    if let reasons = selected[id] { return "\(id) runs: it " + reasons.joined(separator: "; it ") }
    if let suite = suitesWithNewTests.first(where: { id.hasPrefix($0 + "/") }) {
      return "\(id) runs: its suite \(suite) has a new or renamed test, and runs whole"
    }
    if notRun.contains(id) {
      return "\(id) is not run: its coverage map"
        + (mapCommit.map { " (made at \($0.prefix(12)))" } ?? "")
        + " shows it executed none of the changed functions"
    }
    return nil
  }
}

/// The lines each report gives test-level selection (pure).
public enum BelowTargetRendering {
  /// For the console summary: one sentence per target, then "not run" counts.
  public static func summary(_ reports: [BelowTargetReport]) -> String {
    guard !reports.isEmpty else { return "" }
    return "\nBelow the target (test.granularity: test):\n"
      + reports.map { report in
        "  " + report.sentence
          + (report.notRun.isEmpty
            ? "" : "\n    not run: \(report.notRun.count) test\(report.notRun.count == 1 ? "" : "s")")
      }.joined(separator: "\n") + "\n"
  }

  /// For the markdown summary: a section with one line per target and the tests left out, folded.
  public static func markdown(_ reports: [BelowTargetReport]) -> String {
    guard !reports.isEmpty else { return "" }
    var out = "\n### Below the target\n\n"
    for report in reports {
      out += "- " + MarkdownSummary.text(report.sentence) + "\n"
      guard !report.notRun.isEmpty else { continue }
      out += "  <details><summary>\(report.notRun.count) not run</summary>\n\n"
      out += report.notRun.prefix(200).map { "  - `\(MarkdownSummary.code($0))`\n" }.joined()
      if report.notRun.count > 200 { out += "  - … and \(report.notRun.count - 200) more\n" }
      out += "  </details>\n"
    }
    return out
  }
}
