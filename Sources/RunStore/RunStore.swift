import Foundation
import GRDB
import RippleCore
import RunModel

/// The daemon's record of every run: a SQLite database in WAL mode that survives `kill -9`.
///
/// Every call is one short transaction on a GRDB `DatabasePool` (one writer, concurrent readers), run
/// synchronously: call it from any task or thread. Several `RunStore`s (in one or more processes) may share a
/// file: SQLite's locks serialize their writes, and a busy timeout makes a writer wait for another. Nothing that
/// grows with the number of runs is kept in memory.
///
/// Every state change goes through one function (`move`) that checks `RunState.canMove(to:)` and writes the run
/// and its journal row (`transitions`) in the same transaction.
public final class RunStore: Sendable {
  /// The database file, as given.
  public let path: String
  /// The reason (and journal note) of a run found `running` by `recoverInterrupted`.
  public static let interruptedReason = "the daemon stopped while it ran"
  /// How many webhook delivery ids `recordDelivery` remembers.
  public static let defaultDeliveriesKept = 10_000
  /// How long a write waits for another connection's write to end before failing with `busy`.
  static let busyTimeout: TimeInterval = 10
  /// Runs deleted per transaction by `prune`, so a large prune never holds the write lock for long.
  static let pruneBatch = 500

  let pool: DatabasePool
  private let now: @Sendable () -> Date
  private let deliveriesKept: Int

  /// Opens or creates the database at `path` (creating its directory), in WAL mode, and migrates its schema.
  /// `now` is the clock for every recorded time.
  public convenience init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws(RunStoreError) {
    try self.init(path: path, deliveriesKept: Self.defaultDeliveriesKept, now: now)
  }

  init(path: String, deliveriesKept: Int, now: @escaping @Sendable () -> Date) throws(RunStoreError) {
    guard !path.isEmpty else { throw .cannotOpen(path: path, message: "the path is empty") }
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw .cannotOpen(
        path: path, message: "cannot create the directory '\(directory.path)': \(Self.systemMessage(error))")
    }

    var configuration = Configuration()
    configuration.label = "RunStore"
    configuration.foreignKeysEnabled = true
    configuration.busyMode = .timeout(Self.busyTimeout)
    configuration.prepareDatabase { db in
      // WAL + FULL: a committed run survives a crash of the process and of the machine.
      try db.execute(sql: "PRAGMA synchronous = FULL")
      // After a checkpoint, truncate a WAL that grew past 64 MiB (a large prune) instead of keeping it.
      try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
    }

