import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An `errno` value with its message.
struct SystemError: Error, Sendable, Equatable {
  var code: Int32
  var message: String { String(cString: strerror(code)) }

  static var current: SystemError { SystemError(code: errno) }
}

/// One entry of a directory listing, typed from `d_type` so that directories can be found without a `stat`.
struct DirectoryEntry: Sendable, Equatable {
  enum Kind: Sendable, Equatable { case directory, symlink, other, unknown }
  var name: String
  var kind: Kind
}

/// Calls `body(name, kind, directoryFD)` for each entry of the directory `path` ("." and ".." skipped), without
/// following a symlink at `path` itself (O_NOFOLLOW). `directoryFD` is valid during the call, for `fstatat`.
func forEachEntry(
  inDirectory path: String, _ body: (String, DirectoryEntry.Kind, Int32) -> Void
) -> SystemError? {
  let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
  if fd < 0 { return .current }
  guard let dir = fdopendir(fd) else {
    let error = SystemError.current
    close(fd)
    return error
  }
  defer { closedir(dir) }
  while true {
    errno = 0
    guard let entry = readdir(dir) else { return errno == 0 ? nil : .current }
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name == "." || name == ".." { continue }
    // d_type values are the same on Linux and the BSDs.
    let kind: DirectoryEntry.Kind
    switch entry.pointee.d_type {
    case 4: kind = .directory
    case 10: kind = .symlink
    case 0: kind = .unknown
    default: kind = .other
    }
    body(name, kind, fd)
  }
}

/// The entries of the directory `path`; see `forEachEntry`.
func listDirectory(_ path: String) -> Result<[DirectoryEntry], SystemError> {
  var entries: [DirectoryEntry] = []
  if let error = forEachEntry(
    inDirectory: path, { name, kind, _ in entries.append(DirectoryEntry(name: name, kind: kind)) })
  {
    return .failure(error)
  }
  return .success(entries)
}

/// What `lstat` says about a path: enough to notice any change to a file without reading it.
struct FileStatus: Sendable, Hashable {
  var isDirectory: Bool
  var isSymlink: Bool
  var inode: UInt64
  var size: Int64
  var modifiedNanoseconds: Int64
  var changedNanoseconds: Int64
}

/// `lstat(path)`: symlinks are described as themselves, never followed.
func fileStatus(_ path: String) -> FileStatus? {
  var info = stat()
  guard lstat(path, &info) == 0 else { return nil }
  return FileStatus(info)
}

/// `lstat` of `name` in the directory open as `directoryFD`: no path walk from the root for every file.
func fileStatus(_ name: String, inDirectory directoryFD: Int32) -> FileStatus? {
  var info = stat()
  guard fstatat(directoryFD, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
  return FileStatus(info)
}

extension FileStatus {
  init(_ info: stat) {
    #if canImport(Darwin)
      let modified = info.st_mtimespec
      let changed = info.st_ctimespec
    #else
      let modified = info.st_mtim
      let changed = info.st_ctim
    #endif
    let type = info.st_mode & S_IFMT
    self.init(
      isDirectory: type == S_IFDIR, isSymlink: type == S_IFLNK, inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modifiedNanoseconds: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec),
      changedNanoseconds: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
  }
}

/// Whether `kind` (from `d_type`) is a real directory, asking `lstat` when the file system did not say.
func isDirectory(_ kind: DirectoryEntry.Kind, at path: String) -> Bool {
  switch kind {
  case .directory: true
  case .unknown: fileStatus(path)?.isDirectory ?? false
  case .symlink, .other: false
  }
}

/// `close(2)`, callable from types that have a `close()` method of their own.
func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}

/// `read(2)` into `buffer`; -1 with errno set on failure.
func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
  read(fd, buffer.baseAddress, buffer.count)
}

/// Milliseconds for `poll(2)`, at least 1 so that a tiny interval cannot become a busy loop.
func pollTimeoutMilliseconds(_ duration: Duration) -> Int32 {
  let (seconds, attoseconds) = duration.components
  let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
  return Int32(clamping: max(1, milliseconds))
}

/// "500 ms", "1 s", "2.5 s": intervals in log sentences.
func describe(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
  if milliseconds < 1000 { return "\(milliseconds) ms" }
  if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
  return "\(Double(milliseconds) / 1000) s"
}
