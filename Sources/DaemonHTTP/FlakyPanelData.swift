import DaemonWeb
import Foundation
import RunModel
import RunStore

/// The dashboard's flaky panels, read from the store (RunStoreTestOutcomes.swift).
enum FlakyPanelData {
  /// Per repository: its tests flaky in runs of the last `Dashboard.flakyPanelDays` days, flakiest first.
  static func load(_ store: RunStore, repositories: [String], now: Date) throws -> [String: [FlakyTest]] {
    let since = now.addingTimeInterval(-Double(Dashboard.flakyPanelDays) * 86_400)
    var flaky: [String: [FlakyTest]] = [:]
    for name in Set(repositories) {
      let tests = try store.flakyTests(repository: name, since: since)
      if !tests.isEmpty { flaky[name] = tests }
    }
    return flaky
  }
}
