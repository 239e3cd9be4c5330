import Foundation
import Git
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths of a watched working tree that changed since the last sync: filled by the watcher, taken by the
/// run that syncs. `nil` means "unknown: sync everything" (start-up, a rescan, a failed sync).
package final class DirtyPaths: Sendable {
  private let paths = Locked<Set<String>?>(nil)
  /// The private copy against its HEAD after the last sync; nil after a failed one (scan it again).
  let copyDelta = Locked<WorkingTreeDelta?>(nil)
  /// The private copy, kept open between runs so that libgit2 keeps its index loaded: hashing a file as git
  /// does looks up `.gitattributes` in the index, and reading a 100,000-entry index costs ~100 ms per save.
  /// Only Ripple writes the copy's index, through this handle; runs of a lane run one at a time.
  private let openCopy = Locked<(path: String, repository: GitRepository)?>(nil)

  package init() {}

  func mark(_ changed: Set<String>) { paths.withLock { $0?.formUnion(changed) } }
  func markAll() {
    paths.withLock { $0 = nil }
    copyDelta.withLock { $0 = nil }
    openCopy.withLock { $0 = nil }
  }

  /// The private copy at `path`, opened (or created) once and then reused while it is still there.
  package func copy(at path: String, objectsOf source: GitRepository) throws -> GitRepository {
    if let open = openCopy.withLock({ $0 }), open.path == path,
      FileManager.default.fileExists(atPath: path + "/.git/HEAD")
    {
      return open.repository
    }
    let repository = try GitRepository.openOrCreateWorktree(at: path, objectsOf: source)
    openCopy.withLock { $0 = (path, repository) }
    return repository
  }

  /// What to sync now (nil: everything); the set starts empty again.
  func take() -> Set<String>? {
    paths.withLock { current in
      defer { current = [] }
      return current
    }
  }
}

