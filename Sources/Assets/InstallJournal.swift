import Foundation

/// The write-ahead record of one asset's swap: `<repo>/.build/ripple/journal/<asset-id>.json`.
///
/// Protocol (every step is a rename on one file system, or an atomic file replacement):
/// 1. The new files are complete in staging (beside each destination); the journal is written with
///    phase `prepared`, the old and new receipts, and the exact moves; it is flushed.
/// 2. Each Ripple file being replaced or removed is renamed from the destination into the backup
///    folder; then each new file is renamed from staging into the destination. User files are never
///    moved.
/// 3. The journal is rewritten with phase `committed` (the commit point), then the new receipt.
/// 4. Backup and staging are deleted, then the journal.
///
/// Recovery (at the start of every run, under the repository lock): a `prepared` journal is rolled
/// back — new files already moved in are moved back to staging, backed-up files are renamed back, the
/// old receipt is restored — and a `committed` one is rolled forward (receipt written, clean-up
/// finished). So after a crash at any point (`kill -9`, power loss) the destination holds either the
/// full old set or the full new set of Ripple's files, and the next run completes.
struct InstallJournal: Codable, Sendable, Hashable {
  enum Phase: String, Codable, Sendable {
    case prepared, committed
  }

  struct Moves: Codable, Sendable, Hashable {
    /// Absolute paths.
    var destination: String
    var staging: String
    var backup: String
    /// Relative paths: old Ripple files moved destination → backup.
    var moveOut: [String]
    /// Relative paths: new files moved staging → destination.
    var moveIn: [String]
  }

  var phase: Phase
  var assetID: String
  var oldReceipt: Receipt?
  var newReceipt: Receipt
  var moves: [Moves]

  func write(to path: String) throws {
    try FileIO.writeAtomically(try RepositoryState.encoder.encode(self), to: path)
  }

  static func read(_ path: String) throws -> InstallJournal {
    do {
      return try JSONDecoder().decode(InstallJournal.self, from: try FileIO.read(path))
    } catch let error as AssetsError {
      throw error
    } catch {
      throw AssetsError.fileSystem(
        operation: "read the install journal", path: path,
        reason: "\(error.localizedDescription); delete it and the .ripple-* folders beside the destinations")
    }
  }
}

/// Points in the install protocol, for tests that simulate a crash between two steps.
public enum InstallStep: Sendable, Hashable {
  case journalWritten
  case movedOut(String)
  case movedIn(String)
  case committed
  case receiptWritten
  case cleanedUp
}

/// Thrown by a test hook to stop an install as `kill -9` would: nothing after it runs, no rollback.
public struct InstallInterrupted: Error, Sendable {
  public init() {}
}

public typealias InstallHook = @Sendable (InstallStep) throws -> Void
