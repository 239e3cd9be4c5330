import Foundation
import GRDB
import RunModel

/// Aggregates for the repository history charts (docs/DESIGN.md, "Repository history charts"): read-only, by UTC
/// day or week (`HistoryPeriod`), with `now` given so tests can place it. Only runs that ran to the end (passed or
/// failed) and whose analysis recorded the suite times (`fullSuiteSeconds`, schema v3) count; a selection with no
/// test target has no `selectedSeconds` and counts as 0 s.
extension RunStore {
  /// The SQL condition for a run that counts: ran to the end, with both suite times known.
  static let timedRunCondition = """
    state IN ('passed', 'failed') AND finishedAt IS NOT NULL AND fullSuiteSeconds IS NOT NULL
    AND (selectedSeconds IS NOT NULL OR selectedTestTargets = 0)
    """

  /// The `limit` most recently finished timed runs of a repository, oldest first.
  public func timedRuns(repository: String, limit: Int) throws(RunStoreError) -> [RunRecord] {
    try newestRuns(repository: repository, where: Self.timedRunCondition, limit: limit, "list the timed runs")
  }

  /// The `limit` most recently finished runs of a repository that recorded line coverage (v10), oldest first: the
  /// coverage chart; the last one is `/metrics`' gauge.
  public func coverageRuns(repository: String, limit: Int) throws(RunStoreError) -> [RunRecord] {
    try newestRuns(
      repository: repository, where: "coverageLinesTotal IS NOT NULL AND finishedAt IS NOT NULL", limit: limit,
      "list the runs with coverage")
  }

  /// The `limit` most recently finished runs of a repository meeting `condition` (SQL), oldest first.
  private func newestRuns(repository: String, where condition: String, limit: Int, _ what: String)
    throws(RunStoreError) -> [RunRecord]
  {
    guard limit > 0 else { return [] }
    return try read("\(what) of \(repository)") { db in
      Array(
        try Rows.fetchRuns(
          db,
          sql: """
            SELECT \(Rows.runColumns) FROM runs WHERE repository = ? AND \(condition)
            ORDER BY finishedAt DESC, id DESC LIMIT ?
            """,
          arguments: [repository, limit]
        ).reversed())
    }
  }

  /// Per UTC day, for the `days` days that end with today (`now`'s day), oldest first: the test time selective
  /// testing saved (whole suite minus selection, never below 0) summed over the timed runs that finished that day,
  /// and how many they were. Days without runs are 0.
  public func savedSecondsByDay(repository: String, days: Int, now: Date) throws(RunStoreError) -> [(
    day: Date, seconds: Double, runs: Int
  )] {
    try sumPerDay(
      "sum the time saved per day in \(repository)", days: days, now: now,
      saved: "fullSuiteSeconds - COALESCE(selectedSeconds, 0)",
      condition: "repository = ? AND \(Self.timedRunCondition)",
      arguments: [repository])
  }

  /// The whole suite's wall-clock time, as the repository's newest canary that ran to the end measured it (a canary
  /// runs every test: issue 41's "measured, never guessed"); nil before the first.
  public func measuredFullSuite(repository: String) throws(RunStoreError) -> FullSuiteMeasure? {
    try read("find the last canary of \(repository)") { db in
      guard
        let row = try Row.fetchOne(
          db,
          sql: """
            SELECT id, startedAt, finishedAt FROM runs
            WHERE repository = ? AND trigger = 'canary' AND state IN ('passed', 'failed')
              AND startedAt IS NOT NULL AND finishedAt IS NOT NULL
            ORDER BY finishedAt DESC, id DESC LIMIT 1
            """,
          arguments: [repository])
      else { return nil }
      let started: Double = row[1]
      let finished: Double = row[2]
      return FullSuiteMeasure(
        seconds: max(0, finished - started), runID: row[0], at: Date(timeIntervalSince1970: finished))
    }
  }

