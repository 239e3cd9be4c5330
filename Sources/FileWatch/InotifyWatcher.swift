import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Watches a tree with one inotify watch per non-ignored directory. Owned by one thread at a time.
final class InotifyWatcher {
  let fd: Int32
  private let root: String
  private let filter: PathFilter
  private let system: InotifySystem
  private let fallbackInterval: Duration
  private var pathByWD: [Int32: String] = [:]
  private var wdByPath: [String: Int32] = [:]
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
  private var isClosed = false

  var watchedDirectoryCount: Int { pathByWD.count }

  enum Start {
    /// Watching; the batch holds reasons for directories that could not be watched.
    case watching(InotifyWatcher, WatchBatch)
    /// inotify cannot be used (kernel limit, not supported): poll instead, saying why.
    case unavailable(reasons: [String])
  }

  private init(fd: Int32, root: String, filter: PathFilter, system: InotifySystem, fallbackInterval: Duration) {
    self.fd = fd
    self.root = root
    self.filter = filter
    self.system = system
    self.fallbackInterval = fallbackInterval
  }

  deinit {
    close()
    buffer.deallocate()
  }

  /// Creates the inotify instance and watches the whole tree before returning, so that any change made
  /// after `start` returns is seen.
  static func start(
    root: String, filter: PathFilter, system: InotifySystem, fallbackInterval: Duration
  ) throws(FileWatchError) -> Start {
    let fd: Int32
    switch system.initialize() {
    case .success(let value): fd = value
    case .failure(let error):
      return .unavailable(reasons: [
        initFailureReason(error, root: root, limit: system.limit("max_user_instances"), interval: fallbackInterval)
      ])
    }
    let watcher = InotifyWatcher(
      fd: fd, root: root, filter: filter, system: system, fallbackInterval: fallbackInterval)
    var batch = WatchBatch()
    var seen = Set<Int32>()
    let rootError = watcher.watchTree("", report: false, batch: &batch, seen: &seen)
    if batch.needsPolling {
      watcher.close()
      return .unavailable(reasons: batch.reasons)
    }
    if let rootError {
      watcher.close()
      throw FileWatchError(
        path: root, problem: "inotify_add_watch failed (\(rootError.message))",
        hint: "Check that the directory exists and is readable by this user, or use the polling backend.")
    }
    return .watching(watcher, batch)
  }

