import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The inotify syscalls, as closures so that tests can simulate kernel limits (EMFILE, ENOSPC, a queue
/// overflow) without root and without touching real sysctls.
struct InotifySystem: Sendable {
  /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`: the new fd, or errno.
  var initialize: @Sendable () -> Result<Int32, SystemError>
  /// `inotify_add_watch(fd, path, mask)`: the watch descriptor, or errno.
  var addWatch: @Sendable (_ fd: Int32, _ path: String, _ mask: UInt32) -> Result<Int32, SystemError>
  /// `inotify_rm_watch(fd, wd)`; failures (the directory is already gone) do not matter.
  var removeWatch: @Sendable (_ fd: Int32, _ wd: Int32) -> Void
  /// `read(fd, buffer, count)`: bytes read, or errno (EAGAIN when nothing is pending).
  var read: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError>
  /// The current value of `fs.inotify.<name>`, for messages.
  var limit: @Sendable (_ name: String) -> String

  /// The real syscalls on Linux; nil where inotify does not exist.
  static var live: InotifySystem? {
    #if os(Linux)
      return InotifySystem(
        initialize: {
          let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
          return fd < 0 ? .failure(.current) : .success(fd)
        },
        addWatch: { fd, path, mask in
          let wd = inotify_add_watch(fd, path, mask)
          return wd < 0 ? .failure(.current) : .success(wd)
        },
        removeWatch: { fd, wd in _ = inotify_rm_watch(fd, wd) },
        read: { fd, buffer in
          let count = readDescriptor(fd, buffer)
          return count < 0 ? .failure(.current) : .success(count)
        },
        limit: liveLimit)
    #else
      return nil
    #endif
  }

  /// Reads /proc/sys/fs/inotify/<name>, or "unknown".
  static func liveLimit(_ name: String) -> String {
    let path = "/proc/sys/fs/inotify/\(name)"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "unknown" }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
