import Foundation
import GRDB

/// Pass records kept for the team (migration `v6: pass records`; docs/DESIGN.md, "Pass records"): rippled
/// serves them at `/api/v1/records/{key}` and its own runs read and write them. Keys arrive validated
/// (64 lowercase hex digits); bytes are stored as given: what they mean is for the reader to judge.
extension RunStore {
  /// The record at `key`, marking it used now (the bound evicts the least recently used first).
  public func passRecord(_ key: String, now: Date = Date()) throws(RunStoreError) -> Data? {
    try write("read the pass record \(key.prefix(12))") { db in
      guard let data = try Data.fetchOne(db, sql: "SELECT data FROM passRecords WHERE key = ?", arguments: [key])
      else { return nil }
      try db.execute(
        sql: "UPDATE passRecords SET usedAt = ? WHERE key = ?", arguments: [now.timeIntervalSince1970, key])
      return data
    }
  }

  /// Stores `data` at `key` (replacing what was there: two writers racing a key leave one whole record),
  /// then removes the least recently used records until the table holds at most `maxBytes`.
  ///
  /// `keeping`, when given, sees the bytes there (nil: none) inside the same write transaction and returns why
  /// they stay (nothing is written, and that reason is returned), or nil to write: a check and a write no other
  /// writer can come between (no write lowers trust: `RecordReplacement`, applied by the records API).
  @discardableResult
  public func savePassRecord(
    _ key: String, _ data: Data, maxBytes: Int64, now: Date = Date(), keeping: ((Data?) -> String?)? = nil
  ) throws(RunStoreError) -> String? {
    try write("store the pass record \(key.prefix(12))") { db -> String? in
      if let keeping {
        let existing = try Data.fetchOne(db, sql: "SELECT data FROM passRecords WHERE key = ?", arguments: [key])
        if let reason = keeping(existing) { return reason }
      }
      try db.execute(
        sql: "INSERT OR REPLACE INTO passRecords (key, data, size, usedAt) VALUES (?, ?, ?, ?)",
        arguments: [key, data, data.count, now.timeIntervalSince1970])
      var total = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM passRecords") ?? 0
      guard total > maxBytes else { return nil }
      let rows = try Row.fetchAll(db, sql: "SELECT key, size FROM passRecords ORDER BY usedAt, key")
      for row in rows where total > maxBytes {
        let victim: String = row[0]
        let size: Int64 = row[1]
        try db.execute(sql: "DELETE FROM passRecords WHERE key = ?", arguments: [victim])
        total -= size
      }
      return nil
    }
  }

  /// How many records are kept and their bytes (for `/metrics` and tests).
  public func passRecordUsage() throws(RunStoreError) -> (count: Int, bytes: Int64) {
    try read("measure the pass records") { db in
      let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM passRecords")
      return (row?[0] ?? 0, row?[1] ?? 0)
    }
  }
}
