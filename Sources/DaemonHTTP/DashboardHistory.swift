import DaemonWeb
import Foundation
import RunModel
import RunStore

/// The repository history charts' data for the dashboard, read from the store (RunStoreHistory.swift).
enum DashboardHistory {
  /// Per repository: its last timed runs, the time saved per UTC day and the misses per UTC week up to `now`.
  /// The flaky series is the distinct flaky tests per week (`testOutcomes`, RunStoreTestOutcomes.swift); the
  /// coverage line the last runs that recorded coverage.
  /// `coverageOn`: the repositories whose rippled.yml entry has `coverage: true`.
  static func load(_ store: RunStore, repositories: [String], now: Date, coverageOn: Set<String> = [])
    throws -> [String: RepositoryHistory]
  {
    var history: [String: RepositoryHistory] = [:]
    for name in Set(repositories) {
      let saved = try savedPerDay(store, repository: name, now: now)
      history[name] = RepositoryHistory(
        runs: try store.timedRuns(repository: name, limit: Dashboard.historyRuns), savedPerDay: saved.days,
        missesPerWeek: try store.missCountsByWeek(repository: name, weeks: Dashboard.historyWeeks, now: now),
        flakyPerWeek: try store.flakyTestCountsByWeek(repository: name, weeks: Dashboard.historyWeeks, now: now),
        fullSuite: saved.basis,
        coverageRuns: try store.coverageRuns(repository: name, limit: Dashboard.historyRuns),
        coverageOn: coverageOn.contains(name))
    }
    return history
  }

  /// The time saved per UTC day of the last `Dashboard.historyDays`: wall-clock against the last canary's full run
  /// when there is one, recorded test time (an estimate) before (issue 41). The dashboard and `/metrics` share it.
  static func savedPerDay(_ store: RunStore, repository: String, now: Date) throws -> (
    days: [(day: Date, seconds: Double, runs: Int)], basis: FullSuiteBasis
  ) {
    guard let full = try store.measuredFullSuite(repository: repository) else {
      return (try store.savedSecondsByDay(repository: repository, days: Dashboard.historyDays, now: now), .estimate)
    }
    let days = try store.wallSavedSecondsByDay(
      repository: repository, days: Dashboard.historyDays, now: now, fullSuite: full.seconds)
    return (days, .measured(seconds: full.seconds, runID: full.runID, at: full.at))
  }

  /// Per repository with a run that recorded coverage: the newest one's covered share of lines (0 to 1), for
  /// `/metrics`. A repository without one (or whose newest measured no line) has no entry: never a 0.
  static func lineCoverage(_ store: RunStore, repositories: [String]) throws -> [String: Double] {
    var ratios: [String: Double] = [:]
    for name in Set(repositories) {
      if let percent = try store.coverageRuns(repository: name, limit: 1).last?.coverage?.percent {
        ratios[name] = percent / 100
      }
    }
    return ratios
  }
}
