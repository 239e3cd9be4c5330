#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Watches a tree by scanning it every interval and comparing `lstat` results with the previous scan.
/// Owned by one thread at a time.
final class PollingWatcher {
  let interval: Duration
  private let root: String
  private let filter: PathFilter
  private var snapshot = Snapshot()
  /// Unreadable directories already reported, so that the log gets one line per directory, not one per scan.
  private var reportedUnreadable: Set<String> = []

  var watchedDirectoryCount: Int { snapshot.directoryCount }

  /// Takes the first snapshot; it produces no change.
  init(root: String, filter: PathFilter, interval: Duration) {
    self.root = root
    self.filter = filter
    self.interval = interval
    _ = snapshot.update(root: root, filter: filter)
  }

  /// Directories the first snapshot could not read.
  func initialProblems() -> WatchBatch {
    var batch = WatchBatch()
    reportUnreadable(&batch)
    return batch
  }

  /// Scans again and reports what differs from the previous scan.
  func poll() -> WatchBatch {
    var batch = WatchBatch()
    batch.changed = Set(snapshot.update(root: root, filter: filter))
    // Ignore decisions are cached between scans; an edited .gitignore may change them.
    if batch.changed.contains(where: { $0 == ".gitignore" || $0.hasSuffix("/.gitignore") }) {
      snapshot.forgetIgnoreDecisions()
    }
    reportUnreadable(&batch)
    return batch
  }

  private func reportUnreadable(_ batch: inout WatchBatch) {
    for (directory, error) in snapshot.unreadable.sorted(by: { $0.key < $1.key })
    where !reportedUnreadable.contains(directory) {
      batch.rescan(
        "Could not read directory \(directory.isEmpty ? "." : directory) under \(root) (\(error.message)), so "
          + "changes inside it are not seen; make it readable by this user or add it to .gitignore.")
    }
    reportedUnreadable = Set(snapshot.unreadable.keys)
  }
}

/// Every entry of a tree with its `lstat` result, updated in place by each scan. Ignored entries are kept
/// too, with their decision: on a big tree a .gitignore match per file per scan would cost more than the scan.
struct Snapshot: Sendable {
  struct Entry: Sendable, Hashable {
    var status: FileStatus
    var isIgnored: Bool
    /// The scan that last saw this entry; older entries are gone.
    var scan: UInt64
  }

  private(set) var entries: [String: Entry] = [:]
  /// Directories listed by the last scan, the root included.
  private(set) var directoryCount = 0
  /// Directories that exist but could not be listed by the last scan (not the root when it is missing).
  private(set) var unreadable: [String: SystemError] = [:]
  private var scan: UInt64 = 0
  private var reaskIgnored = false

  /// Makes the next scan ask `isIgnored` again for every entry.
  mutating func forgetIgnoreDecisions() { reaskIgnored = true }

  /// Scans `root` again and returns, sorted, the non-ignored paths added, removed or changed since the previous
  /// scan. Uses `lstat` (through `fstatat` on the open directory): symlinks are entries of their own and never
  /// followed, so links to directories cannot cause loops.
  mutating func update(root: String, filter: PathFilter) -> [String] {
    scan += 1
    directoryCount = 0
    unreadable = [:]
    var changed: [String] = []
    var seen = 0
    var pending = [""]
    while let directory = pending.popLast() {
      let error = forEachEntry(inDirectory: absolutePath(root, directory)) { name, _, directoryFD in
        if PathFilter.isAlwaysSkipped(name) { return }
        let path = joinRelative(directory, name)
        guard let status = fileStatus(name, inDirectory: directoryFD) else { return }
        let ignored: Bool
        if let index = entries.index(forKey: path) {
          let old = entries.values[index]
          ignored =
            (reaskIgnored || old.status.isDirectory != status.isDirectory)
            ? filter.isIgnored(path, status.isDirectory) : old.isIgnored
          if old.isIgnored != ignored || (!ignored && Self.differs(old.status, status)) { changed.append(path) }
          entries.values[index] = Entry(status: status, isIgnored: ignored, scan: scan)
        } else {
          ignored = filter.isIgnored(path, status.isDirectory)
          if !ignored { changed.append(path) }
          entries[path] = Entry(status: status, isIgnored: ignored, scan: scan)
        }
        seen += 1
        if !ignored && status.isDirectory { pending.append(path) }
      }
      if let error {
        // Deleted or replaced since it was seen: the comparison reports that.
        if error.code != ENOENT && error.code != ENOTDIR { unreadable[directory] = error }
      } else {
        directoryCount += 1
      }
    }
    if seen < entries.count {
      let gone = entries.filter { $0.value.scan != scan }
      for (path, entry) in gone {
        entries[path] = nil
        if !entry.isIgnored { changed.append(path) }
      }
    }
    reaskIgnored = false
    return scan == 1 ? [] : changed.sorted()
  }

  /// A directory's own times change whenever an entry is added or removed; those entries are reported
  /// themselves, so a directory only counts as changed when it is replaced.
  static func differs(_ old: FileStatus, _ new: FileStatus) -> Bool {
    if old.isDirectory != new.isDirectory || old.isSymlink != new.isSymlink || old.inode != new.inode { return true }
    if new.isDirectory { return false }
    return old.size != new.size || old.modifiedNanoseconds != new.modifiedNanoseconds
      || old.changedNanoseconds != new.changedNanoseconds
  }
}
