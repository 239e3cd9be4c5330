import Foundation
import PassRecords
import ResultStore

/// Records as files, `<folder>/ab/abcdef…` (sharded by the key's first two digits), bounded by `maxSize`.
///
/// A save writes a temporary file in the record's own shard folder and renames it over the record, so two
/// writers racing one key (processes or tasks) leave one whole record, never a mix. A load sets the file's
/// access and modification times to now, so the modification time orders records by their last use; when
/// the folder outgrows `maxSize` after a save, the least recently used records are deleted until it holds at
/// most 90 % of it. The folder's size is measured once per client (on its first save) and then kept up to
/// date from its own saves: another process's records are counted at the next measure, which every
/// eviction makes.
final class LocalFolderStore: @unchecked Sendable {
  let folder: String
  let maxSize: Int64
  private let lock = NSLock()
  /// Bytes in the folder as this client knows them; nil until measured.
  private var usage: Int64?

  static let temporaryPrefix = ".tmp-"
  /// A temporary file older than this is a crashed writer's: eviction removes it.
  static let abandonedAfter: TimeInterval = 3600

  init(folder: String, maxSize: Int64) {
    self.folder = folder
    self.maxSize = maxSize
  }

  var client: ResultStoreClient {
    ResultStoreClient(
      name: folder, load: { key in try self.load(key) }, save: { key, data in try self.save(key, data) })
  }

  func path(_ key: RecordKey) -> String { "\(folder)/\(key.hex.prefix(2))/\(key.hex)" }

  func load(_ key: RecordKey) throws(ResultStoreError) -> Data? {
    let file = path(key)
    guard let size = FileStat.size(file) else { return nil }
    guard size <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: folder,
        detail:
          "the record \(key) holds \(size) bytes, more than a record may (\(ResultStoreLimits.maximumRecordBytes))")
    }
    guard let data = FileManager.default.contents(atPath: file) else {
      // Evicted (or replaced) between the two calls: a miss.
      if FileStat.size(file) == nil { return nil }
      throw ResultStoreError(.io, store: folder, detail: "cannot read \(file)")
    }
    guard data.count <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(.tooLarge, store: folder, detail: "the record \(key) grew past the limit while read")
    }
    FileStat.touch(file)
    return data
  }

  func save(_ key: RecordKey, _ data: Data) throws(ResultStoreError) {
    guard data.count <= ResultStoreLimits.maximumRecordBytes else {
      throw ResultStoreError(
        .tooLarge, store: folder,
        detail:
          "a record of \(data.count) bytes is more than a record may hold (\(ResultStoreLimits.maximumRecordBytes))")
    }
    let file = path(key)
    let shard = (file as NSString).deletingLastPathComponent
    let temporary = "\(shard)/\(Self.temporaryPrefix)\(UUID().uuidString)"
    do {
      try FileManager.default.createDirectory(atPath: shard, withIntermediateDirectories: true)
      try data.write(to: URL(fileURLWithPath: temporary))
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw ResultStoreError(.io, store: folder, detail: "cannot write \(temporary): \(error.localizedDescription)")
    }
    guard rename(temporary, file) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw ResultStoreError(.io, store: folder, detail: "cannot rename the new record to \(file): \(reason)")
    }
    keepBound(added: Int64(data.count))
  }

  /// Counts `added` bytes and, past `maxSize`, deletes the least recently used records down to 90 % of it.
  private func keepBound(added: Int64) {
    lock.withLock {
      if let known = usage {
        usage = known + added
      } else {
        usage = Self.records(in: folder).reduce(0) { $0 + $1.size }
      }
      guard let current = usage, current > maxSize else { return }
      usage = evict(target: maxSize / 10 * 9)
    }
  }

  /// Deletes records, oldest use first, until at most `target` bytes remain; returns the bytes left.
  private func evict(target: Int64) -> Int64 {
    let now = Date().timeIntervalSince1970
    var files = Self.records(in: folder)
    var total = files.reduce(0) { $0 + $1.size }
    // A crashed writer's leftovers go first; a temporary file still being written is left alone.
    files.removeAll { file in
      guard file.isTemporary else { return false }
      if now - file.modified > Self.abandonedAfter, unlink(file.path) == 0 { total -= file.size }
      return true
    }
    files.sort { ($0.modified, $0.path) < ($1.modified, $1.path) }
    for file in files where total > target {
      if unlink(file.path) == 0 || errno == ENOENT { total -= file.size }
    }
    return total
  }

  struct StoredFile {
    var path: String
    var size: Int64
    var modified: TimeInterval
    var isTemporary: Bool
  }

  /// Every file of every shard folder.
  static func records(in folder: String) -> [StoredFile] {
    let manager = FileManager.default
    guard let shards = try? manager.contentsOfDirectory(atPath: folder) else { return [] }
    var files: [StoredFile] = []
    for shard in shards where shard.utf8.count == 2 {
      guard let names = try? manager.contentsOfDirectory(atPath: "\(folder)/\(shard)") else { continue }
      for name in names {
        let path = "\(folder)/\(shard)/\(name)"
        guard let info = FileStat.info(path) else { continue }
        files.append(
          StoredFile(
            path: path, size: info.size, modified: info.modified, isTemporary: name.hasPrefix(temporaryPrefix)))
      }
    }
    return files
  }
}

/// The few `stat`/`utimensat` calls the local store needs, without Foundation's attribute dictionaries.
enum FileStat {
  /// Size and modification time (seconds since 1970, with its fraction) of a regular file.
  static func info(_ path: String) -> (size: Int64, modified: TimeInterval)? {
    var status = stat()
    // S_IFMT and S_IFREG, spelled out: Glibc imports them as Int32, st_mode is a mode_t.
    guard stat(path, &status) == 0, status.st_mode & 0o170000 == 0o100000 else { return nil }
    #if os(Linux)
      let time = status.st_mtim
    #else
      let time = status.st_mtimespec
    #endif
    return (Int64(status.st_size), TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
  }

  static func size(_ path: String) -> Int64? { info(path)?.size }

  /// Sets the access and modification times to now.
  static func touch(_ path: String) {
    _ = utimensat(AT_FDCWD, path, nil, 0)
  }
}
