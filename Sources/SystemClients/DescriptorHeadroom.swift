import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this process has the file descriptors a spawn needs. swift-subprocess 1.0.2 creates the standard
/// output and error pipes one after the other; when the second fails (EMFILE) the first is dropped unclosed and
/// its `IODescriptor` deinit aborts the whole process ("FileDescriptor … was not closed"). Checking first turns
/// that into an ordinary `ProcessError.couldNotStart` the caller reports (a daemon run's `error`).
public enum DescriptorHeadroom {
  /// Descriptors a spawn may open at once: three pipes (two ends each), a pidfd, and some slack for libraries.
  public static let needed = 16

  /// The words every shortage error carries (a daemon run that fails on them is queued again later).
  public static let shortage = "too few free file descriptors"

  /// Whether `error` is a spawn refused for want of descriptors.
  public static func isShortage(_ error: any Error) -> Bool { "\(error)".contains(shortage) }

  /// Throws when fewer than `needed` descriptors are free under the soft open-file limit.
  public static func check(command: String) throws(ProcessError) {
    guard let free = free() else { return }
    if free < needed {
      throw .couldNotStart(
        command: command,
        reason: "\(shortage) (\(free) left under the open-file limit); the process was not started")
    }
  }

  /// Free descriptors under the soft limit, or nil when this platform cannot tell.
  public static func free() -> Int? {
    guard let open = openCount() else { return nil }
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return nil }
    return Int(clamping: limit.rlim_cur) - open
  }

  /// How many descriptors are open, from `/proc/self/fd` (or `/dev/fd`); the listing's own descriptor is not
  /// counted. nil when the folder cannot be read (which, with no descriptor left, is itself the answer: 0 free).
  static func openCount() -> Int? {
    #if os(Linux)
      let folder = "/proc/self/fd"
    #else
      let folder = "/dev/fd"
    #endif
    guard let count = entries(in: folder) else { return errno == EMFILE || errno == ENFILE ? Int.max / 2 : nil }
    return max(0, count - 1)
  }

  /// The entries of `folder` whose names do not start with a dot; nil when it cannot be opened (`errno` says why).
  static func entries(in folder: String) -> Int? {
    guard let directory = opendir(folder) else { return nil }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
      let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in name.first == UInt8(ascii: ".") }
      if !isDot { count += 1 }
    }
    return count
  }
}
