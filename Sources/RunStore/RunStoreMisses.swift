import Foundation
import GRDB
import RunModel

/// Canary runs and the selection misses they found (schema v4; docs/DESIGN.md, "Canary runs and selection misses").
extension RunStore {
  /// The newest canary run of a branch, if any; `completed`: only one that passed or failed (ran to the end).
  public func lastCanary(repository: String, branch: String, completed: Bool = false) throws(RunStoreError)
    -> RunRecord?
  {
    try read("find the last canary of \(repository)/\(branch)") { db in
      try Rows.fetchRuns(
        db,
        sql: """
          SELECT \(Rows.runColumns) FROM runs WHERE repository = ? AND branch = ? AND trigger = 'canary'
          \(completed ? "AND state IN ('passed', 'failed')" : "") ORDER BY id DESC LIMIT 1
          """,
        arguments: [repository, branch]
      ).first
    }
  }

  /// What the miss rule needs of a finished canary: its failing test targets and the window, the passed or failed
  /// runs of its branch (not canaries) after the previous canary and before it, each with the test targets it ran.
  public func missInputs(canary: RunRecord) throws(RunStoreError) -> (
    failing: Set<String>, window: [MissRule.WindowRun]
  ) {
    try read("read the miss window of canary \(canary.id)") { db in
      let previous =
        try Int64.fetchOne(
          db,
          sql: """
            SELECT max(id) FROM runs WHERE repository = ? AND branch = ? AND trigger = 'canary' AND id < ?
            """,
          arguments: [canary.repository, canary.branch, canary.id]) ?? 0
      let failing = try Row.fetchAll(
        db, sql: "SELECT package, name FROM targets WHERE runID = ? AND isTest = 1 AND status = 'failed'",
        arguments: [canary.id]
      ).map { "\(try $0.decode(String.self, atIndex: 0)):\(try $0.decode(String.self, atIndex: 1))" }
      let runs = try Rows.fetchRuns(
        db,
        sql: """
          SELECT \(Rows.runColumns) FROM runs WHERE repository = ? AND branch = ? AND id > ? AND id < ?
          AND trigger != 'canary' AND state IN ('passed', 'failed') ORDER BY id
          """,
        arguments: [canary.repository, canary.branch, previous, canary.id])
      let window = try runs.map { run in
        let ran = try Row.fetchAll(
          db, sql: "SELECT package, name FROM targets WHERE runID = ? AND isTest = 1", arguments: [run.id]
        ).map { "\(try $0.decode(String.self, atIndex: 0)):\(try $0.decode(String.self, atIndex: 1))" }
        return MissRule.WindowRun(run: run, ranTestTargets: Set(ran))
      }
      return (Set(failing), window)
    }
  }

  public func recordMisses(_ misses: [SelectionMiss]) throws(RunStoreError) {
    guard !misses.isEmpty else { return }
    try write("record \(misses.count) selection misses") { db in
      for miss in misses {
        try db.execute(
          sql: """
            INSERT OR IGNORE INTO misses (canaryID, target, runID, commitID, foundAt) VALUES (?, ?, ?, ?, ?)
            """,
          arguments: [miss.canaryID, miss.target, miss.runID, miss.commit, Rows.seconds(miss.foundAt)])
      }
    }
  }

  /// Misses found since `date` (newest first), or those of one run (as the canary or as the under-selected run).
  public func misses(since date: Date? = nil, run id: Int64? = nil) throws(RunStoreError) -> [SelectionMiss] {
    try read("list selection misses") { db in
      var conditions: [String] = []
      var arguments: StatementArguments = []
      if let date {
        conditions.append("foundAt >= ?")
        _ = arguments.append(contentsOf: [Rows.seconds(date)])
      }
      if let id {
        conditions.append("(runID = ? OR canaryID = ?)")
        _ = arguments.append(contentsOf: [id, id])
      }
      let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
      return try Row.fetchAll(
        db,
        sql: """
          SELECT canaryID, target, runID, commitID, foundAt FROM misses \(filter)
          ORDER BY foundAt DESC, canaryID DESC, runID, target
          """,
        arguments: arguments
      ).map { row in
        SelectionMiss(
          canaryID: try row.decode(atIndex: 0), target: try row.decode(atIndex: 1), runID: try row.decode(atIndex: 2),
          commit: try row.decode(atIndex: 3), foundAt: Date(timeIntervalSince1970: try row.decode(atIndex: 4)))
      }
    }
  }
}