  /// Closing the fd drops every watch at once.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    closeDescriptor(fd)
    pathByWD = [:]
    wdByPath = [:]
  }

  // MARK: Reading

  /// Reads and handles everything pending (the fd is non-blocking). Bounded, so that a never-ending stream of
  /// events still gets delivered in batches.
  func readAvailable() -> WatchBatch {
    var batch = WatchBatch()
    for _ in 0..<64 {
      switch system.read(fd, buffer) {
      case .success(let count) where count > 0:
        let records = InotifyRecord.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        handle(records, batch: &batch)
        if batch.needsPolling { return batch }
      case .success:
        return batch
      case .failure(let error) where error.code == EINTR:
        continue
      case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK:
        return batch
      case .failure(let error):
        batch.needsPolling = true
        batch.rescan(
          "Reading inotify events for \(root) failed (\(error.message)); watching by polling every "
            + "\(describe(fallbackInterval)) instead.")
        return batch
      }
    }
    return batch
  }

  /// Turns kernel records into changed paths, keeping one watch per directory as directories come and go.
  func handle(_ records: [InotifyRecord], batch: inout WatchBatch) {
    var overflowed = false
    for record in records {
      if batch.needsPolling { return }
      if record.has(InotifyMask.queueOverflow) {
        overflowed = true
        batch.rescan(
          "The inotify event queue overflowed (fs.inotify.max_queued_events is \(system.limit("max_queued_events"))), "
            + "so changes under \(root) may have been missed. If this happens often, raise it, e.g. "
            + "`sudo sysctl fs.inotify.max_queued_events=65536` (persist it in /etc/sysctl.d/).")
        continue
      }
      // Events for a watch already dropped (a directory deleted or moved away) are stale.
      guard let directory = pathByWD[record.wd] else { continue }
      if record.has(InotifyMask.ignored) {
        forget(wd: record.wd)
        if directory.isEmpty { rootGone(&batch) }
        continue
      }
      if record.has(InotifyMask.deleteSelf) || record.has(InotifyMask.moveSelf) {
        // The parent's watch reports the entry itself; only the root has no parent to do so.
        if directory.isEmpty { rootGone(&batch) }
        continue
      }
      // An event about the watched directory itself is also reported, with a name, by its parent.
      guard !record.name.isEmpty else { continue }
      let path = joinRelative(directory, record.name)
      let isDirectory = record.has(InotifyMask.isDirectory)
      if filter.skips(path, name: record.name, isDirectory: isDirectory) { continue }
      batch.changed.insert(path)
      guard isDirectory else { continue }
      if record.has(InotifyMask.movedFrom) {
        unwatchTree(path)
      } else if record.has(InotifyMask.delete), let wd = wdByPath[path] {
        // Only an empty directory can be deleted, and the kernel drops its watch: forget it now, so that a
        // directory recreated under the same name before IN_IGNORED arrives keeps its new watch.
        forget(wd: wd)
      }
      if record.has(InotifyMask.create) || record.has(InotifyMask.movedTo) {
        var seen = Set<Int32>()
        watchTree(path, report: true, batch: &batch, seen: &seen)
      }
    }
    if overflowed && !batch.needsPolling { resynchronize(&batch) }
  }

  // MARK: Watches

  /// Watches `directory` and every non-ignored directory below it. Each directory is listed only after its
  /// watch exists, so an entry created meanwhile is either listed or reported by the watch (the classic
  /// mkdir-then-create race). With `report`, everything found goes into `batch.changed` (a new or moved-in
  /// directory). Collects the watch descriptors in `seen`; returns the error for `directory` itself, if any.
  @discardableResult
  private func watchTree(
    _ directory: String, report: Bool, batch: inout WatchBatch, seen: inout Set<Int32>
  ) -> SystemError? {
    var pending = [directory]
    var rootError: SystemError?
    while let current = pending.popLast() {
      let absolute = absolutePath(root, current)
      switch system.addWatch(fd, absolute, InotifyMask.directoryWatch) {
      case .success(let wd):
        register(wd: wd, path: current)
        seen.insert(wd)
      case .failure(let error) where error.code == ENOSPC:
        batch.needsPolling = true
        batch.rescan(
          "The inotify watch limit was reached: fs.inotify.max_user_watches is \(system.limit("max_user_watches")) "
            + "(shared by all of this user's processes) and \(pathByWD.count) directories under \(root) were "
            + "watched. Watching by polling every \(describe(fallbackInterval)) instead, which costs more CPU. "
            + "Raise the limit, e.g. `sudo sysctl fs.inotify.max_user_watches=524288` (persist it in "
            + "/etc/sysctl.d/), and restart rippled.")
        return nil
      case .failure(let error):
        if current == directory { rootError = error }
        // Gone, or replaced by a file or symlink, since it was listed: its parent reports that.
        if error.code == ENOENT || error.code == ENOTDIR || error.code == ELOOP { continue }
        batch.rescan(
          "Could not watch directory \(current.isEmpty ? "." : current) under \(root) (\(error.message)), so "
            + "changes inside it are not seen; make it readable by this user or add it to .gitignore.")
        continue
      }
      guard case .success(let entries) = listDirectory(absolute) else { continue }
      for entry in entries where !PathFilter.isAlwaysSkipped(entry.name) {
        let path = joinRelative(current, entry.name)
        let isDirectory = isDirectory(entry.kind, at: absolutePath(root, path))
        // At startup only directories matter; asking about every file would cost a .gitignore match each.
        if !isDirectory && !report { continue }
        if filter.isIgnored(path, isDirectory) { continue }
        if report { batch.changed.insert(path) }
        if isDirectory { pending.append(path) }
      }
    }
    return rootError
  }

  private func register(wd: Int32, path: String) {
    // inotify returns the existing descriptor when the inode is already watched (e.g. under an old name).
    if let oldPath = pathByWD[wd], oldPath != path, wdByPath[oldPath] == wd { wdByPath[oldPath] = nil }
    // A previous directory of the same name whose IN_IGNORED has not arrived yet.
    if let oldWD = wdByPath[path], oldWD != wd {
      pathByWD[oldWD] = nil
      system.removeWatch(fd, oldWD)
    }
    pathByWD[wd] = path
    wdByPath[path] = wd
  }

  private func forget(wd: Int32) {
    guard let path = pathByWD.removeValue(forKey: wd) else { return }
    if wdByPath[path] == wd { wdByPath[path] = nil }
  }

  /// Drops the watches of a directory that was moved away or deleted, and of everything below it: their
  /// descriptors would otherwise keep reporting under the old path.
  private func unwatchTree(_ directory: String) {
    for (path, wd) in wdByPath where isSameOrBelow(path, directory) {
      forget(wd: wd)
      system.removeWatch(fd, wd)
    }
  }

  /// After an overflow, directories may have been created or removed unseen: watch the tree again
  /// (existing watches are returned unchanged) and drop watches for directories no longer there.
  private func resynchronize(_ batch: inout WatchBatch) {
    var seen = Set<Int32>()
    watchTree("", report: false, batch: &batch, seen: &seen)
    if batch.needsPolling { return }
    for wd in Array(pathByWD.keys) where !seen.contains(wd) {
      forget(wd: wd)
      system.removeWatch(fd, wd)
    }
    if wdByPath[""] == nil { rootGone(&batch) }
  }

  private func rootGone(_ batch: inout WatchBatch) {
    batch.needsPolling = true
    batch.rescan(
      "The watched directory \(root) was deleted or moved away; polling for it every \(describe(fallbackInterval)) "
        + "until it is back. Restart rippled if the repository moved.")
  }

  private static func initFailureReason(
    _ error: SystemError, root: String, limit: String, interval: Duration
  ) -> String {
    let fallback = "Watching \(root) by polling every \(describe(interval)) instead, which costs more CPU."
    if error.code == EMFILE {
      return "Could not create an inotify instance (\(error.message)): this user's inotify instances reached "
        + "fs.inotify.max_user_instances (\(limit)), or this process ran out of file descriptors. \(fallback) "
        + "Raise the limit, e.g. `sudo sysctl fs.inotify.max_user_instances=512` (persist it in /etc/sysctl.d/), "
        + "or `ulimit -n`, and restart rippled."
    }
    return "inotify is not available (inotify_init1: \(error.message)). \(fallback)"
  }
}
