import Foundation
import GRDB
import RunModel

// Internal hooks for RunStoreTests (`@testable import`): they go through the same row and journal functions as
// the public API, so tests can build thousands of runs in one transaction, or provoke SQLite failures, without
// importing GRDB.
extension RunStore {
  /// Queues each run and moves it through `states`, all in one transaction (one fsync for thousands of runs).
  func seed(_ runs: [(new: NewRun, states: [RunState])], at date: Date) throws(RunStoreError) -> [RunRecord] {
    try write("seed runs") { db in
      try runs.map { run in
        var record = try Self.insert(db, run.new, at: date, note: nil)
        for state in run.states { record = try Self.move(db, record.id, to: state, at: date, reason: nil) }
        return record
      }
    }
  }

  /// Runs `sql` in one write transaction.
  func execute(sql: String) throws(RunStoreError) {
    try write("execute \(sql)") { db in try db.execute(sql: sql) }
  }

  /// The rows of `sql`, each column as text.
  func strings(sql: String) throws(RunStoreError) -> [[String]] {
    try read("query \(sql)") { db in
      try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { "\($0)" } }
    }
  }

  /// Caps the writer's database at its current size plus `extraPages` pages, so growing it fails with
  /// SQLITE_FULL as on a full disk; nil lifts the cap.
  func limitPages(extraPages: Int?) throws(RunStoreError) {
    do {
      try pool.writeWithoutTransaction { db in
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let limit = extraPages.map { pages + $0 } ?? 1_073_741_823
        _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(limit)")
      }
    } catch {
      throw Self.failure(error, path: path, operation: "limit the database size")
    }
  }
}

extension RunStore {
  /// A database at `path` migrated only up to `migration` (an older rippled's), with `sql` run in it: what a store
  /// opened over it later finds and migrates.
  static func createOlderSchema(at path: String, upTo migration: String, sql: String) throws {
    let queue = try DatabaseQueue(path: path)
    try RunStoreSchema.migrator.migrate(queue, upTo: migration)
    try queue.write { db in try db.execute(sql: sql) }
    try queue.close()
  }
}
