import Crypto
import Foundation

/// Digests of files (git blob ids, or SHA-256), trusted while a file's size, modification and change times and inode are those
/// it was hashed at (as git's index trusts a stat): a large ignored file is read once, not per run.
final class FileDigestCache: @unchecked Sendable {
  struct Stamp: Hashable {
    var size: Int64
    var modified: Int64
    var changed: Int64
    var inode: UInt64
  }

  /// The file's format line: another version's file (or a truncated or corrupt one) is not read.
  static let format = "ripple-file-digests-1"

  private(set) var file: String?
  /// The format line of `file` (the digests a file holds, blob ids or SHA-256, are its writer's; issue 50).
  private(set) var format = FileDigestCache.format
  /// Path → the stamp it was hashed at, its digest, and whether this run asked for it: with `keepsOnlyAsked`,
  /// only those are written back (a target's walk asks for every file it has, so a file deleted or moved away
  /// leaves its target's cache).
  private var entries: [String: (stamp: Stamp, digest: String, asked: Bool)] = [:]
  private var dirty = false
  let keepsOnlyAsked: Bool
  /// How many files were read and hashed (the stat cache's misses), for tests.
  private(set) var hashed = 0

  /// The time now (nanoseconds since 1970): a file changed within 2 s of it is hashed but not remembered.
  let now: @Sendable () -> Int64
  /// Reads and hashes one file (tests make it fail: as root every file is readable).
  let hash: @Sendable (String) throws -> String

  /// `file`: where the stamps are kept between runs (nil: this run only), under `format`'s line.
  convenience init(
    file: String?, format: String = FileDigestCache.format,
    now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) },
    hash: @escaping @Sendable (String) throws -> String = FileDigestCache.sha256, keepsOnlyAsked: Bool = false
  ) {
    let lines = file.flatMap { CheckedCacheFile.lines($0, format: format) } ?? []
    self.init(entries: lines, now: now, hash: hash, keepsOnlyAsked: keepsOnlyAsked)
    self.file = file
    self.format = format
  }

  /// The stamps of `entries`, lines `entryLines()` wrote (a section of a package's stat cache); lines that are
  /// not one are left out (their files are hashed again).
  init(
    entries lines: some Collection<ArraySlice<UInt8>>,
    now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) },
    hash: @escaping @Sendable (String) throws -> String = FileDigestCache.sha256, keepsOnlyAsked: Bool = false
  ) {
    self.file = nil
    self.keepsOnlyAsked = keepsOnlyAsked
    self.now = now
    self.hash = hash
    entries.reserveCapacity(lines.count)
    for line in lines {
      // size, modification and change times, inode, digest, path: the path last, as it may hold a tab.
      var rest = line
      func field() -> ArraySlice<UInt8>? {
        guard let tab = rest.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
        defer { rest = rest[(tab + 1)...] }
        return rest[..<tab]
      }
      guard let size = field().flatMap(CheckedCacheFile.number).flatMap(Int64.init(exactly:)),
        let modified = field().flatMap(CheckedCacheFile.number).flatMap(Int64.init(exactly:)),
        let changed = field().flatMap(CheckedCacheFile.number).flatMap(Int64.init(exactly:)),
        let inode = field().flatMap(CheckedCacheFile.number), let digest = field(),
        digest.count == 40 || digest.count == 64
      else { continue }
      entries[String(decoding: rest, as: UTF8.self)] = (
        Stamp(size: size, modified: modified, changed: changed, inode: inode),
        String(decoding: digest, as: UTF8.self), false
      )
    }
    loaded = entries.count
  }

  /// How many entries were read, and how many of them this run asked for.
  let loaded: Int
  private var askedLoaded = 0

  /// Every file read before was asked for, at the stat it was hashed at, and no other: the files are those read.
  var unchanged: Bool { hashed == 0 && askedLoaded == loaded }
  /// A file was hashed and remembered.
  var isDirty: Bool { dirty }
  /// With `keepsOnlyAsked`, an entry read before that this run did not ask for, to leave out when written back.
  var dropsEntries: Bool { keepsOnlyAsked && askedLoaded < loaded }

  static func stamp(_ status: stat) -> Stamp {
    #if os(macOS)
      let modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
      let changed = Int64(status.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(status.st_ctimespec.tv_nsec)
    #else
      let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
      let changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    #endif
    return Stamp(size: Int64(status.st_size), modified: modified, changed: changed, inode: UInt64(status.st_ino))
  }

  /// The file's digest, hex. Throws when it cannot be read.
  func digest(of path: String) throws -> String {
    var status = stat()
    guard lstat(path, &status) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
    return try digest(of: path, status: status)
  }

  /// The same, for a file the caller has just `lstat`ed (a walk stats each file once).
  func digest(of path: String, status: stat) throws -> String {
    let stamp = Self.stamp(status)
    if let index = entries.index(forKey: path) {
      if !entries.values[index].asked {
        entries.values[index].asked = true
        askedLoaded += 1
      }
      if entries.values[index].stamp == stamp { return entries.values[index].digest }
    }
    let digest = try hash(path)
    hashed += 1
    // A file changed within the last seconds may change again within the same timestamp (git's "racily
    // clean" case): hashed, not remembered.
    if now() - max(stamp.modified, stamp.changed) > 2_000_000_000 {
      entries[path] = (stamp, digest, true)
      dirty = true
    }
    return digest
  }

  /// The SHA-256 of a file's bytes, hex, read 1 MiB at a time.
  @Sendable static func sha256(_ path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    var hasher = SHA256()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
    return hasher.finalize().map { String(format: "%02x", $0) }.joined()
  }

  /// Writes the stamps back (atomically) when a file was hashed; a failure only costs a later re-read.
  func save() {
    guard dirty, let file else { return }
    CheckedCacheFile.write(file, format: format, lines: entryLines())
    dirty = false
  }

  /// The stamps as lines, sorted by path (with `keepsOnlyAsked`, those this run asked for only).
  func entryLines() -> [String] {
    var lines: [String] = []
    for (path, (stamp, digest, asked)) in entries.sorted(by: { $0.key < $1.key })
    where !path.contains("\n") && (!keepsOnlyAsked || asked) {
      lines.append("\(stamp.size)\t\(stamp.modified)\t\(stamp.changed)\t\(stamp.inode)\t\(digest)\t\(path)")
    }
    return lines
  }
}
