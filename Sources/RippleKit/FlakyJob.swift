import Foundation
import TestRunner

extension Workspace {
  /// `ripple flaky` (and the MCP tool `flaky`): the tests flaky within `window` before `now`, from this machine's
  /// outcome history beside `timingsPath` (nil: the repository's) merged with the team's from the result store,
  /// when one is configured; the warnings say what could not be read.
  public func flakyTests(within window: FlakyWindow, timingsPath: String? = nil, now: Date = Date()) async -> (
    tests: [FlakyTestRecord], warnings: [String]
  ) {
    let store = OutcomeStore(besideTimings: timingsPath ?? TimingStore.defaultPath(repositoryRoot: root))
    let (local, warning) = store.load()
    var warnings = [warning].compactMap(\.self) + store.warnings(for: local, today: OutcomeHistory.day(now))
    // The team's outcomes from the result store, when one is configured (a fresh CI runner has no local ones).
    let team = await teamHistory(warnings: &warnings)
    let history = team.map { local.merged(with: $0.outcomes) } ?? local
    return (history.flakyTests(since: now.addingTimeInterval(-window.seconds), now: now), warnings)
  }
}
