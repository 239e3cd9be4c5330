import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small POSIX helpers with errors that say which operation failed on which path.
enum FileIO {
  static func failure(_ operation: String, _ path: String, _ code: Int32 = errno) -> AssetsError {
    .fileSystem(operation: operation, path: path, reason: String(cString: strerror(code)))
  }

  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  static func isSymlink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Size and modification time (nanoseconds) without following a final symlink.
  static func stamp(_ path: String) -> (size: Int64, mtimeNanoseconds: Int64)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return (Int64(info.st_size), Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
  }

  static func createDirectory(_ path: String) throws {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw AssetsError.fileSystem(operation: "create the folder", path: path, reason: error.localizedDescription)
    }
  }

  /// Removes a file or a folder tree; a missing path is fine.
  static func remove(_ path: String) throws {
    guard exists(path) else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw AssetsError.fileSystem(operation: "remove", path: path, reason: error.localizedDescription)
    }
  }

  static func rename(_ from: String, _ to: String) throws {
    guard Foundation.rename(from, to) == 0 else { throw failure("move \(from) to", to) }
  }

  /// Makes a rename or a new file in `directory` durable.
  static func syncDirectory(_ directory: String) {
    let fd = open(directory, O_RDONLY)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }

  static func syncFile(_ path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw failure("open", path) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw failure("flush", path) }
  }

  /// Writes `data` to a temporary file beside `path`, flushes it, and renames it over `path`.
  static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
    let directory = PathParts.parent(path)
    try createDirectory(directory)
    let temporary = "\(directory)/.\(PathParts.name(path)).\(getpid()).\(UUID().uuidString.prefix(8)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode)
    guard fd >= 0 else { throw failure("create", temporary) }
    var ok = false
    defer {
      close(fd)
      if !ok { unlink(temporary) }
    }
    try writeAll(fd, data, path: temporary)
    guard fchmod(fd, mode) == 0 else { throw failure("set the permissions of", temporary) }
    guard fsync(fd) == 0 else { throw failure("flush", temporary) }
    try rename(temporary, path)
    ok = true
    syncDirectory(directory)
  }

  static func writeAll(_ fd: Int32, _ data: Data, path: String) throws {
    try data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          throw failure("write", path)
        }
        offset += n
      }
    }
  }

  static func read(_ path: String) throws -> Data {
    guard let data = FileManager.default.contents(atPath: path) else { throw failure("read", path) }
    return data
  }

  /// Every regular file and symlink under `root`, as `/`-separated relative paths, sorted.
  static func listFiles(_ root: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
      if !isDirectory(root + "/" + relative) { files.append(relative) }
    }
    return files.sorted()
  }

  /// Removes empty folders from `path` up to (not including) `stop`.
  static func removeEmptyParents(of path: String, stop: String) {
    var directory = PathParts.parent(path)
    while directory.count > stop.count, directory.hasPrefix(stop) {
      guard rmdir(directory) == 0 else { return }
      directory = PathParts.parent(directory)
    }
  }
}

/// `/`-separated path pieces without Foundation's NSString path methods (which trap on some inputs
/// in swift-corelibs-foundation).
enum PathParts {
  /// `a/b/c` → `a/b`; `c` → ``; `/c` → `/`.
  static func parent(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  /// `a/b/c.wav` → `c.wav`.
  static func name(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed.split(separator: "/").last ?? trimmed)
  }

  /// `c.tar.wav` → `c.tar`; `.hidden` → `.hidden`; `c` → `c`.
  static func stem(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }
}