  /// Per UTC day, like `savedSecondsByDay`, but in wall-clock time, builds included: the measured whole suite
  /// minus each run's own start-to-end time (never below 0), over the runs that ran to the end, canaries left out.
  public func wallSavedSecondsByDay(repository: String, days: Int, now: Date, fullSuite: Double) throws(RunStoreError)
    -> [(day: Date, seconds: Double, runs: Int)]
  {
    try sumPerDay(
      "sum the wall-clock time saved per day in \(repository)", days: days, now: now,
      saved: "? - (finishedAt - startedAt)",
      condition: """
        repository = ? AND state IN ('passed', 'failed') AND startedAt IS NOT NULL AND trigger != 'canary'
        """, arguments: [fullSuite, repository])
  }

  /// Per UTC day of the `days` that end with `now`'s, oldest first: `saved` (SQL, never below 0) summed over the runs
  /// that finished that day and meet `condition`, and how many they were; `arguments` fill the two in that order.
  private func sumPerDay(
    _ what: String, days: Int, now: Date, saved: String, condition: String, arguments: StatementArguments
  ) throws(RunStoreError) -> [(day: Date, seconds: Double, runs: Int)] {
    guard days > 0 else { throw .invalidArgument("the saved time was asked for \(days) days (must be 1 or more)") }
    let starts = HistoryPeriod.day.starts(count: days, endingAt: now)
    let totals: [Int: (Double, Int)] = try read(what) { db in
      try Self.buckets(
        db,
        sql: """
          SELECT CAST((finishedAt - ?) / ? AS INTEGER) AS bucket, SUM(MAX(0, \(saved))), COUNT(*)
          FROM runs WHERE \(condition) AND finishedAt >= ? AND finishedAt < ?
          GROUP BY bucket
          """,
        starts: starts, period: .day, arguments: arguments)
    }
    return starts.enumerated().map { index, day in
      let (seconds, runs) = totals[index] ?? (0, 0)
      return (day, seconds, runs)
    }
  }

  /// Per UTC week (Monday 00:00), for the `weeks` weeks that end with this one, oldest first: the selection misses
  /// found in the week (by the canary's end, `foundAt`) of runs of the repository. Weeks without misses are 0.
  public func missCountsByWeek(repository: String, weeks: Int, now: Date) throws(RunStoreError) -> [(
    weekStart: Date, count: Int
  )] {
    guard weeks > 0 else { throw .invalidArgument("misses were asked for \(weeks) weeks (must be 1 or more)") }
    let starts = HistoryPeriod.week.starts(count: weeks, endingAt: now)
    let counts: [Int: (Double, Int)] = try read("count the misses per week in \(repository)") { db in
      try Self.buckets(
        db,
        sql: """
          SELECT CAST((misses.foundAt - ?) / ? AS INTEGER) AS bucket, 0, COUNT(*)
          FROM misses JOIN runs ON runs.id = misses.runID
          WHERE runs.repository = ? AND misses.foundAt >= ? AND misses.foundAt < ?
          GROUP BY bucket
          """,
        starts: starts, period: .week, arguments: [repository])
    }
    return starts.enumerated().map { index, week in (week, counts[index]?.1 ?? 0) }
  }

  /// Runs a `bucket, sum, count` query whose arguments are: the first start and the period length (for the bucket),
  /// `arguments`, then the range (first start to the end of the last period).
  private static func buckets(
    _ db: Database, sql: String, starts: [Date], period: HistoryPeriod, arguments: StatementArguments
  ) throws -> [Int: (Double, Int)] {
    let first = Rows.seconds(starts[0])
    let end = Rows.seconds(starts[starts.count - 1]) + period.seconds
    var all: StatementArguments = [first, period.seconds]
    _ = all.append(contentsOf: arguments)
    _ = all.append(contentsOf: [first, end])
    var result: [Int: (Double, Int)] = [:]
    for row in try Row.fetchAll(db, sql: sql, arguments: all) {
      result[try row.decode(Int.self, atIndex: 0)] = (
        try row.decode(Double.self, atIndex: 1), try row.decode(atIndex: 2)
      )
    }
    return result
  }
}

/// A full run's wall-clock time: the canary that measured it and when it ended.
public struct FullSuiteMeasure: Sendable, Hashable {
  public var seconds: Double
  public var runID: Int64
  public var at: Date

  public init(seconds: Double, runID: Int64, at: Date) {
    self.seconds = seconds
    self.runID = runID
    self.at = at
  }
}
