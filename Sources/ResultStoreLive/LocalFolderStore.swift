import Foundation
import PassRecords
import ResultStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records as files, `<folder>/ab/abcdef…` (sharded by the key's first two digits), bounded by `maxSize`.
///
/// A save writes a temporary file in the record's own shard folder and renames it over the record, so two
/// writers racing one key (processes or tasks) leave one whole record, never a mix. A load sets the file's
/// access and modification times to now, so the modification time orders records by their last use; when
/// the folder outgrows `maxSize` after a save, the least recently used records are deleted until it holds at
/// most 90 % of it. The folder's size is measured once per client (on its first save) and then kept up to
/// date from its own saves: another process's records are counted at the next measure, which every
/// eviction makes.
///
/// The store touches only its own files (docs/DESIGN.md, "test.resultCache"): the folder is marked as its own
/// (`markerName`, written when the store makes the folder or takes an empty one, or adopts one that holds only
/// its shards of records), a folder that is not (`/`, `$HOME`, the repository, a file, anything else) is refused
/// when the store is made (`LocalStoreFolder.refusal`). Only names it writes are counted, read or deleted: a
/// shard is two lowercase hex digits, a record 64 with the shard's prefix, a temporary file `.tmp-<UUID>`; all
/// through descriptors opened with `O_NOFOLLOW` from the folder down, so a link (or anything but a folder or
/// regular file) in the store is never counted, deleted, written through or followed. Saves hold an exclusive
/// `flock` on the marker, so a checked save (`saveChecked`: no write lowers trust) reads and replaces atomically
/// against every other writer of the folder.
final class LocalFolderStore: @unchecked Sendable {
  let folder: String
  let maxSize: Int64
  private let lock = NSLock()
  /// Bytes in the folder as this client knows them; nil until measured.
  private var usage: Int64?

  static let temporaryPrefix = ".tmp-"
  /// The file that marks a folder as a result store's own (and the lock its writers take).
  static let markerName = ".ripple-result-store"
  /// A temporary file older than this is a crashed writer's: eviction removes it.
  static let abandonedAfter: TimeInterval = 3600

  init(folder: String, maxSize: Int64) {
    self.folder = folder
    self.maxSize = maxSize
  }

  var client: ResultStoreClient {
    var client = ResultStoreClient(
      name: folder, load: { key in try self.load(key) },
      save: { key, data in _ = try self.save(key, data, unlessLowering: nil) },
      saveChecked: { key, data, rule in try self.save(key, data, unlessLowering: rule) })
    client.writtenOnlyByThisUser = Self.writableOnlyByThisUser(folder)
    return client
  }

  /// The folder (or, before its first write, the nearest existing parent) is this user's, and neither its
  /// group nor others may write it: no other account can plant a record there.
  static func writableOnlyByThisUser(_ folder: String) -> Bool {
    var path = folder
    var status = stat()
    while lstat(path, &status) != 0 {
      let parent = (path as NSString).deletingLastPathComponent
      guard parent != path, !parent.isEmpty else { return false }
      path = parent
    }
    return status.st_mode & S_IFMT == S_IFDIR && status.st_uid == geteuid() && status.st_mode & 0o022 == 0
  }

  func path(_ key: RecordKey) -> String { "\(folder)/\(key.hex.prefix(2))/\(key.hex)" }

  func load(_ key: RecordKey) throws(ResultStoreError) -> Data? {
    let root = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard root >= 0 else {
      if errno == ENOENT { return nil }
      throw ResultStoreError(.io, store: folder, detail: "cannot open \(folder): \(Self.reason())")
    }
    defer { close(root) }
    guard let shard = Self.openShard(root, String(key.hex.prefix(2)), create: false) else { return nil }
    defer { close(shard) }
    let file = openat(shard, key.hex, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    // Missing, or a link (ELOOP): no record.
    guard file >= 0 else { return nil }
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0, status.st_mode & 0o170000 == 0o100000 else { return nil }
    guard status.st_size <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: folder,
        detail:
          "the record \(key) holds \(status.st_size) bytes, more than a record may (\(ResultStoreLimits.maximumRecordBytes))"
      )
    }
    guard let data = Self.readAll(file, limit: ResultStoreLimits.maximumRecordBytes) else {
      throw ResultStoreError(.io, store: folder, detail: "cannot read \(path(key)): \(Self.reason())")
    }
    guard data.count <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(.tooLarge, store: folder, detail: "the record \(key) grew past the limit while read")
    }
    _ = futimens(file, nil)
    return data
  }

  /// Writes `data` at `key`; with a rule, only when the record there may be replaced (checked and written under
  /// the folder's lock).
  func save(_ key: RecordKey, _ data: Data, unlessLowering rule: RecordReplacement?) throws(ResultStoreError)
    -> RecordReplacement.Decision
  {
    guard data.count <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: folder,
        detail:
          "a record of \(data.count) bytes is more than a record may hold (\(ResultStoreLimits.maximumRecordBytes))")
    }
    let root = try openOwnedFolder()
    defer { close(root) }
    let marker = openat(root, Self.markerName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard marker >= 0 else {
      throw ResultStoreError(.io, store: folder, detail: "cannot open \(folder)/\(Self.markerName): \(Self.reason())")
    }
    defer { close(marker) }
    // Held only while this thread reads and renames, never across a suspension.
    while flock(marker, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw ResultStoreError(.io, store: folder, detail: "cannot lock \(folder)/\(Self.markerName): \(Self.reason())")
      }
    }
    defer { flock(marker, LOCK_UN) }
    let name = String(key.hex.prefix(2))
    guard let shard = Self.openShard(root, name, create: true) else {
      throw ResultStoreError(
        .io, store: folder, detail: "\(folder)/\(name) is not a folder (a link or a file): the record is not written")
    }
    defer { close(shard) }
    if let rule {
      var existing: Data?
      let file = openat(shard, key.hex, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      if file >= 0 {
        var status = stat()
        if fstat(file, &status) == 0, status.st_mode & 0o170000 == 0o100000 {
          existing = Self.readAll(file, limit: ResultStoreLimits.maximumRecordBytes)
        }
        close(file)
      }
      let decision = rule.decide(existing: existing, replacement: data)
      guard decision == .replace else { return decision }
    }
    let temporary = "\(Self.temporaryPrefix)\(UUID().uuidString)"
    let out = openat(shard, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard out >= 0 else {
      throw ResultStoreError(
        .io, store: folder, detail: "cannot write \(folder)/\(name)/\(temporary): \(Self.reason())")
    }
    let written = Self.writeAll(out, data)
    close(out)
    guard written else {
      let reason = Self.reason()
      unlinkat(shard, temporary, 0)
      throw ResultStoreError(.io, store: folder, detail: "cannot write \(folder)/\(name)/\(temporary): \(reason)")
    }
    // Replaces whatever has the record's name (a planted link included) without following it.
    guard renameat(shard, temporary, shard, key.hex) == 0 else {
      let reason = Self.reason()
      unlinkat(shard, temporary, 0)
      throw ResultStoreError(.io, store: folder, detail: "cannot rename the new record to \(path(key)): \(reason)")
    }
    keepBound(added: Int64(data.count), root: root)
    return .replace
  }

  /// The folder, opened; made (with its marker) when missing, and marked when it is empty or holds only this
  /// store's files. A folder that is not the store's is refused: nothing is written there.
  private func openOwnedFolder() throws(ResultStoreError) -> Int32 {
    var root = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if root < 0, errno == ENOENT {
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw ResultStoreError(.io, store: folder, detail: "cannot make \(folder): \(error.localizedDescription)")
      }
      root = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
    guard root >= 0 else {
      throw ResultStoreError(.io, store: folder, detail: "cannot open \(folder): \(Self.reason())")
    }
    switch LocalStoreFolder.ownership(root) {
    case .owned: return root
    case .adoptable:
      let marker = openat(root, Self.markerName, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
      if marker >= 0 {
        close(marker)
        return root
      }
      let reason = Self.reason()
      close(root)
      throw ResultStoreError(.io, store: folder, detail: "cannot mark \(folder) as a result store: \(reason)")
    case .foreign(let why):
      close(root)
      throw ResultStoreError(.io, store: folder, detail: "\(folder) is not a Ripple result store (\(why)): not written")
    }
  }

  /// Counts `added` bytes and, past `maxSize`, deletes the least recently used records down to 90 % of it.
  private func keepBound(added: Int64, root: Int32) {
    lock.withLock {
      if let known = usage {
        usage = known + added
      } else {
        usage = Self.records(in: root).reduce(0) { $0 + $1.size }
      }
      guard let current = usage, current > maxSize else { return }
      usage = evict(target: maxSize / 10 * 9, root: root)
    }
  }

  /// Deletes records, oldest use first, until at most `target` bytes remain; returns the bytes left.
  private func evict(target: Int64, root: Int32) -> Int64 {
    let now = Date().timeIntervalSince1970
    var files = Self.records(in: root)
    var total = files.reduce(0) { $0 + $1.size }
    // A crashed writer's leftovers go first; a temporary file still being written is left alone.
    files.removeAll { file in
      guard file.isTemporary else { return false }
      if now - file.modified > Self.abandonedAfter, Self.remove(file, root: root) { total -= file.size }
      return true
    }
    files.sort { ($0.modified, $0.shard, $0.name) < ($1.modified, $1.shard, $1.name) }
    for file in files where total > target {
      if Self.remove(file, root: root) || errno == ENOENT { total -= file.size }
    }
    return total
  }

  struct StoredFile {
    var shard: String
    var name: String
    var size: Int64
    var modified: TimeInterval
    var isTemporary: Bool
  }

  /// Every record (and temporary file) of every shard folder: the names this store writes, regular files only.
  static func records(in root: Int32) -> [StoredFile] {
    var files: [StoredFile] = []
    for shard in entries(root) where LocalStoreFolder.isShardName(shard) {
      guard let fd = openShard(root, shard, create: false) else { continue }
      defer { close(fd) }
      for name in entries(fd) {
        let isTemporary = LocalStoreFolder.isTemporaryName(name)
        guard isTemporary || LocalStoreFolder.isRecordName(name, shard: shard) else { continue }
        var status = stat()
        guard fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & 0o170000 == 0o100000 else {
          continue
        }
        files.append(
          StoredFile(
            shard: shard, name: name, size: Int64(status.st_size), modified: modificationTime(status),
            isTemporary: isTemporary))
      }
    }
    return files
  }

  /// Unlinks `file` if it is still a regular file in a real shard folder.
  private static func remove(_ file: StoredFile, root: Int32) -> Bool {
    guard let fd = openShard(root, file.shard, create: false) else { return false }
    defer { close(fd) }
    var status = stat()
    guard fstatat(fd, file.name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & 0o170000 == 0o100000 else {
      return false
    }
    return unlinkat(fd, file.name, 0) == 0
  }

  /// The shard folder `name` under `root`, never through a link; nil when it is missing or not a folder.
  static func openShard(_ root: Int32, _ name: String, create: Bool) -> Int32? {
    if create { _ = mkdirat(root, name, 0o755) }
    let fd = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    return fd >= 0 ? fd : nil
  }

  /// The names in the folder open at `fd` (not `.` and `..`).
  static func entries(_ fd: Int32) -> [String] {
    // A description of its own (not `dup`, which shares the read position with `fd` and every other copy).
    let copy = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard copy >= 0 else { return [] }
    guard let directory = fdopendir(copy) else {
      close(copy)
      return []
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  static func modificationTime(_ status: stat) -> TimeInterval {
    #if os(Linux)
      let time = status.st_mtim
    #else
      let time = status.st_mtimespec
    #endif
    return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9
  }

  static func readAll(_ fd: Int32, limit: Int) -> Data? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { return data }
      data.append(buffer, count: count)
      if data.count > limit { return data }
    }
  }

  static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += count
      }
      return true
    }
  }

  static func reason() -> String { String(cString: strerror(errno)) }
}

