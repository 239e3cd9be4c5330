import Foundation
import GRDB
import RunModel

/// Each test's outcome per run (migration `testOutcomes`; docs/DESIGN.md, "Flaky tests and quarantine"): what a
/// run's page lists as flaky, the flake rates of the dashboard's flaky panel and the flaky counts per week.
/// A run's time is when it was queued.
extension RunStore {
  /// Replaces the test outcomes of a run.
  public func recordTestOutcomes(_ id: Int64, _ outcomes: [TestOutcome]) throws(RunStoreError) {
    try write("record the test outcomes of run \(id)") { db in
      _ = try Rows.requireRun(db, id)
      try db.execute(sql: "DELETE FROM testOutcomes WHERE runID = ?", arguments: [id])
      let insert = try db.cachedStatement(
        sql: "INSERT OR REPLACE INTO testOutcomes (runID, package, test, kind, failure) VALUES (?, ?, ?, ?, ?)")
      for outcome in outcomes {
        try insert.execute(arguments: [id, outcome.package, outcome.test, outcome.kind.rawValue, outcome.failure])
      }
    }
  }

  /// A run's tests that did not simply pass (flaky, quarantined, failed), by kind then name.
  public func testOutcomes(run id: Int64) throws(RunStoreError) -> [TestOutcome] {
    try read("read the test outcomes of run \(id)") { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT package, test, kind, failure FROM testOutcomes WHERE runID = ? AND kind != 'passed'
          ORDER BY CASE kind WHEN 'flaky' THEN 0 WHEN 'quarantined' THEN 1 ELSE 2 END, package, test
          """,
        arguments: [id]
      ).map { row in
        let kind: String = try row.decode(atIndex: 2)
        guard let parsed = TestOutcome.Kind(rawValue: kind) else {
          throw RunStoreError.unreadableValue(path: path, detail: "test outcome `\(kind)` of run \(id)")
        }
        return TestOutcome(
          package: try row.decode(atIndex: 0), test: try row.decode(atIndex: 1), kind: parsed,
          failure: try row.decode(atIndex: 3))
      }
    }
  }

  /// The tests of `repository` that were flaky in a run queued since `date`, by flake rate (flaky runs / runs
  /// since `date`), then flaky runs, then name; at most `limit`.
  public func flakyTests(repository: String, since date: Date, limit: Int = 50) throws(RunStoreError) -> [FlakyTest] {
    try read("list the flaky tests of \(repository)") { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT o.package, o.test, COUNT(*) AS runs, SUM(o.kind = 'flaky') AS flaky,
            MIN(CASE WHEN o.kind = 'flaky' THEN r.queuedAt END), MAX(CASE WHEN o.kind = 'flaky' THEN r.queuedAt END),
            MAX(CASE WHEN o.kind = 'flaky' THEN r.id END)
          FROM testOutcomes o JOIN runs r ON r.id = o.runID
          WHERE r.repository = ? AND r.queuedAt >= ?
          GROUP BY o.package, o.test HAVING flaky > 0
          ORDER BY CAST(flaky AS REAL) / runs DESC, flaky DESC, o.package, o.test
          LIMIT ?
          """,
        arguments: [repository, Rows.seconds(date), limit]
      ).map { row in
        let package: String = try row.decode(atIndex: 0)
        let test: String = try row.decode(atIndex: 1)
        let lastRun: Int64 = try row.decode(atIndex: 6)
        let failure = try String.fetchOne(
          db, sql: "SELECT failure FROM testOutcomes WHERE runID = ? AND package = ? AND test = ?",
          arguments: [lastRun, package, test])
        return FlakyTest(
          package: package, test: test, runs: try row.decode(atIndex: 2), flakyRuns: try row.decode(atIndex: 3),
          firstSeen: Date(timeIntervalSince1970: try row.decode(atIndex: 4)),
          lastSeen: Date(timeIntervalSince1970: try row.decode(atIndex: 5)), lastRun: lastRun, lastFailure: failure)
      }
    }
  }

  /// How many tests were flaky in one run (the metrics count them when it finishes).
  public func flakyTestCount(run id: Int64) throws(RunStoreError) -> Int {
    try read("count the flaky tests of run \(id)") { db in
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM testOutcomes WHERE runID = ? AND kind = 'flaky'", arguments: [id]) ?? 0
    }
  }

  /// Distinct flaky tests per ISO week (Monday 00:00 UTC) of `repository`'s runs, for the `weeks` weeks up to the
  /// one `now` falls in, oldest first; a week without any is 0.
  public func flakyTestCountsByWeek(repository: String, weeks: Int, now: Date) throws(RunStoreError) -> [(
    weekStart: Date, count: Int
  )] {
    guard weeks > 0 else { throw .invalidArgument("flaky tests were asked for \(weeks) weeks (must be 1 or more)") }
    let week: TimeInterval = 7 * 86_400
    // 1970-01-05 was the first Monday after the epoch.
    let monday: TimeInterval = 4 * 86_400
    let current = ((now.timeIntervalSince1970 - monday) / week).rounded(.down) * week + monday
    let first = current - Double(weeks - 1) * week
    let counts: [Int: Int] = try read("count the flaky tests per week in \(repository)") { db in
      var counts: [Int: Int] = [:]
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT CAST((r.queuedAt - ?) / ? AS INTEGER) AS bucket, COUNT(DISTINCT o.package || char(0) || o.test)
          FROM testOutcomes o JOIN runs r ON r.id = o.runID
          WHERE r.repository = ? AND o.kind = 'flaky' AND r.queuedAt >= ? AND r.queuedAt < ?
          GROUP BY bucket
          """,
        arguments: [first, week, repository, first, current + week])
      for row in rows { counts[try row.decode(Int.self, atIndex: 0)] = try row.decode(Int.self, atIndex: 1) }
      return counts
    }
    return (0..<weeks).map { index in
      (Date(timeIntervalSince1970: first + Double(index) * week), counts[index] ?? 0)
    }
  }
}
