import Foundation
import GRDB
import RunModel

/// A stored value the store cannot decode; becomes `RunStoreError.unreadableValue`.
struct StoredValueError: Error {
  var detail: String
}

/// Reading and writing rows. Everything here runs inside a transaction the caller opened.
enum Rows {
  /// The `runs` columns a `RunRecord` needs: scalars only, never the analysis lists.
  static let runTableColumns =
    "id, repository, branch, trigger, base, head, state, reason, queuedAt, startedAt, finishedAt, "
    + "selectedTestTargets, totalTestTargets, failedTests, retryOf, attempt, logPath, fullSuiteSeconds, "
    + "selectedSeconds, subject, author, buildSeconds, testSeconds, coverageLinesCovered, coverageLinesTotal, "
    + "coverageTargetsMeasured, coverageTargetsNotMeasured, fresh"

  /// The run's cached test targets, counted from its targets (the runs list's "2 run, 4 cached").
  static let cachedCount =
    "(SELECT COUNT(*) FROM targets WHERE targets.runID = runs.id AND targets.isTest = 1 AND targets.status = 'cached')"

  /// `runTableColumns` and `cachedCount`: what `run(_:)` decodes.
  static let runColumns = runTableColumns + ", " + cachedCount

  static func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 }

  static func date(_ seconds: Double?) -> Date? { seconds.map(Date.init(timeIntervalSince1970:)) }

  /// Decodes a row whose columns are `runColumns`, in that order (by index: no name lookups).
  static func run(_ row: Row) throws -> RunRecord {
    let id = try row.decode(Int64.self, atIndex: 0)
    let triggerText = try row.decode(String.self, atIndex: 3)
    guard let trigger = RunTrigger(rawValue: triggerText) else {
      throw StoredValueError(detail: "run \(id) has an unknown trigger '\(triggerText)'")
    }
    let stateText = try row.decode(String.self, atIndex: 6)
    guard let state = RunState(rawValue: stateText) else {
      throw StoredValueError(detail: "run \(id) has an unknown state '\(stateText)'")
    }
    return RunRecord(
      id: id, repository: try row.decode(atIndex: 1), branch: try row.decode(atIndex: 2), trigger: trigger,
      base: try row.decode(atIndex: 4), head: try row.decode(atIndex: 5), state: state,
      reason: try row.decode(atIndex: 7), queuedAt: Date(timeIntervalSince1970: try row.decode(atIndex: 8)),
      startedAt: date(try row.decode(atIndex: 9)), finishedAt: date(try row.decode(atIndex: 10)),
      selectedTestTargets: try row.decode(atIndex: 11), totalTestTargets: try row.decode(atIndex: 12),
      failedTests: try row.decode(atIndex: 13), retryOf: try row.decode(atIndex: 14),
      attempt: try row.decode(atIndex: 15), logPath: try row.decode(atIndex: 16),
      fullSuiteSeconds: try row.decode(atIndex: 17), selectedSeconds: try row.decode(atIndex: 18),
      subject: try row.decode(atIndex: 19), author: try row.decode(atIndex: 20),
      buildSeconds: try row.decode(atIndex: 21), testSeconds: try row.decode(atIndex: 22),
      coverage: try coverage(row, from: 23), fresh: try row.decode(Bool.self, atIndex: 27),
      cachedTestTargets: try row.decode(Int?.self, atIndex: 28).flatMap { $0 > 0 ? $0 : nil })
  }

  /// The four coverage counts from `index` on; nil unless all are there (a run without coverage).
  static func coverage(_ row: Row, from index: Int) throws -> RunCoverage? {
    guard let covered = try row.decode(Int?.self, atIndex: index),
      let total = try row.decode(Int?.self, atIndex: index + 1),
      let measured = try row.decode(Int?.self, atIndex: index + 2),
      let notMeasured = try row.decode(Int?.self, atIndex: index + 3)
    else { return nil }
    return RunCoverage(
      linesCovered: covered, linesTotal: total, targetsMeasured: measured, targetsNotMeasured: notMeasured)
  }

  static func fetchRun(_ db: Database, _ id: Int64) throws -> RunRecord? {
    let statement = try db.cachedStatement(sql: "SELECT \(runColumns) FROM runs WHERE id = ?")
    return try Row.fetchOne(statement, arguments: [id]).map(run)
  }

  static func requireRun(_ db: Database, _ id: Int64) throws -> RunRecord {
    guard let run = try fetchRun(db, id) else { throw RunStoreError.unknownRun(id) }
    return run
  }

  static func fetchRuns(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [RunRecord] {
    try Row.fetchAll(db, sql: sql, arguments: arguments).map(run)
  }

  // MARK: JSON text columns

  static func json(_ list: [String]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return String(decoding: try encoder.encode(list), as: UTF8.self)
  }

  static func list(_ row: Row, _ column: String, of owner: String) throws -> [String] {
    let text = try row.decode(String.self, forColumn: column)
    do {
      return try JSONDecoder().decode([String].self, from: Data(text.utf8))
    } catch {
      throw StoredValueError(detail: "\(column) of \(owner) is not a JSON list of strings")
    }
  }

  static func target(_ row: Row, runID: Int64) throws -> RunTarget {
    let package = try row.decode(String.self, forColumn: "package")
    let name = try row.decode(String.self, forColumn: "name")
    let owner = "target \(package):\(name) of run \(runID)"
    var status: TargetStatus?
    if let text = try row.decode(String?.self, forColumn: "status") {
      guard let known = TargetStatus(rawValue: text) else {
        throw StoredValueError(detail: "\(owner) has an unknown status '\(text)'")
      }
      status = known
    }
    // A target that did not run keeps why in the failures column (RunExecutor's outcomes): a note, not failures.
    let stored = try list(row, "failures", of: owner)
    let isNote = status == .cached || status == .notRun
    return RunTarget(
      package: package, name: name, kind: try row.decode(forColumn: "kind"),
      isTest: try row.decode(forColumn: "isTest"), reasons: try list(row, "reasons", of: owner), status: status,
      duration: try row.decode(forColumn: "duration"), failures: isNote ? [] : stored,
      note: isNote && !stored.isEmpty ? stored.joined(separator: "\n") : nil)
  }

  static func transition(_ row: Row) throws -> RunTransition {
    let runID = try row.decode(Int64.self, forColumn: "runID")
    func state(_ column: String) throws -> RunState? {
      guard let text = try row.decode(String?.self, forColumn: column) else { return nil }
      guard let state = RunState(rawValue: text) else {
        throw StoredValueError(detail: "a transition of run \(runID) has an unknown state '\(text)'")
      }
      return state
    }
    guard let to = try state("toState") else {
      throw StoredValueError(detail: "a transition of run \(runID) has no target state")
    }
    return RunTransition(
      runID: runID, from: try state("fromState"), to: to,
      at: Date(timeIntervalSince1970: try row.decode(Double.self, forColumn: "at")),
      note: try row.decode(forColumn: "note"))
  }
}