/// Whether a folder may hold a local store (docs/DESIGN.md, "test.resultCache"): never `/`, `$HOME`, the
/// repository's work tree or a folder holding either, a file, or a folder that is not the store's own.
enum LocalStoreFolder {
  enum Ownership: Equatable {
    /// It holds the marker.
    case owned
    /// Empty, or only shard folders of records (a store from before the marker): marked when first written.
    case adoptable
    case foreign(String)
  }

  /// Why `folder` may not be a local store; nil when it may. `insideRepository`: whether a folder inside the
  /// work tree is allowed (the default folder, in Ripple's own cache folder: `RIPPLE_CACHE_DIR` in `.build`).
  static func refusal(_ folder: String, repositoryRoot: String?, home: String?, insideRepository: Bool) -> String? {
    let path = canonical(folder)
    if path == "/" { return "it is the root folder" }
    if let root = repositoryRoot.map(canonical) {
      if path == root { return "it is the repository's work tree" }
      if root.hasPrefix(path + "/") { return "it holds the repository \(root)" }
      if !insideRepository, path.hasPrefix(root + "/") { return "it is inside the repository's work tree \(root)" }
    }
    if let home = home.map(canonical), home != "/" {
      if path == home { return "it is your home folder" }
      if home.hasPrefix(path + "/") { return "it holds your home folder \(home)" }
    }
    var status = stat()
    if stat(folder, &status) != 0 {
      return errno == ENOENT ? nil : "it cannot be read (\(String(cString: strerror(errno))))"
    }
    guard status.st_mode & 0o170000 == 0o040000 else { return "it is a file, not a folder" }
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return "it cannot be opened (\(String(cString: strerror(errno))))" }
    defer { close(fd) }
    if case .foreign(let why) = ownership(fd) { return why }
    return nil
  }

  /// Whose the folder open at `root` is: the marker, else only shards of records (or nothing) in it.
  static func ownership(_ root: Int32) -> Ownership {
    // The listing first, the marker judged from it: a writer racing this one may mark the folder at any moment, and
    // a marker that appeared after a look for it would read as a stranger's file in the listing.
    let names = LocalFolderStore.entries(root).sorted()
    if names.contains(LocalFolderStore.markerName) {
      var status = stat()
      return fstatat(root, LocalFolderStore.markerName, &status, AT_SYMLINK_NOFOLLOW) == 0
        && status.st_mode & 0o170000 == 0o100000
        ? .owned : .foreign("its \(LocalFolderStore.markerName) is not a regular file")
    }
    for name in names {
      guard isShardName(name), let shard = LocalFolderStore.openShard(root, name, create: false) else {
        return .foreign("it holds `\(name)`, which this store did not write, and no \(LocalFolderStore.markerName)")
      }
      defer { close(shard) }
      for file in LocalFolderStore.entries(shard).sorted() {
        var info = stat()
        guard isRecordName(file, shard: name) || isTemporaryName(file),
          fstatat(shard, file, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & 0o170000 == 0o100000
        else {
          return .foreign(
            "it holds `\(name)/\(file)`, which this store did not write, and no \(LocalFolderStore.markerName)")
        }
      }
    }
    return .adoptable
  }

  static func isShardName(_ name: String) -> Bool { name.utf8.count == 2 && name.utf8.allSatisfy(isHexDigit) }

  static func isRecordName(_ name: String, shard: String) -> Bool {
    name.utf8.count == 64 && name.hasPrefix(shard) && name.utf8.allSatisfy(isHexDigit)
  }

  static func isTemporaryName(_ name: String) -> Bool {
    name.hasPrefix(LocalFolderStore.temporaryPrefix)
      && UUID(uuidString: String(name.dropFirst(LocalFolderStore.temporaryPrefix.count))) != nil
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
  }

  /// The absolute path with `.`, `..` and links resolved, as far as the path exists (the rest appended).
  static func canonical(_ path: String) -> String {
    var standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    while standardized.count > 1 && standardized.hasSuffix("/") { standardized.removeLast() }
    var existing = standardized
    var rest: [String] = []
    while true {
      if let resolved = realpath(existing, nil) {
        defer { free(resolved) }
        let base = String(cString: resolved)
        return rest.isEmpty ? base : (base == "/" ? "" : base) + "/" + rest.reversed().joined(separator: "/")
      }
      guard existing != "/" else { return standardized }
      rest.append((existing as NSString).lastPathComponent)
      existing = (existing as NSString).deletingLastPathComponent
    }
  }
}
