import Foundation
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a report option (`--junit`, `--report-json`, `--summary-md`, `--coverage-lcov`, `--coverage-xml`)
/// writes, checked before the run so a bad path fails in a second, not after the whole run (docs/DESIGN.md,
/// "Report files"). A regular file (or nothing yet) is replaced atomically; a device or a link (`/dev/stdout`,
/// `/dev/null`, a link to a file elsewhere) is opened and written in place, never replaced by a rename.
public enum ReportPath {
  /// A path that cannot take a report: a usage error (exit 2) naming the option and the path.
  public struct Refused: RippleError, Equatable {
    public var option: String
    public var path: String
    public var reason: String
    public var category: ErrorCategory { .usage }
    public var description: String { "\(option) \(path): \(reason)" }
  }

  /// What a path is, as `lstat` and `stat` see it.
  enum Kind: Equatable {
    case absent
    case regular
    case directory
    case fifo
    case socket
    /// A character or block device, or a link (to a file, a device).
    case inPlace
    case danglingLink
    /// This process's standard output or error (`/dev/stdout`, whatever it leads to: a terminal, a pipe, a file).
    case ownOutput(Int32)
  }

  static func kind(of path: String) -> Kind {
    var link = stat()
    guard lstat(path, &link) == 0 else { return .absent }
    var target = stat()
    guard stat(path, &target) == 0 else { return .danglingLink }
    if (link.st_mode & S_IFMT) != S_IFREG {
      for descriptor: Int32 in [1, 2] {
        var own = stat()
        if fstat(descriptor, &own) == 0 && own.st_dev == target.st_dev && own.st_ino == target.st_ino {
          return .ownOutput(descriptor)
        }
      }
    }
    switch target.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFIFO: return .fifo
    case S_IFSOCK: return .socket
    case S_IFREG where (link.st_mode & S_IFMT) == S_IFREG: return .regular
    default: return .inPlace
    }
  }

  /// Checks `path` (absolute) for `option`: its folder exists (missing folders are made, as the write would)
  /// and can be written, and it is not a folder, a FIFO, a socket or a link to nothing.
  /// `appending`: the file is appended to (`--summary-md`), so it must be writable rather than its folder.
  public static func check(_ path: String, option: String, appending: Bool = false) throws(Refused) {
    func refuse(_ reason: String) -> Refused { Refused(option: option, path: path, reason: reason) }
    switch kind(of: path) {
    case .directory: throw refuse("is a folder; give a file path")
    case .fifo: throw refuse("is a FIFO (a named pipe), which would block until read; give a file path")
    case .socket: throw refuse("is a socket; give a file path")
    case .danglingLink: throw refuse("is a link to nothing; give a file path")
    case .ownOutput:
      break
    case .inPlace:
      guard access(path, W_OK) == 0 else { throw refuse("cannot be written (\(String(cString: strerror(errno))))") }
    case .regular where appending:
      guard access(path, W_OK) == 0 else { throw refuse("cannot be written (\(String(cString: strerror(errno))))") }
    case .absent, .regular:
      let folder = (path as NSString).deletingLastPathComponent
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw refuse("its folder \(folder) does not exist and cannot be made")
      }
      var info = stat()
      guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
        throw refuse("its folder \(folder) is not a folder")
      }
      guard access(folder, W_OK) == 0 else { throw refuse("its folder \(folder) cannot be written") }
    }
  }

  /// Writes `data` to `path`: atomically (a temporary file renamed over it) for a regular file or none; in
  /// place for anything else, and to this process's own output when the path is it (`/dev/stdout`).
  public static func write(_ data: Data, to path: String) throws {
    switch kind(of: path) {
    case .absent, .regular:
      let url = URL(fileURLWithPath: path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    case .ownOutput(let descriptor):
      // Opened again, `/dev/stdout` redirected to a file would start at 0, over what was printed.
      fflush(nil)
      try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
    case .inPlace:
      try writeInPlace(data, to: path)
    case .directory, .fifo, .socket, .danglingLink:
      // Checked before the run; changed since.
      throw CocoaError(.fileWriteInvalidFileName, userInfo: [NSFilePathErrorKey: path])
    }
  }

  /// Appends `data` to `path` (`--summary-md`: `$GITHUB_STEP_SUMMARY` is shared by a job's steps), made when
  /// missing; this process's own output when the path is it.
  public static func append(_ data: Data, to path: String) throws {
    if case .ownOutput(let descriptor) = kind(of: path) {
      fflush(nil)
      try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
      return
    }
    // Non-blocking to open: a FIFO made since the check fails (ENXIO, no reader) instead of hanging.
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_NONBLOCK, 0o644)
    guard descriptor >= 0 else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    try handle.write(contentsOf: data)
  }

  private static func writeInPlace(_ data: Data, to path: String) throws {
    var target = stat()
    _ = stat(path, &target)
    let regular = (target.st_mode & S_IFMT) == S_IFREG
    let descriptor = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | (regular ? O_TRUNC : 0))
    guard descriptor >= 0 else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    try handle.write(contentsOf: data)
  }
}
