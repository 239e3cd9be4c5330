import DaemonWeb
import Foundation
import RunModel
import RunStore

/// The repository history charts' data for the dashboard, read from the store (RunStoreHistory.swift).
enum DashboardHistory {
  /// Per repository: its last timed runs, the time saved per UTC day and the misses per UTC week up to `now`.
  /// The flaky series is the distinct flaky tests per week (`testOutcomes`, RunStoreTestOutcomes.swift).
  static func load(_ store: RunStore, repositories: [String], now: Date) throws -> [String: RepositoryHistory] {
    var history: [String: RepositoryHistory] = [:]
    for name in Set(repositories) {
      history[name] = RepositoryHistory(
        runs: try store.timedRuns(repository: name, limit: Dashboard.historyRuns),
        savedPerDay: try store.savedSecondsByDay(repository: name, days: Dashboard.historyDays, now: now),
        missesPerWeek: try store.missCountsByWeek(repository: name, weeks: Dashboard.historyWeeks, now: now),
        flakyPerWeek: try store.flakyTestCountsByWeek(repository: name, weeks: Dashboard.historyWeeks, now: now))
    }
    return history
  }
}
