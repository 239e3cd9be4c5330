import Foundation
import RippleCore

/// One JUnit XML document for the whole run: `<testsuites>` with a `<testsuite>` per test target.
///
/// A failed test has `<failure message type>` (body: file:line and message); a skipped one
/// `<skipped/>`. A flaky one (failed, then passed on a retry) is a passing `<testcase>` holding a
/// `<flakyFailure message type><stackTrace>…</stackTrace></flakyFailure>` with its first failing attempt's
/// failures: Maven Surefire's rerun format, which Jenkins, GitLab and Buildkite Test Engine read as "flaky"
/// (Ripple does not capture a test's own output, so there is no `<system-out>` inside it), plus
/// `flaky`/`attempts` properties. A quarantined failure (`test.quarantine`) is `<skipped message="quarantined:
/// reason">`, its failure text in `<system-out>` and a `quarantined` property: `<failure>` would turn the CI
/// report red although the run passed, and a property alone is shown by none of those tools, while a skip
/// message is shown by all of them. A package that failed to build is a suite named `<package> (build)` with
/// one `<error>` test case. Pure.
public enum JUnitRenderer {
  /// `repositoryRoot`: failure locations under it are made relative (`Tests/AppTests/AppTests.swift:6`): the form
  /// GitHub, GitLab and Buildkite annotate files by, and the same on every machine.
  public static func render(_ result: TestRunResult, now: Date = Date(), repositoryRoot: String? = nil) -> String {
    var result = result
    if let repositoryRoot { result = relativeLocations(result, root: repositoryRoot) }
    let totals = result.totals
    let errors = result.packages.filter { $0.status == .buildFailed || $0.status == .error || $0.status == .noTestsRan }
    let notSelected = result.belowTarget.reduce(0) { $0 + $1.notRun.count }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<testsuites name=\"ripple\" tests=\"\(totals.tests + errors.count + result.notRunHere.count + result.cached.count + notSelected)\""
      + " failures=\"\(totals.failed)\" errors=\"\(errors.count)\""
      + " skipped=\"\(totals.skipped + totals.quarantined + result.notRunHere.count + result.cached.count + notSelected)\""
      + " time=\"\(time(result.duration))\">\n"
    if result.nothingAffected { out += "  <!-- no test target is affected: nothing was built or run -->\n" }
    if result.cancelled { out += "  <!-- the run was interrupted: results are partial -->\n" }
    for package in result.packages {
      for target in package.targets {
        out += suite(target, package: package.path)
      }
      if errors.contains(package) {
        let kind = package.status == .noTestsRan ? "no tests ran" : "build failed"
        let body =
          package.status == .noTestsRan
          ? "the filter \(package.filter ?? "") matched no test"
          : (package.buildErrors.isEmpty ? [package.message ?? ""] : package.buildErrors).joined(separator: "\n")
        out +=
          "  <testsuite name=\"\(escape(package.path + " (build)"))\" package=\"\(escape(package.path))\""
          + " tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"\(time(package.buildDuration))\">\n"
        out +=
          "    <testcase classname=\"\(escape(package.path))\" name=\"build\" time=\"\(time(package.buildDuration))\">\n"
        out += "      <error message=\"\(escape(kind))\">\(escape(body))</error>\n    </testcase>\n  </testsuite>\n"
      }
    }
    // A selected target no run on this host can test: a skipped case with the reason, never left out.
    for target in result.notRunHere {
      out +=
        "  <testsuite name=\"\(escape(target.name))\" package=\"\(escape(target.package))\" tests=\"1\""
        + " failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0\">\n"
        + "    <testcase classname=\"\(escape(target.name))\" name=\"(not run on \(escape(target.platform)))\" time=\"0\">\n"
        + "      <skipped message=\"\(escape(target.sentence))\"/>\n    </testcase>\n  </testsuite>\n"
    }
    // A target skipped for a trusted pass record: a skipped case saying where it passed, no time of its own.
    for target in result.cached {
      let name = escape(TerminalText.quoted(target.name))
      out +=
        "  <testsuite name=\"\(name)\" package=\"\(escape(TerminalText.quoted(target.package)))\" tests=\"1\""
        + " failures=\"0\" errors=\"0\" skipped=\"1\" time=\"0\">\n"
        + "    <testcase classname=\"\(name)\" name=\"(cached pass)\" time=\"0\">\n"
        + "      <skipped message=\"cached pass: \(escape(target.sentence(now: now)))\"/>\n    </testcase>\n  </testsuite>\n"
    }
    // Tests test-level selection left out: skipped cases saying so, never passes.
    for report in result.belowTarget where !report.notRun.isEmpty {
      out +=
        "  <testsuite name=\"\(escape(report.target + " (not selected)"))\" package=\"\(escape(report.package))\""
        + " tests=\"\(report.notRun.count)\" failures=\"0\" errors=\"0\" skipped=\"\(report.notRun.count)\" time=\"0\">\n"
      for test in report.notRun {
        let slash = test.lastIndex(of: "/") ?? test.endIndex
        let classname = String(test[..<slash])
        let name = slash == test.endIndex ? test : String(test[test.index(after: slash)...])
        out +=
          "    <testcase classname=\"\(escape(classname))\" name=\"\(escape(name))\" time=\"0\">\n"
          + "      <skipped message=\"not run: test-level selection; it executed none of the changed functions\"/>\n"
          + "    </testcase>\n"
      }
      out += "  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }

  static func suite(_ target: TargetResult, package: String) -> String {
    let t = target.totals
    var out =
      "  <testsuite name=\"\(escape(target.name))\" package=\"\(escape(package))\" tests=\"\(t.tests)\""
      + " failures=\"\(t.failed)\" errors=\"0\" skipped=\"\(t.skipped + t.quarantined)\" time=\"\(time(target.duration))\">\n"
    for test in target.tests {
      let classname = test.suite.isEmpty ? target.name : "\(target.name).\(test.suite)"
      out +=
        "    <testcase classname=\"\(escape(classname))\" name=\"\(escape(test.name))\" time=\"\(time(test.duration))\""
      let body = caseBody(test)
      out += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
    }
    return out + "  </testsuite>\n"
  }

  static func caseBody(_ test: TestCaseResult) -> String {
    switch test.status {
    case .failed:
      let message = test.failures.first?.message.split(separator: "\n").first.map(String.init) ?? "failed"
      let details = test.failures.map { f in (f.location.map { "\($0): " } ?? "") + f.message }.joined(separator: "\n")
      return "      <failure message=\"\(escape(message))\" type=\"failure\">\(escape(details))</failure>\n"
    case .skipped:
      return test.skipReason.map { "      <skipped message=\"\(escape($0))\"/>\n" } ?? "      <skipped/>\n"
    case .quarantined:
      let reason = test.quarantine ?? "test.quarantine"
      return "      <properties><property name=\"quarantined\" value=\"\(escape(reason))\"/></properties>\n"
        + "      <skipped message=\"\(escape("quarantined: " + reason))\"/>\n"
        + "      <system-out>\(escape("quarantined (\(reason)), failed:\n" + details(test.failures)))</system-out>\n"
    case .passed:
      guard test.flaky else { return "" }
      let message = test.failures.first?.message.split(separator: "\n").first.map(String.init) ?? "failed"
      return "      <properties><property name=\"flaky\" value=\"true\"/>"
        + "<property name=\"attempts\" value=\"\(test.attempts)\"/></properties>\n"
        + "      <flakyFailure message=\"\(escape(message))\" type=\"failure\">"
        + "<stackTrace>\(escape(details(test.failures)))</stackTrace></flakyFailure>\n"
    }
  }

  static func relativeLocations(_ result: TestRunResult, root: String) -> TestRunResult {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    var result = result
    for p in result.packages.indices {
      for t in result.packages[p].targets.indices {
        for c in result.packages[p].targets[t].tests.indices {
          for f in result.packages[p].targets[t].tests[c].failures.indices {
            guard let file = result.packages[p].targets[t].tests[c].failures[f].file, file.hasPrefix(prefix) else {
              continue
            }
            result.packages[p].targets[t].tests[c].failures[f].file = String(file.dropFirst(prefix.count))
          }
        }
      }
    }
    return result
  }

  /// One line per failure: `File.swift:12: message`.
  static func details(_ failures: [TestFailure]) -> String {
    failures.map { f in (f.location.map { "\($0): " } ?? "") + f.message }.joined(separator: "\n")
  }

  static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

  static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
