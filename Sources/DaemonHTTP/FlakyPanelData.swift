import Crypto
import DaemonWeb
import Foundation
import PassRecords
import RunModel
import RunStore

/// The dashboard's flaky panels, read from the store (RunStoreTestOutcomes.swift), with the flaky tests CI
/// runners recorded in the team's shared history when they use rippled as their store (docs/DESIGN.md, "Shared
/// history"): only its `protected` part, and only what a key rippled trusts signed.
enum FlakyPanelData {
  /// Per repository: its tests flaky in runs of the last `Dashboard.flakyPanelDays` days, flakiest first.
  /// `remotes`: each repository's remote URL, which names its shared history.
  static func load(
    _ store: RunStore, repositories: [String], now: Date, remotes: [String: String] = [:],
    trustedKeys: [(name: String, key: Curve25519.Signing.PublicKey)] = []
  ) throws -> [String: [FlakyTest]] {
    let since = now.addingTimeInterval(-Double(Dashboard.flakyPanelDays) * 86_400)
    var flaky: [String: [FlakyTest]] = [:]
    for name in Set(repositories) {
      var tests = try store.flakyTests(repository: name, since: since)
      if let remote = remotes[name], !trustedKeys.isEmpty {
        let team = try shared(store, namespace: HistoryNamespace.normalize(remote), keys: trustedKeys, now: now)
        tests = merged(tests, team.flakyTests(since: since, now: now))
      }
      if !tests.isEmpty { flaky[name] = tests }
    }
    return flaky
  }

  /// The believed slots of the `protected` history, merged.
  static func shared(
    _ store: RunStore, namespace: String, keys: [(name: String, key: Curve25519.Signing.PublicKey)], now: Date
  )
    throws -> HistoryRecord
  {
    let policy = TrustPolicy(trustedKeys: keys, branch: "(dashboard)", branchIsProtected: true, now: now)
    var merged = HistoryRecord(namespace: namespace, scope: "protected", slot: 0, writer: "rippled", time: now)
    for slot in 0..<HistoryRecord.slots {
      let key = HistoryRecord.key(namespace: namespace, scope: "protected", slot: slot)
      guard let data = try store.passRecord(key.hex),
        case .trusted(let record, _) = policy.judgeHistory(data, namespace: namespace, scope: "protected", slot: slot)
      else { continue }
      merged.merge(record)
    }
    return merged
  }

  /// rippled's own rows, then the team's tests it has no row for (no run of its own to link: `lastRun` 0).
  static func merged(_ own: [FlakyTest], _ team: [HistoryRecord.FlakyEntry]) -> [FlakyTest] {
    let known = Set(own.map { "\($0.package)|\($0.test)" })
    let added = team.filter { !known.contains("\($0.package)|\($0.test)") }.map {
      FlakyTest(
        package: $0.package, test: $0.test, runs: $0.runs, flakyRuns: $0.flakyRuns, firstSeen: $0.firstSeen,
        lastSeen: $0.lastSeen, lastRun: 0)
    }
    return (own + added).sorted { ($0.rate, $0.flakyRuns) > ($1.rate, $1.flakyRuns) }
  }
}