    // Processes opening a new file together can fail at once, where a retry succeeds: switching the file to WAL
    // returns SQLITE_BUSY without waiting (SQLite skips the busy handler there to avoid a deadlock), and two
    // migrators can race on a migration (the loser's CREATE TABLE or ALTER TABLE fails with SQLITE_ERROR). Retry
    // those; a race at most once per migration (each migration is its own transaction, so a loser that retried
    // while the winner was still migrating can lose again on a later one).
    let deadline = Date() + Self.busyTimeout
    var pause: TimeInterval = 0.005
    var races = 0
    let pool: DatabasePool
    while true {
      do {
        pool = try Self.open(path: path, configuration: configuration)
        break
      } catch let error as DatabaseError
        where ([.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) && Date() < deadline)
        || (error.resultCode == .SQLITE_ERROR && races < RunStoreSchema.migrator.migrations.count)
      {
        if error.resultCode == .SQLITE_ERROR { races += 1 }
        Thread.sleep(forTimeInterval: pause)
        pause = min(pause * 2, 0.2)
      } catch {
        throw Self.failure(error, path: path, operation: "open the run store")
      }
    }
    self.path = path
    self.pool = pool
    self.now = now
    self.deliveriesKept = max(1, deliveriesKept)
  }

  /// Opens the pool (which switches the file to WAL) and migrates the schema, refusing a newer one.
  private static func open(path: String, configuration: Configuration) throws -> DatabasePool {
    let pool = try DatabasePool(path: path, configuration: configuration)
    let migrator = RunStoreSchema.migrator
    if try pool.read({ try migrator.hasBeenSuperseded($0) }) { throw RunStoreError.newerSchema(path: path) }
    try migrator.migrate(pool)
    return pool
  }

  // MARK: Queue and state changes

  /// Queues a run (journaled as its creation).
  public func enqueue(_ new: NewRun) throws(RunStoreError) -> RunRecord {
    try Self.validate(new)
    return try write("queue a run of \(new.repository) \(new.branch)") { db in
      try Self.insert(db, new, at: now(), note: nil)
    }
  }

  /// queued → running: sets `startedAt` and, when given, the log file.
  public func markRunning(_ id: Int64, logPath: String?) throws(RunStoreError) -> RunRecord {
    try write("start run \(id)") { db in
      try Self.move(db, id, to: .running, at: now(), logPath: logPath)
    }
  }

  /// Moves a run to a final state (passed, failed, error, superseded, cancelled, interrupted) and sets
  /// `finishedAt` and `reason`. A live `state`, or a move `canMove(to:)` forbids, throws `illegalTransition`.
  public func finish(_ id: Int64, state: RunState, reason: String?) throws(RunStoreError) -> RunRecord {
    try write("finish run \(id) as \(state.rawValue)") { db in
      try Self.move(db, id, to: state, at: now(), reason: reason, requireFinal: true)
    }
  }

  /// Graceful stop past the grace period: running → interrupted. Nothing is re-queued here.
  public func interrupt(_ id: Int64, reason: String) throws(RunStoreError) -> RunRecord {
    try write("interrupt run \(id)") { db in
      try Self.move(db, id, to: .interrupted, at: now(), reason: reason, requireFinal: true)
    }
  }

  /// After a crash: every `running` run becomes `interrupted` (reason `interruptedReason`), and each whose
  /// attempt is below `maxAttempts` gets exactly one new queued run (trigger `.requeue`, `retryOf` its id,
  /// attempt + 1), unless a newer run of the same branch and commit is queued or running, all in one transaction: a crash during recovery neither loses nor doubles a re-queue. A second
  /// call finds nothing to do. Queued runs are left alone.
  public func recoverInterrupted(maxAttempts: Int = 3) throws(RunStoreError) -> (
    interrupted: [RunRecord], requeued: [RunRecord]
  ) {
    try write("recover runs interrupted by a stop of the daemon") { db in
      let at = now()
      let running = try Rows.fetchRuns(
        db, sql: "SELECT \(Rows.runColumns) FROM runs WHERE state = ? ORDER BY id",
        arguments: [RunState.running.rawValue])
      var interrupted: [RunRecord] = []
      var requeued: [RunRecord] = []
      for run in running {
        interrupted.append(try Self.move(db, run.id, to: .interrupted, at: at, reason: Self.interruptedReason))
        guard run.attempt < maxAttempts, try !Self.hasNewerActiveRun(db, like: run) else { continue }
        let retry = NewRun(
          repository: run.repository, branch: run.branch, head: run.head, trigger: .requeue, retryOf: run.id,
          attempt: run.attempt + 1)
        let note = "re-queued: run \(run.id) was interrupted (attempt \(retry.attempt) of \(maxAttempts))"
        requeued.append(try Self.insert(db, retry, at: at, note: note))
      }
      return (interrupted, requeued)
    }
  }

  /// Whether a newer run of the same repository, branch and commit is queued or was running (it does the
  /// interrupted run's work, so that one is not queued again).
  private static func hasNewerActiveRun(_ db: Database, like run: RunRecord) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS(SELECT 1 FROM runs WHERE repository = ? AND branch = ? AND head = ? AND id > ?
          AND state IN (?, ?))
        """,
      arguments: [
        run.repository, run.branch, run.head, run.id, RunState.queued.rawValue, RunState.running.rawValue,
      ]) ?? false
  }

  /// A write that changes nothing in the end (a row added and removed in one transaction): whether the file
  /// takes writes again after a failure.
  public func probeWrite() throws(RunStoreError) {
    try write("probe a write") { db in
      try db.execute(sql: "INSERT INTO deliveries (deliveryID, receivedAt) VALUES ('rippled-probe', 0)")
      try db.execute(sql: "DELETE FROM deliveries WHERE deliveryID = 'rippled-probe'")
    }
  }

  // MARK: Analysis and results

  /// Records (or replaces) the analysis of a run: its base and counts, changed files, reasons, warnings,
  /// targets and edges.
  public func recordAnalysis(_ id: Int64, _ analysis: RunAnalysis) throws(RunStoreError) {
    var keys = Set<String>()
    for target in analysis.targets where !keys.insert(target.key).inserted {
      throw .invalidArgument("the analysis of run \(id) lists target \(target.key) twice")
    }
    try write("record the analysis of run \(id)") { db in
      _ = try Rows.requireRun(db, id)
      try db.execute(
        sql: """
          UPDATE runs SET base = ?, selectedTestTargets = ?, totalTestTargets = ?, fullSuiteSeconds = ?,
            selectedSeconds = ? WHERE id = ?
          """,
        arguments: [
          analysis.base, analysis.selectedTestTargets, analysis.totalTestTargets, analysis.fullSuiteSeconds,
          analysis.selectedSeconds, id,
        ])
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO analyses (runID, changedFiles, runAllReasons, warnings, baseNote)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [
          id, try Rows.json(analysis.changedFiles), try Rows.json(analysis.runAllReasons),
          try Rows.json(analysis.warnings), analysis.baseNote,
        ])
      try db.execute(sql: "DELETE FROM targets WHERE runID = ?", arguments: [id])
      try db.execute(sql: "DELETE FROM edges WHERE runID = ?", arguments: [id])
      for (position, target) in analysis.targets.enumerated() {
        try Self.insertTarget(db, runID: id, position: position, target)
      }
      let insertEdge = try db.cachedStatement(
        sql: "INSERT INTO edges (runID, position, fromKey, toKey) VALUES (?, ?, ?, ?)")
      for (position, edge) in analysis.edges.enumerated() {
        try insertEdge.execute(arguments: [id, position, edge.from, edge.to])
      }
    }
  }

  /// Records the outcome of test targets (matched by package and name; a result for a target the analysis did
  /// not list is added as a test target without reasons), the number of failed tests, and the seconds the build and
  /// test phases took (kept when nil).
  public func recordResults(
    _ id: Int64, _ results: [TargetOutcome], failedTests: Int, buildSeconds: Double? = nil, testSeconds: Double? = nil
  ) throws(RunStoreError) {
    try write("record the test results of run \(id)") { db in
      _ = try Rows.requireRun(db, id)
      try db.execute(
        sql: """
          UPDATE runs SET failedTests = ?, buildSeconds = COALESCE(?, buildSeconds),
            testSeconds = COALESCE(?, testSeconds) WHERE id = ?
          """,
        arguments: [failedTests, buildSeconds, testSeconds, id])
      var next =
        try Int.fetchOne(
          db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM targets WHERE runID = ?", arguments: [id]) ?? 0
      let update = try db.cachedStatement(
        sql: "UPDATE targets SET status = ?, duration = ?, failures = ? WHERE runID = ? AND package = ? AND name = ?")
      for result in results {
        try update.execute(arguments: [
          result.status.rawValue, result.duration, try Rows.json(result.failures), id, result.package, result.name,
        ])
        guard db.changesCount == 0 else { continue }
        let target = RunTarget(
          package: result.package, name: result.name, kind: "test", isTest: true, reasons: [],
          status: result.status, duration: result.duration, failures: result.failures)
        try Self.insertTarget(db, runID: id, position: next, target)
        next += 1
      }
    }
  }

  /// Records the suite's line coverage of run `id` (`coverage: true`); a run never given one keeps NULLs.
  public func recordCoverage(_ id: Int64, _ coverage: RunCoverage) throws(RunStoreError) {
    let counts = [coverage.linesCovered, coverage.linesTotal, coverage.targetsMeasured, coverage.targetsNotMeasured]
    guard counts.allSatisfy({ $0 >= 0 }), coverage.linesCovered <= coverage.linesTotal else {
      throw .invalidArgument("the coverage of run \(id) is not a set of counts: \(coverage)")
    }
    try write("record the coverage of run \(id)") { db in
      _ = try Rows.requireRun(db, id)
      try db.execute(
        sql: """
          UPDATE runs SET coverageLinesCovered = ?, coverageLinesTotal = ?, coverageTargetsMeasured = ?,
            coverageTargetsNotMeasured = ? WHERE id = ?
          """,
        arguments: [
          coverage.linesCovered, coverage.linesTotal, coverage.targetsMeasured, coverage.targetsNotMeasured, id,
        ])
    }
  }

  /// Names the head commit of `repository`'s runs at `commit` whose commit is not named yet (read from the
  /// mirror once, for the pages); returns how many runs it named.
  @discardableResult
  public func nameCommit(repository: String, commit: String, _ summary: CommitSummary) throws(RunStoreError) -> Int {
    try nameCommits(repository: repository, [commit: summary])
  }

  /// `nameCommit` for several commits of one repository, in one transaction (a page's first reading).
  @discardableResult
  public func nameCommits(repository: String, _ summaries: [String: CommitSummary]) throws(RunStoreError) -> Int {
    guard !summaries.isEmpty else { return 0 }
    return try write("name \(summaries.count) commits of \(repository)") { db in
      let update = try db.cachedStatement(
        sql: "UPDATE runs SET subject = ?, author = ? WHERE repository = ? AND head = ? AND subject IS NULL")
      var named = 0
      for (commit, summary) in summaries.sorted(by: { $0.key < $1.key }) {
        try update.execute(arguments: [summary.subject, summary.author, repository, commit])
        named += db.changesCount
      }
      return named
    }
  }

  // MARK: Queries

  public func run(_ id: Int64) throws(RunStoreError) -> RunRecord? {
    try read("read run \(id)") { db in try Rows.fetchRun(db, id) }
  }

  /// The run, its analysis (nil until recorded) and its journal in order.
  public func detail(_ id: Int64) throws(RunStoreError) -> RunDetail? {
    try read("read run \(id)") { db in
      guard let run = try Rows.fetchRun(db, id) else { return nil }
      let lists = try Row.fetchOne(
        db, sql: "SELECT changedFiles, runAllReasons, warnings, baseNote FROM analyses WHERE runID = ?",
        arguments: [id])
      let targets = try Row.fetchAll(
        db,
        sql: """
          SELECT package, name, kind, isTest, reasons, status, duration, failures
          FROM targets WHERE runID = ? ORDER BY position
          """,
        arguments: [id]
      ).map { try Rows.target($0, runID: id) }
      let edges = try Row.fetchAll(
        db, sql: "SELECT fromKey, toKey FROM edges WHERE runID = ? ORDER BY position", arguments: [id]
      ).map { RunEdge(from: try $0.decode(forColumn: "fromKey"), to: try $0.decode(forColumn: "toKey")) }
      var analysis: RunAnalysis?
      if lists != nil || !targets.isEmpty {
        let owner = "the analysis of run \(id)"
        analysis = RunAnalysis(
          base: run.base,
          changedFiles: try lists.map { try Rows.list($0, "changedFiles", of: owner) } ?? [],
          runAllReasons: try lists.map { try Rows.list($0, "runAllReasons", of: owner) } ?? [],
          warnings: try lists.map { try Rows.list($0, "warnings", of: owner) } ?? [],
          targets: targets, edges: edges, selectedTestTargets: run.selectedTestTargets ?? 0,
          totalTestTargets: run.totalTestTargets ?? 0, fullSuiteSeconds: run.fullSuiteSeconds,
          selectedSeconds: run.selectedSeconds, baseNote: try lists?.decode(forColumn: "baseNote"))
      }
      let transitions = try Row.fetchAll(
        db, sql: "SELECT runID, fromState, toState, at, note FROM transitions WHERE runID = ? ORDER BY id",
        arguments: [id]
      ).map(Rows.transition)
      return RunDetail(run: run, analysis: analysis, transitions: transitions)
    }
  }

  /// Runs newest first (by id), optionally of one repository, branch and/or set of states; `before` pages:
  /// pass the id of the last run of the previous page.
  public func runs(
    repository: String? = nil, branch: String? = nil, states: Set<RunState>? = nil, limit: Int = 50,
    before: Int64? = nil
  ) throws(RunStoreError) -> [RunRecord] {
    guard limit > 0 else { return [] }
    var conditions: [String] = []
    var arguments: [(any DatabaseValueConvertible)?] = []
    if let repository {
      conditions.append("repository = ?")
      arguments.append(repository)
    }
    if let branch {
      conditions.append("branch = ?")
      arguments.append(branch)
    }
    if let before {
      conditions.append("id < ?")
      arguments.append(before)
    }
    let sql: String
    switch states.map({ $0.map(\.rawValue).sorted() }) {
    case nil:
      let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
      sql = "SELECT \(Rows.runColumns) FROM runs \(filter) ORDER BY id DESC LIMIT ?"
      arguments.append(limit)
    case let states?:
      guard !states.isEmpty else { return [] }
      // One index walk per state (newest first, stopping at `limit`), merged: no sort of every matching row.
      let filter = (conditions + ["state = ?"]).joined(separator: " AND ")
      let branchArguments = arguments
      arguments = []
      let parts = states.map { state in
        arguments += branchArguments + [state, limit]
        return "SELECT * FROM (SELECT \(Rows.runColumns) FROM runs WHERE \(filter) ORDER BY id DESC LIMIT ?)"
      }
      sql = "SELECT * FROM (\(parts.joined(separator: " UNION ALL "))) ORDER BY id DESC LIMIT ?"
      arguments.append(limit)
    }
    return try read("list runs") { db in
      try Rows.fetchRuns(db, sql: sql, arguments: StatementArguments(arguments))
    }
  }

  /// The runs of `repository` that had target `package`:`name` in their analysis or results, newest first, at most
  /// `limit`, each with the target as that run recorded it (status, duration, failures): the target's history page.
  public func targetHistory(repository: String, package: String, name: String, limit: Int = 50) throws(RunStoreError)
    -> [TargetRun]
  {
    guard limit > 0 else { return [] }
    let columns =
      Rows.runTableColumns.split(separator: ",").map { "runs." + $0.trimmingCharacters(in: .whitespaces) }
      + [Rows.cachedCount]
    let sql = """
      SELECT \(columns.joined(separator: ", ")), targets.package, targets.name, targets.kind, targets.isTest,
        targets.reasons, targets.status, targets.duration, targets.failures
      FROM targets JOIN runs ON runs.id = targets.runID
      WHERE targets.package = ? AND targets.name = ? AND runs.repository = ?
      ORDER BY targets.runID DESC LIMIT ?
      """
    return try read("read the history of \(package):\(name) in \(repository)") { db in
      try Row.fetchAll(db, sql: sql, arguments: [package, name, repository, limit]).map { row in
        let run = try Rows.run(row)
        return TargetRun(run: run, target: try Rows.target(row, runID: run.id))
      }
    }
  }

  /// Queued runs, oldest first.
  public func queued() throws(RunStoreError) -> [RunRecord] {
    try read("list queued runs") { db in
      try Rows.fetchRuns(
        db, sql: "SELECT \(Rows.runColumns) FROM runs WHERE state = ? ORDER BY id",
        arguments: [RunState.queued.rawValue])
    }
  }

  /// The newest (highest id first) passed runs of a branch, at most `limit`: the bases a run may compare with
  /// (`RunPlanning.base` chooses among them by ancestry).
  public func passedRuns(repository: String, branch: String, limit: Int = 50) throws(RunStoreError) -> [RunRecord] {
    try read("list the passed runs of \(repository) \(branch)") { db in
      try Rows.fetchRuns(
        db,
        sql:
          "SELECT \(Rows.runColumns) FROM runs WHERE repository = ? AND branch = ? AND state = ? "
          // A target skipped for a pass record was proven at the record's commit, not this run's: such a run
          // is no base (a false hit would otherwise hide its target from every later run).
          + "AND NOT EXISTS (SELECT 1 FROM targets WHERE targets.runID = runs.id AND targets.status = ?) "
          + "ORDER BY id DESC LIMIT ?",
        arguments: [repository, branch, RunState.passed.rawValue, TargetStatus.cached.rawValue, limit])
    }
  }

  /// The newest queued or running run of a branch, if any.
  public func activeRun(repository: String, branch: String) throws(RunStoreError) -> RunRecord? {
    try read("find the active run of \(repository) \(branch)") { db in
      try Rows.fetchRuns(
        db,
        sql: "SELECT \(Rows.runColumns) FROM runs WHERE repository = ? AND branch = ? AND state IN (?, ?) "
          + "ORDER BY id DESC LIMIT 1",
        arguments: [repository, branch, RunState.queued.rawValue, RunState.running.rawValue]
      ).first
    }
  }

  /// The head of the newest (highest id) run of a branch, in any state.
  public func lastHead(repository: String, branch: String) throws(RunStoreError) -> String? {
    try read("find the last run of \(repository) \(branch)") { db in
      try String.fetchOne(
        db, sql: "SELECT head FROM runs WHERE repository = ? AND branch = ? ORDER BY id DESC LIMIT 1",
        arguments: [repository, branch])
    }
  }

  /// The number of runs in each state (every state present, 0 when none).
  public func countsByState() throws(RunStoreError) -> [RunState: Int] {
    try read("count runs by state") { db in
      var counts = Dictionary(uniqueKeysWithValues: RunState.allCases.map { ($0, 0) })
      for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS count FROM runs GROUP BY state") {
        let text = try row.decode(String.self, forColumn: "state")
        guard let state = RunState(rawValue: text) else {
          throw StoredValueError(detail: "runs have an unknown state '\(text)'")
        }
        counts[state] = try row.decode(Int.self, forColumn: "count")
      }
      return counts
    }
  }

  // MARK: Process groups of running runs

  /// Remembers that a child of run `id` leads process group `pgid` (while it runs).
  public func recordProcessGroup(_ pgid: Int32, run id: Int64) throws(RunStoreError) {
    try write("record process group \(pgid) of run \(id)") { db in
      try db.execute(
        sql: "INSERT OR IGNORE INTO processGroups (runID, pgid) VALUES (?, ?)", arguments: [id, pgid])
    }
  }

  /// Forgets process group `pgid` of run `id` (its leader ended), or every group of the run when nil.
  public func forgetProcessGroups(run id: Int64, pgid: Int32? = nil) throws(RunStoreError) {
    try write("forget the process groups of run \(id)") { db in
      if let pgid {
        try db.execute(sql: "DELETE FROM processGroups WHERE runID = ? AND pgid = ?", arguments: [id, pgid])
      } else {
        try db.execute(sql: "DELETE FROM processGroups WHERE runID = ?", arguments: [id])
      }
    }
  }

  /// Every recorded process group, by run id then group id.
  public func processGroups() throws(RunStoreError) -> [(run: Int64, pgid: Int32)] {
    try read("list the recorded process groups") { db in
      try Row.fetchAll(db, sql: "SELECT runID, pgid FROM processGroups ORDER BY runID, pgid").map {
        (try $0.decode(Int64.self, atIndex: 0), try $0.decode(Int32.self, atIndex: 1))
      }
    }
  }

  /// Forgets every recorded process group (after they were stopped at start).
  public func clearProcessGroups() throws(RunStoreError) {
    try write("clear the recorded process groups") { db in try db.execute(sql: "DELETE FROM processGroups") }
  }

  // MARK: Webhooks and retention

  /// GitHub webhook dedup: true when `deliveryID` was not seen before (it is then remembered; only the newest
  /// `defaultDeliveriesKept` ids are kept).
  public func recordDelivery(_ deliveryID: String) throws(RunStoreError) -> Bool {
    guard !deliveryID.isEmpty else { throw .invalidArgument("a webhook delivery id is empty") }
    return try write("remember webhook delivery \(deliveryID)") { db in
      try db.execute(
        sql: "INSERT OR IGNORE INTO deliveries (deliveryID, receivedAt) VALUES (?, ?)",
        arguments: [deliveryID, Rows.seconds(now())])
      guard db.changesCount == 1 else { return false }
      // Ids have gaps (an ignored insert still uses one), so find the oldest id to keep rather than subtract.
      try db.execute(
        sql: "DELETE FROM deliveries WHERE id < (SELECT id FROM deliveries ORDER BY id DESC LIMIT 1 OFFSET ?)",
        arguments: [deliveriesKept - 1])
      return true
    }
  }

  /// Deletes final runs beyond the newest `maxRuns` runs and final runs that finished before now − `maxAge`,
  /// with their analysis, targets, edges and journal; queued and running runs are never deleted. Returns the log
  /// paths of the deleted runs, for the caller to delete. Deletes in batches of `pruneBatch` runs per
  /// transaction; when a later batch fails, the error is thrown and the earlier batches stay deleted.
  public func prune(maxRuns: Int, maxAge: Duration) throws(RunStoreError) -> [String] {
    guard maxRuns >= 0 else { throw .invalidArgument("prune was asked to keep \(maxRuns) runs") }
    let (seconds, attoseconds) = maxAge.components
    let cutoff = Rows.seconds(now()) - (Double(seconds) + Double(attoseconds) / 1e18)
    // Runs with an id below this one are beyond the newest `maxRuns` (fixed now: new runs only get higher ids).
    let threshold: Int64 = try read("find the runs to prune") { db in
      guard maxRuns > 0 else { return Int64.max }
      return try Int64.fetchOne(
        db, sql: "SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?", arguments: [maxRuns - 1]) ?? 0
    }
    // Two passes, each walking an index: beyond the newest `maxRuns` (a rowid range), then too old (finishedAt).
    let live = [RunState.queued.rawValue, RunState.running.rawValue]
    let byCount = "SELECT id, logPath FROM runs WHERE id < ? AND state NOT IN (?, ?) ORDER BY id LIMIT ?"
    let byAge = "SELECT id, logPath FROM runs WHERE finishedAt < ? AND state NOT IN (?, ?) ORDER BY finishedAt LIMIT ?"
    var logPaths: [String] = []
    for (sql, bound) in [(byCount, threshold as any DatabaseValueConvertible), (byAge, cutoff)] {
      while true {
        let (count, paths) = try write("prune old runs") { db in
          let rows = try Row.fetchAll(db, sql: sql, arguments: [bound, live[0], live[1], Self.pruneBatch])
          let ids = try rows.map { try $0.decode(Int64.self, atIndex: 0) }
          if !ids.isEmpty {
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            try db.execute(sql: "DELETE FROM runs WHERE id IN (\(marks))", arguments: StatementArguments(ids))
          }
          return (ids.count, try rows.compactMap { try $0.decode(String?.self, atIndex: 1) })
        }
        logPaths += paths
        if count < Self.pruneBatch { break }
      }
    }
    return logPaths
  }

  /// Runs SQLite's `quick_check` over the whole file: throws `corrupt` when it finds damage.
  public func checkIntegrity() throws(RunStoreError) {
    let problems = try read("check the run store") { db in
      try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
    }
    guard problems == ["ok"] else {
      throw .corrupt(path: path, message: problems.joined(separator: "; "))
    }
  }

  /// Copies every committed change from the WAL into the database file and empties the WAL, so a stopped
  /// daemon leaves one self-contained file (to back up, copy or inspect).
  public func checkpoint() throws(RunStoreError) {
    do {
      try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    } catch {
      throw Self.failure(error, path: path, operation: "checkpoint the write-ahead log")
    }
  }

  // MARK: The journal and rows (inside the caller's transaction)

  /// The one place a run changes state: checks `canMove(to:)` (and, for `requireFinal`, that the state is
  /// final), updates the row and journals the change, in the caller's transaction — both or neither are written.
  /// Entering `running` sets `startedAt` (and the log path, when given); a final state sets `finishedAt` and the
  /// reason, which is also the journal note.
  static func move(
    _ db: Database, _ id: Int64, to next: RunState, at: Date, reason: String? = nil, logPath: String? = nil,
    requireFinal: Bool = false
  ) throws -> RunRecord {
    var run = try Rows.requireRun(db, id)
    let previous = run.state
    guard previous.canMove(to: next), next.isFinal || !requireFinal else {
      throw RunStoreError.illegalTransition(run: id, from: previous, to: next)
    }
    run.state = next
    if next == .running {
      run.startedAt = at
      if let logPath { run.logPath = logPath }
    }
    if next.isFinal {
      run.finishedAt = at
      run.reason = reason
    }
    let update = try db.cachedStatement(
      sql: """
        UPDATE runs SET state = ?, reason = ?, startedAt = ?, finishedAt = ?, logPath = ?
        WHERE id = ? AND state = ?
        """)
    try update.execute(arguments: [
      next.rawValue, run.reason, run.startedAt.map(Rows.seconds), run.finishedAt.map(Rows.seconds), run.logPath,
      id, previous.rawValue,
    ])
    guard db.changesCount == 1 else { throw RunStoreError.illegalTransition(run: id, from: previous, to: next) }
    try journal(db, id, from: previous, to: next, at: at, note: next.isFinal ? reason : nil)
    return try Rows.requireRun(db, id)
  }

  static func insert(_ db: Database, _ new: NewRun, at: Date, note: String?) throws -> RunRecord {
    if let retryOf = new.retryOf, try Rows.fetchRun(db, retryOf) == nil { throw RunStoreError.unknownRun(retryOf) }
    let statement = try db.cachedStatement(
      sql: """
        INSERT INTO runs (repository, branch, trigger, head, state, queuedAt, retryOf, attempt, fresh)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    try statement.execute(arguments: [
      new.repository, new.branch, new.trigger.rawValue, new.head, RunState.queued.rawValue, Rows.seconds(at),
      new.retryOf, new.attempt, new.fresh,
    ])
    let id = db.lastInsertedRowID
    try journal(db, id, from: nil, to: .queued, at: at, note: note)
    return try Rows.requireRun(db, id)
  }

  static func journal(_ db: Database, _ id: Int64, from: RunState?, to: RunState, at: Date, note: String?) throws {
    let statement = try db.cachedStatement(
      sql: "INSERT INTO transitions (runID, fromState, toState, at, note) VALUES (?, ?, ?, ?, ?)")
    try statement.execute(arguments: [id, from?.rawValue, to.rawValue, Rows.seconds(at), note])
  }

  static func insertTarget(_ db: Database, runID: Int64, position: Int, _ target: RunTarget) throws {
    let statement = try db.cachedStatement(
      sql: """
        INSERT INTO targets (runID, position, package, name, kind, isTest, reasons, status, duration, failures)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    try statement.execute(arguments: [
      runID, position, target.package, target.name, target.kind, target.isTest, try Rows.json(target.reasons),
      target.status?.rawValue, target.duration, try Rows.json(target.note.map { [$0] } ?? target.failures),
    ])
  }

  static func validate(_ new: NewRun) throws(RunStoreError) {
    for (field, value) in [("repository", new.repository), ("branch", new.branch), ("head", new.head)]
    where value.isEmpty {
      throw .invalidArgument("a new run has an empty \(field)")
    }
    guard new.attempt >= 1 else { throw .invalidArgument("a new run has attempt \(new.attempt) (must be 1 or more)") }
  }

  // MARK: Access and errors

  func write<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws(RunStoreError)
    -> T
  {
    do {
      return try pool.write(body)
    } catch {
      throw Self.failure(error, path: path, operation: operation())
    }
  }

  func read<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws(RunStoreError)
    -> T
  {
    do {
      return try pool.read(body)
    } catch {
      throw Self.failure(error, path: path, operation: operation())
    }
  }

  /// Maps any error out of GRDB (or thrown inside a transaction) to the store's error.
  static func failure(_ error: any Error, path: String, operation: String) -> RunStoreError {
    switch error {
    case let error as RunStoreError:
      return error
    case let error as StoredValueError:
      return .unreadableValue(path: path, detail: error.detail)
    case let error as RowDecodingError:
      return .unreadableValue(path: path, detail: "\(error)")
    case let error as DatabaseError:
      return failure(
        code: error.extendedResultCode.rawValue, message: error.message ?? "\(error.resultCode)", path: path,
        operation: operation)
    default:
      return .sqlite(path: path, operation: operation, code: 0, message: "\(error)")
    }
  }

  /// Maps an SQLite result code (primary or extended) and message to the store's error.
  static func failure(code: Int32, message: String, path: String, operation: String) -> RunStoreError {
    switch ResultCode(rawValue: code).primaryResultCode {
    case .SQLITE_FULL: .diskFull(path: path, operation: operation)
    case .SQLITE_READONLY: .readOnly(path: path, operation: operation, message: message)
    case .SQLITE_IOERR: .ioError(path: path, operation: operation, message: message)
    case .SQLITE_CORRUPT, .SQLITE_NOTADB: .corrupt(path: path, message: message)
    case .SQLITE_BUSY, .SQLITE_LOCKED: .busy(path: path, operation: operation)
    case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: .cannotOpen(path: path, message: message)
    default: .sqlite(path: path, operation: operation, code: code, message: message)
    }
  }

  /// The operating system's message for a Foundation file error ("Permission denied"), else its description.
  static func systemMessage(_ error: any Error) -> String {
    let error = error as NSError
    for candidate in [error, error.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 })
    where candidate.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(candidate.code)))
    }
    return error.localizedDescription
  }
}