/// Makes a private copy hold exactly the files a developer's working tree holds (as git sees them: tracked
/// files on disk plus untracked, non-ignored ones), so tests never run in — or write into — their checkout.
/// A full sync compares every file (size, modification time, mode); after that, only the paths the watcher
/// reported are looked at, so a save costs one file, not a scan of the tree. The copy keeps the source's
/// modification times, and a full sync refreshes its index, so a full status scan there stays fast.
package enum WorktreeSync {
  package struct Summary: Sendable, Equatable {
    package var copied: Int
    package var removed: Int
    package var full: Bool
  }

  /// Brings the private copy to the developer's HEAD and working tree for a run, and says how the copy
  /// differs from that HEAD: from the paths the watcher reported (`dirty`), or, after a checkout, a full
  /// sync or a failure, from one status scan of the copy.
  package static func prepare(from source: GitRepository, to copy: GitRepository, dirty: DirtyPaths?) throws
    -> (Summary, WorkingTreeDelta)
  {
    let head = try source.headCommit()
    var paths = dirty?.take()
    let known = dirty?.copyDelta.withLock { $0 }
    do {
      if (try? copy.headCommit()) != head {
        try copy.checkOut(head)
        paths = nil  // the checkout rewrote tracked files: compare everything
      }
      let summary = try sync(from: source, to: copy, only: paths)
      let delta: WorkingTreeDelta
      if !summary.full, let paths, var known, known.head == head {
        try known.update(paths, in: copy)
        delta = known
      } else {
        delta = try WorkingTreeDelta.scan(copy, head: head)
      }
      dirty?.copyDelta.withLock { $0 = delta }
      return (summary, delta)
    } catch {
      dirty?.markAll()  // a half-done sync: the next one compares everything
      throw error
    }
  }

  static func sync(from source: GitRepository, to copy: GitRepository, only paths: Set<String>?) throws -> Summary {
    guard let from = source.workdir, let to = copy.workdir else {
      throw GitError.bareRepository(path: source.gitDirectory, operation: "copy the working tree")
    }
    guard let paths, paths.count <= 2_000 else { return try mirror(from: source, to: copy) }
    var tree = CopyTree(root: to)
    var summary = Summary(copied: 0, removed: 0, full: false)
    for path in paths.sorted() {
      var status = stat()
      if lstat(from + "/" + path, &status) != 0 {
        // Gone from the source: removed from the copy, never through a link (a link in its way is removed).
        guard tree.parentsExist(of: path) else { continue }
        var copied = stat()
        guard lstat(to + "/" + path, &copied) == 0 else { continue }
        if (copied.st_mode & S_IFMT) == S_IFDIR {
          // A folder moved or deleted as a whole (the watcher names only the folder): its files go too.
          let files = copy.workingTreeFiles(under: path).count
          try tree.remove(path)
          summary.removed += files
        } else if unlink(to + "/" + path) == 0 {
          summary.removed += 1
        }
        continue
      }
      // A folder appeared or moved in: both watchers also report each file inside it, so only the folder
      // itself is made here (replacing a file or link of that name).
      if (status.st_mode & S_IFMT) == S_IFDIR {
        if try tree.prepareFolder(path) { summary.removed += 1 }
        continue
      }
      if try copyIfDifferent(from + "/" + path, path, in: &tree, status: status) {
        summary.copied += 1
      }
    }
    // A link or file stood where a folder belongs (a run replaced a tracked folder): it is gone, and what it hid
    // is copied again by a full comparison.
    if tree.replaced > 0 { return try mirror(from: source, to: copy) }
    // The copy's index is not rewritten here: that costs the whole index (every entry written and hashed)
    // per save, and nothing reads the copy's status per save any more (WorkingTreeDelta); a later full
    // scan re-reads the few files whose stamps went stale.
    return summary
  }

  /// The full comparison: every file of the source against the copy; extra files in the copy removed.
  static func mirror(from source: GitRepository, to copy: GitRepository) throws -> Summary {
    guard let from = source.workdir, let to = copy.workdir else {
      throw GitError.bareRepository(path: source.gitDirectory, operation: "copy the working tree")
    }
    let wanted = try source.workingTreeFiles()
    var tree = CopyTree(root: to)
    var summary = Summary(copied: 0, removed: 0, full: true)
    for path in wanted {
      var status = stat()
      guard lstat(from + "/" + path, &status) == 0 else { continue }  // deleted since it was listed
      if try copyIfDifferent(from + "/" + path, path, in: &tree, status: status) { summary.copied += 1 }
    }
    let wantedSet = Set(wanted)
    for path in try copy.workingTreeFiles() where !wantedSet.contains(path) {
      if tree.parentsExist(of: path), unlink(to + "/" + path) == 0 { summary.removed += 1 }
    }
    if summary.copied + summary.removed > 0 { try copy.refreshIndex() }
    return summary
  }

  /// Copies when size, modification time or mode differ; true when it copied. `path`'s parents in the copy are
  /// made real folders first, so neither the comparison nor the copy goes through a link.
  private static func copyIfDifferent(_ src: String, _ path: String, in tree: inout CopyTree, status a: stat) throws
    -> Bool
  {
    try tree.prepareParents(of: path)
    let dst = tree.root + "/" + path
    var b = stat()
    if lstat(dst, &b) == 0, a.st_size == b.st_size, modificationTime(a) == modificationTime(b), a.st_mode == b.st_mode {
      return false
    }
    try copyFile(src, dst, status: a)
    return true
  }

  private static func modificationTime(_ s: stat) -> Int {
    #if canImport(Darwin)
      return s.st_mtimespec.tv_sec * 1_000_000_000 + s.st_mtimespec.tv_nsec
    #else
      return s.st_mtim.tv_sec * 1_000_000_000 + s.st_mtim.tv_nsec
    #endif
  }

  /// Copies through a temporary file and a rename (a half-written file is never seen), keeping mode and times.
  /// The parents are real folders (`CopyTree.prepareParents`); a link at `dst` itself is replaced, not followed.
  private static func copyFile(_ src: String, _ dst: String, status: stat) throws {
    let manager = FileManager.default
    let temporary = dst + ".ripple-sync"
    try? manager.removeItem(atPath: temporary)
    if (status.st_mode & S_IFMT) == S_IFLNK {
      let target = try manager.destinationOfSymbolicLink(atPath: src)
      try manager.createSymbolicLink(atPath: temporary, withDestinationPath: target)
    } else {
      try manager.copyItem(atPath: src, toPath: temporary)
      chmod(temporary, status.st_mode & 0o7777)
      #if canImport(Darwin)
        var times = [status.st_atimespec, status.st_mtimespec]
      #else
        var times = [status.st_atim, status.st_mtim]
      #endif
      utimensat(AT_FDCWD, temporary, &times, 0)
    }
    guard rename(temporary, dst) == 0 else {
      let reason = String(cString: strerror(errno))
      try? manager.removeItem(atPath: temporary)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: dst, NSLocalizedDescriptionKey: reason])
    }
  }
}

