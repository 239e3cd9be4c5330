import Affected
import Foundation
import RippleConfig
import RippleCore
import TestRunner

/// `ripple affected` with test granularity: the analysis, and below each selected test target the tests the change
/// can reach, as `ripple test --dry-run` plans them (the same maps, trust rules and fallbacks), with nothing built,
/// run or mapped. A target found cached is not taken out: `affected` says what a change can reach, not what is
/// left to run.
public struct AffectedTests: Sendable {
  public var outcome: AffectedOutcome
  /// One per selected test target `swift test` runs: the tests chosen and why, or why it runs whole.
  public var belowTarget: [BelowTargetReport]
  public var warnings: [String]
  /// The plan they came from, for `--explain TARGET/TEST`.
  public var job: TestJob

  /// The test targets of Swift packages that still run, each whole (nil) or only some of its items (`Suite/test`
  /// or `Suite`), in the report's order. A target whose every report leaves all of its tests out is gone; one
  /// reported whole anywhere (another run, no map) runs whole.
  public var swiftTestScopes: [(name: String, scope: SuiteScope?)] {
    var byName: [String: [BelowTargetReport]] = [:]
    for report in belowTarget { byName[report.target, default: []].append(report) }
    var seen: Set<String> = []
    var out: [(name: String, scope: SuiteScope?)] = []
    for entry in outcome.report.testTargets where !entry.package.hasSuffix(".xcodeproj") {
      guard seen.insert(entry.name).inserted else { continue }
      guard let reports = byName[entry.name], !reports.contains(where: \.runsWhole) else {
        out.append((entry.name, nil))
        continue
      }
      let items = Set(
        reports.flatMap { report in
          report.selected.keys.map { String($0.dropFirst(report.target.count + 1)) }
            + report.suitesWithNewTests.map { String($0.dropFirst(report.target.count + 1)) }
        })
      if !items.isEmpty { out.append((entry.name, .only(items.sorted()))) }
    }
    return out
  }

  /// `--format filter`: the anchored `swift test --filter` for exactly those tests; nil when none runs.
  public var filter: String? {
    let scopes = swiftTestScopes
    guard !scopes.isEmpty else { return nil }
    var suites: [String: SuiteScope] = [:]
    for (name, scope) in scopes { suites[name] = scope }
    return TestFilter.targets(scopes.map(\.name), suites: suites)
  }

  /// Why nothing is left to filter: no test target is affected, or none of their tests executed what changed.
  public var nothingMessage: String {
    outcome.report.testTargets.isEmpty
      ? "no test target is affected (an empty filter would run every test)"
      : "no test of the affected test targets executed what changed (an empty filter would run every test)"
  }
}

extension Workspace {
  /// The affected analysis with test-level selection below each selected test target (`AffectedTests`).
  public func affectedTests(_ request: AffectedRequest) async throws -> AffectedTests {
    var test = TestRequest(scope: .affected(request))
    test.granularity = .test
    test.plansOnly = true
    // Keys are computed (the maps' store is the records' store) but nothing is taken out for a record.
    test.resultCache.rerunCached = true
    let job = try await planTests(test)
    // A plan of the `.affected` scope always keeps the analysis it came from.
    return AffectedTests(outcome: job.affected!, belowTarget: job.belowTarget, warnings: job.warnings, job: job)
  }
}
