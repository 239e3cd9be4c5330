import Foundation
import RippleConfig

/// The new files of one destination, complete in staging.
struct StagedDestination: Sendable, Hashable {
  /// Repo-relative.
  var destination: String
  var staging: String
  var files: [String]
}

/// What an install changed, for the summary.
public struct InstallOutcome: Sendable, Hashable {
  public var added = 0
  public var replaced = 0
  public var removed = 0
  public var unchanged = 0
  /// Repo-relative paths of Ripple files edited locally and kept (no `--force`).
  public var keptEdited: [String] = []
}

/// Merges a staged file set into destinations that may also hold user files, following the journal
/// protocol in `InstallJournal`: only Ripple's own files (per the receipt) are replaced or removed;
/// git-tracked files are never touched; files edited since Ripple installed them are kept unless
/// `force`; an unmanaged file in the way is an error unless `force`.
struct Installer {
  var state: RepositoryState
  var hook: InstallHook?

  func install(
    assetID: String, owner: AssetsError.Owner? = nil, kind: InstallKind, fingerprint: String,
    staged: [StagedDestination], oldReceipt: Receipt?,
    gitTracked: Set<String>, force: Bool
  ) throws -> InstallOutcome {
    let owner = owner ?? (kind == .generated ? .generateEntry(assetID) : .asset(assetID))
    var outcome = InstallOutcome()
    var moves: [InstallJournal.Moves] = []
    var newReceipt = Receipt(assetID: assetID, fingerprint: fingerprint, kind: kind, destinations: [:])
    for item in staged {
      let root = state.absolute(item.destination)
      if FileIO.exists(root) && !FileIO.isDirectory(root) {
        throw AssetsError.fileSystem(operation: "install into", path: root, reason: "it is a file, not a folder")
      }
      let old = Dictionary(
        (oldReceipt?.destinations[item.destination] ?? []).map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
      var entries: [ManagedFile] = []
      var moveOut: [String] = []
      var moveIn: [String] = []
      let newFiles = Set(item.files)
      for file in item.files {
        let target = root + "/" + file
        let repoPath = item.destination + "/" + file
        let fresh = try ManagedFile.record(file, at: item.staging + "/" + file)
        // The last line of defence for every kind of file (archive entry, transform output, download name).
        if let problem = ProtectedPaths.problem(in: repoPath) {
          throw AssetsError.protectedFile(owner: owner, path: repoPath, reason: problem)
        }
        if gitTracked.contains(repoPath) {
          throw AssetsError.gitTrackedFileInTheWay(owner: owner, path: repoPath)
        }
        guard FileIO.exists(target) else {
          moveIn.append(file)
          entries.append(fresh)
          outcome.added += 1
          continue
        }
        // `--force` hashes every file: an edit that kept size and mtime is replaced too.
        switch try Self.status(of: target, recorded: old[file], trustStamp: !force) {
        case .unchanged(let current) where current.sha256 == fresh.sha256:
          entries.append(current)
          outcome.unchanged += 1
        case .unchanged:
          moveOut.append(file)
          moveIn.append(file)
          entries.append(fresh)
          outcome.replaced += 1
        case .edited, .unmanaged:
          if force {
            moveOut.append(file)
            moveIn.append(file)
            entries.append(fresh)
            outcome.replaced += 1
          } else if old[file] == nil {
            throw AssetsError.unmanagedFileInTheWay(owner: owner, path: repoPath)
          } else {
            entries.append(old[file]!)
            outcome.keptEdited.append(repoPath)
          }
        }
      }
      for (file, recorded) in old where !newFiles.contains(file) {
        let target = root + "/" + file
        guard FileIO.exists(target), !gitTracked.contains(item.destination + "/" + file) else { continue }
        if case .unchanged = try Self.status(of: target, recorded: recorded) {
          moveOut.append(file)
          outcome.removed += 1
        } else if force {
          moveOut.append(file)
          outcome.removed += 1
        } else {
          outcome.keptEdited.append(item.destination + "/" + file)
        }
      }
      newReceipt.destinations[item.destination] = entries.sorted { $0.path < $1.path }
      moves.append(
        .init(
          destination: root, staging: item.staging,
          backup: state.backupPath(destination: item.destination, assetID: assetID), moveOut: moveOut.sorted(),
          moveIn: moveIn.sorted()))
    }

    var journal = InstallJournal(
      phase: .prepared, assetID: assetID, oldReceipt: oldReceipt, newReceipt: newReceipt, moves: moves)
    let journalPath = state.journalPath(assetID)
    do {
      try journal.write(to: journalPath)
      try hook?(.journalWritten)
      for move in moves {
        for file in move.moveOut {
          try moveFile(move.destination + "/" + file, to: move.backup + "/" + file)
          try hook?(.movedOut(file))
        }
        for file in move.moveIn {
          try moveFile(move.staging + "/" + file, to: move.destination + "/" + file)
          try hook?(.movedIn(file))
        }
      }
      journal.phase = .committed
      try journal.write(to: journalPath)
      try hook?(.committed)
    } catch let error as InstallInterrupted {
      throw error
    } catch {
      try? Self.recover(journalPath, state: state)
      throw error
    }
    try Self.finish(journal, journalPath: journalPath, state: state, hook: hook)
    return outcome
  }

  /// Completes or rolls back every interrupted install; returns the asset ids it touched.
  static func recoverAll(state: RepositoryState) throws -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: state.journalDirectory)) ?? []
    var recovered: [String] = []
    for name in names.sorted() where name.hasSuffix(".json") {
      try recover(state.journalDirectory + "/" + name, state: state)
      recovered.append(String(name.dropLast(5)))
    }
    return recovered
  }

  static func recover(_ journalPath: String, state: RepositoryState) throws {
    let journal = try InstallJournal.read(journalPath)
    if journal.phase == .prepared {
      for move in journal.moves {
        for file in move.moveIn {
          let installed = move.destination + "/" + file
          let staged = move.staging + "/" + file
          if FileIO.exists(installed) && !FileIO.exists(staged) { try moveFile(installed, to: staged) }
        }
        for file in move.moveOut where FileIO.exists(move.backup + "/" + file) {
          try moveFile(move.backup + "/" + file, to: move.destination + "/" + file)
        }
      }
      try state.saveReceipt(journal.oldReceipt, assetID: journal.assetID)
      for move in journal.moves {
        try FileIO.remove(move.backup)
        try FileIO.remove(move.staging)
      }
      try FileIO.remove(journalPath)
      return
    }
    try finish(journal, journalPath: journalPath, state: state, hook: nil)
  }

  /// After the commit point: the receipt, then clean-up, then the journal goes.
  private static func finish(
    _ journal: InstallJournal, journalPath: String, state: RepositoryState, hook: InstallHook?
  ) throws {
    try state.saveReceipt(journal.newReceipt, assetID: journal.assetID)
    try hook?(.receiptWritten)
    for move in journal.moves {
      try FileIO.remove(move.backup)
      try FileIO.remove(move.staging)
      for file in move.moveOut where !move.moveIn.contains(file) {
        FileIO.removeEmptyParents(of: move.destination + "/" + file, stop: move.destination)
      }
    }
    try hook?(.cleanedUp)
    try FileIO.remove(journalPath)
  }

  private static func moveFile(_ from: String, to: String) throws {
    try FileIO.createDirectory(PathParts.parent(to))
    try FileIO.rename(from, to)
  }

  private func moveFile(_ from: String, to: String) throws { try Self.moveFile(from, to: to) }

  enum FileStatus {
    case unchanged(ManagedFile)
    case edited
    case unmanaged
  }

  /// Unchanged when size and mtime match the receipt (no hashing); when they differ, the hash decides
  /// (a `touch` is not an edit).
  static func status(of path: String, recorded: ManagedFile?, trustStamp: Bool = true) throws -> FileStatus {
    guard let recorded else { return .unmanaged }
    if trustStamp && recorded.stampMatches(path) { return .unchanged(recorded) }
    let current = try ManagedFile.record(recorded.path, at: path)
    return current.sha256 == recorded.sha256 ? .unchanged(current) : .edited
  }
}