/// The private copy's paths, reached from its root one component at a time with `lstat` (never `stat`): a link
/// or a file where a folder belongs is removed as a link (never followed) and a folder made in its place, and a
/// folder is deleted entry by entry without entering a link. So nothing outside the copy is written or deleted,
/// whatever a run left in it. Folders found real are remembered for one sync.
struct CopyTree {
  let root: String
  /// Links or files found where a folder belongs, and removed.
  private(set) var replaced = 0
  private var folders: Set<String> = []

  init(root: String) { self.root = root }

  /// Makes every parent folder of `path` a real folder.
  mutating func prepareParents(of path: String) throws {
    var current = ""
    for component in path.split(separator: "/").dropLast() {
      current = current.isEmpty ? String(component) : current + "/" + component
      _ = try prepare(current, isParent: true)
    }
  }

  /// Makes `path` and its parents real folders; true when a file of its name was removed for it (a developer
  /// replaced a file with a folder). A link of its name is removed too, and counts as `replaced`.
  mutating func prepareFolder(_ path: String) throws -> Bool {
    try prepareParents(of: path)
    return try prepare(path, isParent: false)
  }

  /// True when a regular file stood there and was removed.
  private mutating func prepare(_ relative: String, isParent: Bool) throws -> Bool {
    guard !folders.contains(relative) else { return false }
    let full = root + "/" + relative
    var status = stat()
    var removedFile = false
    if lstat(full, &status) == 0 {
      if (status.st_mode & S_IFMT) != S_IFDIR {
        guard unlink(full) == 0 else { throw Self.failure("remove", full) }
        removedFile = (status.st_mode & S_IFMT) == S_IFREG
        // A parent that was not a folder, or a link anywhere, hid what belongs there: a full sync restores it.
        if isParent || !removedFile { replaced += 1 }
        guard mkdir(full, 0o755) == 0 else { throw Self.failure("make the folder", full) }
      }
    } else if errno == ENOENT {
      guard mkdir(full, 0o755) == 0 || errno == EEXIST else { throw Self.failure("make the folder", full) }
    } else {
      throw Self.failure("inspect", full)
    }
    folders.insert(relative)
    return removedFile
  }

  /// Whether every parent of `path` is a real folder in the copy. A link or file in the way is removed (never
  /// followed): then there is nothing under it to remove, and false.
  mutating func parentsExist(of path: String) -> Bool {
    var current = ""
    for component in path.split(separator: "/").dropLast() {
      current = current.isEmpty ? String(component) : current + "/" + component
      if folders.contains(current) { continue }
      var status = stat()
      guard lstat(root + "/" + current, &status) == 0 else { return false }
      guard (status.st_mode & S_IFMT) == S_IFDIR else {
        if unlink(root + "/" + current) == 0 { replaced += 1 }
        return false
      }
      folders.insert(current)
    }
    return true
  }

  /// Removes the folder `path` and everything in it; a link inside is removed, never entered.
  mutating func remove(_ path: String) throws {
    try Self.removeTree(root + "/" + path)
    folders = folders.filter { $0 != path && !$0.hasPrefix(path + "/") }
  }

  private static func removeTree(_ full: String) throws {
    var status = stat()
    guard lstat(full, &status) == 0 else { return }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: full)) ?? [] {
        try removeTree(full + "/" + name)
      }
      guard rmdir(full) == 0 || errno == ENOENT else { throw failure("remove the folder", full) }
    } else {
      guard unlink(full) == 0 || errno == ENOENT else { throw failure("remove", full) }
    }
  }

  private static func failure(_ operation: String, _ path: String) -> CocoaError {
    let reason = String(cString: strerror(errno))
    return CocoaError(
      .fileWriteUnknown,
      userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "cannot \(operation) \(path): \(reason)"])
  }
}
