import Crypto
import Foundation
import Git
import RippleCore

/// Git's blob ids computed here, for files on disk: equal to the id git records for the same bytes.
enum GitBlobID {
  /// The blob id of `bytes`.
  static func of(_ bytes: [UInt8]) -> String {
    var hasher = Insecure.SHA1()
    hasher.update(data: Array("blob \(bytes.count)\u{0}".utf8))
    hasher.update(data: bytes)
    return Hex.string(hasher.finalize())
  }

  /// The blob id of the file at `path` (absolute), read 1 MiB at a time.
  @Sendable static func ofFile(_ path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: 0)
    var hasher = Insecure.SHA1()
    hasher.update(data: Array("blob \(size)\u{0}".utf8))
    var read: UInt64 = 0
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      hasher.update(data: chunk)
      read += UInt64(chunk.count)
    }
    // A file that grew or shrank while read has no one content.
    guard read == size else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]) }
    return Hex.string(hasher.finalize())
  }

  /// SHA-256 of a string, hex (a file name for a path).
  static func sha256(_ text: String) -> String { Hex.string(SHA256.hash(data: Array(text.utf8))) }

}

/// A cache file Ripple writes whole and reads back only whole (issue 50): a header with its format, its line
/// count and the SHA-256 of its body. A file from another version, truncated or corrupt reads as nothing (its
/// entries are made again), never as a wrong answer.
enum CheckedCacheFile {
  /// The body's lines, or nil when the file is missing or not one `format` wrote whole. Each line is a slice of
  /// the file's one buffer (a stat cache of thousands of lines is read on every keyed run, and String's
  /// splitting cost more than the rest of a leaf's key; issue 50).
  static func lines(_ file: String, format: String) -> [ArraySlice<UInt8>]? {
    guard let (bytes, modified) = readWhole(file) else { return nil }
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let header = bytes[..<newline].split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
    let body = bytes[(newline + 1)...]
    guard header.count == 3, header[0].elementsEqual(format.utf8),
      let count = Int(String(decoding: header[1], as: UTF8.self)),
      header[2].elementsEqual(Hex.string(SHA256.hash(data: body)).utf8)
    else { return nil }
    var lines: [ArraySlice<UInt8>] = []
    lines.reserveCapacity(count)
    var start = body.startIndex
    while start < body.endIndex {
      let end = body[start...].firstIndex(of: UInt8(ascii: "\n")) ?? body.endIndex
      if end > start { lines.append(body[start..<end]) }
      start = end + 1
    }
    guard lines.count == count else { return nil }
    markUsed(file, modified: modified)
    return lines
  }

  /// A file's bytes and its modification time (seconds since 1970), read with one `open`, `fstat` and `read`:
  /// a keyed run reads a stat cache per closure package and the tree digests, and Foundation's reader spends more
  /// calls on each. Nil when it is missing, not a regular file, or cannot be read.
  static func readWhole(_ file: String) -> (bytes: [UInt8], modified: Int)? {
    let descriptor = open(file, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      filled += count
    }
    #if os(macOS)
      return (bytes, Int(status.st_mtimespec.tv_sec))
    #else
      return (bytes, Int(status.st_mtim.tv_sec))
    #endif
  }

  /// How stale a read cache file's time may be: its modification time says when it was last used, to within a day.
  static let useResolution: TimeInterval = 86400

  /// Sets a read file's modification time to now when it is older than `useResolution`: a cache file is rewritten
  /// only when something in it changed, so without this its age would say nothing of its use, and `ripple cache
  /// prune --older-than` would remove what every run reads. `modified`: the file's time when it was read; a
  /// failure only costs that mark.
  static func markUsed(_ file: String, modified: Int, now: Date = Date()) {
    guard now.timeIntervalSince1970 - TimeInterval(modified) > useResolution else { return }
    _ = utimensat(AT_FDCWD, file, nil, 0)
  }

  /// The decimal number a field holds, or nil (digits only; nil when it overflows).
  static func number(_ field: ArraySlice<UInt8>) -> UInt64? {
    guard !field.isEmpty else { return nil }
    var value: UInt64 = 0
    for byte in field {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      guard !overflow, !carry else { return nil }
      value = sum
    }
    return value
  }

  /// Writes `lines` under a header (atomically); a failure only costs a later re-read.
  static func write(_ file: String, format: String, lines: [String]) {
    let body = Data(lines.map { $0 + "\n" }.joined().utf8)
    let header = "\(format)\t\(lines.count)\t\(Hex.string(SHA256.hash(data: body)))\n"
    try? FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try? (Data(header.utf8) + body).write(to: URL(fileURLWithPath: file), options: .atomic)
  }
}

/// Digests of folders by tree id (`FolderDigest`), kept between runs in one file per set of rules: a folder
/// whose tree id was digested before is not read again, so a new commit costs the folders it changed. The
/// file carries its format, entry count and checksum: one that is from another version, truncated or
/// corrupt is not used (every digest is made again) and is replaced.
final class TreeDigestCache: @unchecked Sendable {
  static let format = "ripple-tree-digests-1"
  /// Entries kept: beyond it, only those this run used are written back.
  static let limit = 500_000

  let file: String?
  private var entries: [String: String] = [:]
  private var used: Set<String> = []
  private var dirty = false

  init(file: String?) {
    self.file = file
    guard let file, FileManager.default.fileExists(atPath: file) else { return }
    // There but not usable: every digest is made again, and the file replaced.
    guard let loaded = CheckedCacheFile.lines(file, format: Self.format).flatMap(Self.parse) else {
      dirty = true
      return
    }
    entries = loaded
  }

  /// The entries of a cache file's lines, or nil when a line is not one.
  static func parse(_ lines: [ArraySlice<UInt8>]) -> [String: String]? {
    var entries: [String: String] = [:]
    entries.reserveCapacity(lines.count)
    for line in lines {
      guard let tab = line.lastIndex(of: UInt8(ascii: "\t")) else { return nil }
      entries[String(decoding: line[..<tab], as: UTF8.self)] = String(decoding: line[(tab + 1)...], as: UTF8.self)
    }
    return entries
  }

  private static func key(_ folder: String, _ tree: ObjectID) -> String { tree.hex + " " + folder }

  /// The digest remembered for `folder` at `tree` ("" for a folder with nothing to digest).
  func digest(folder: String, tree: ObjectID) -> String? {
    let key = Self.key(folder, tree)
    guard let digest = entries[key] else { return nil }
    used.insert(key)
    return digest == "-" ? "" : digest
  }

  func remember(folder: String, tree: ObjectID, digest: String) {
    // Paths with a line end or tab cannot be written back; they are digested again next time.
    guard !folder.contains("\n"), !folder.contains("\t") else { return }
    let key = Self.key(folder, tree)
    entries[key] = digest.isEmpty ? "-" : digest
    used.insert(key)
    dirty = true
  }

  /// Writes the entries back (atomically) when one was added; a failure only costs a later re-read.
  func save(keeping limit: Int = TreeDigestCache.limit) {
    guard dirty, let file else { return }
    let kept = entries.count > limit ? entries.filter { used.contains($0.key) } : entries
    CheckedCacheFile.write(
      file, format: Self.format, lines: kept.sorted(by: { $0.key < $1.key }).map { $0.key + "\t" + $0.value })
    dirty = false
  }
}
