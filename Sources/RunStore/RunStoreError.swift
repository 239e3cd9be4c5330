import RippleCore
import RunModel

/// Everything the run store can fail with. Each description says what failed, where, and what to do.
///
/// Environment cases (the disk, the file, another process) are worth retrying once the cause is fixed: the
/// daemon keeps running and reports itself unhealthy. Internal cases are bugs in the caller.
public enum RunStoreError: RippleError, Equatable {
  /// The database file (or its directory) cannot be opened or created.
  case cannotOpen(path: String, message: String)
  /// SQLITE_FULL: the disk (or the file system quota) is full.
  case diskFull(path: String, operation: String)
  /// SQLITE_READONLY: the file, its directory or the file system does not accept writes.
  case readOnly(path: String, operation: String, message: String)
  /// SQLITE_IOERR: the operating system failed to read or write the file.
  case ioError(path: String, operation: String, message: String)
  /// SQLITE_BUSY / SQLITE_LOCKED past the busy timeout: another connection held the database too long.
  case busy(path: String, operation: String)
  /// SQLITE_CORRUPT / SQLITE_NOTADB: the file is damaged or is not a SQLite database.
  case corrupt(path: String, message: String)
  /// A stored value cannot be decoded (an unknown state, malformed JSON): the file was edited by something else.
  case unreadableValue(path: String, detail: String)
  /// The schema was migrated by a newer rippled that this one does not know.
  case newerSchema(path: String)
  /// A state change that `RunState.canMove(to:)` forbids, or `finish` with a live state.
  case illegalTransition(run: Int64, from: RunState, to: RunState)
  /// No run has this id (never created, or pruned).
  case unknownRun(Int64)
  /// The caller passed a value the store cannot record (an empty repository, attempt 0, a duplicate target…).
  case invalidArgument(String)
  /// Any other SQLite failure: the operation, SQLite's result code and message.
  case sqlite(path: String, operation: String, code: Int32, message: String)

  public var category: ErrorCategory {
    switch self {
    case .cannotOpen, .diskFull, .readOnly, .ioError, .busy, .corrupt, .unreadableValue, .newerSchema: .environment
    case .illegalTransition, .unknownRun, .invalidArgument, .sqlite: .internal
    }
  }

  public var description: String {
    switch self {
    case .cannotOpen(let path, let message):
      "cannot open or create the run store '\(path)' (\(message)); check the permissions and owner of the file "
        + "and its directory (the user running rippled must be able to create and write both) and that the disk "
        + "is not full"
    case .diskFull(let path, let operation):
      "the disk holding the run store '\(path)' is full, so rippled could not \(operation); free some space "
        + "(or lower the run retention): rippled keeps running and retries"
    case .readOnly(let path, let operation, let message):
      "the run store '\(path)' is read-only, so rippled could not \(operation) (\(message)); make the file, "
        + "its -wal and -shm files and its directory writable by the user running rippled, or remount the disk "
        + "read-write"
    case .ioError(let path, let operation, let message):
      "rippled could not \(operation): an I/O error on the run store '\(path)' (\(message)); check the disk "
        + "(dmesg, free space, mount state): rippled keeps running and retries"
    case .busy(let path, let operation):
      "the run store '\(path)' stayed locked by another connection, so rippled could not \(operation); "
        + "check that no other rippled or sqlite3 shell holds it open in a long transaction"
    case .corrupt(let path, let message):
      "the run store '\(path)' is corrupt or is not a SQLite database (\(message)); stop rippled, move the "
        + "file and its -wal and -shm files aside (e.g. `mv \(path) \(path).broken`) and start rippled again: "
        + "it creates an empty store, and the old file stays for inspection"
    case .unreadableValue(let path, let detail):
      "the run store '\(path)' holds a value rippled cannot read (\(detail)); if the file was edited by hand or "
        + "by a newer rippled, restore a backup or move it aside"
    case .newerSchema(let path):
      "the run store '\(path)' was upgraded by a newer rippled; run that version, or move the file aside to "
        + "start an empty store"
    case .illegalTransition(let run, let from, let to):
      "internal error: run \(run) cannot move from \(from.rawValue) to \(to.rawValue); nothing was changed "
        + "(please report this)"
    case .unknownRun(let id):
      "internal error: there is no run \(id) in the run store (it was never created, or was pruned) "
        + "(please report this)"
    case .invalidArgument(let message):
      "internal error: the run store cannot record this: \(message) (please report this)"
    case .sqlite(let path, let operation, let code, let message):
      "internal error: SQLite failed to \(operation) in the run store '\(path)': \(message) (SQLite error \(code)) "
        + "(please report this)"
    }
  }
}
