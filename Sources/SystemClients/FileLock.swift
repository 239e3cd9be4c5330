import Foundation
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on a lock file: the one lock wrapper (bootstrap's repository and content-cache
/// locks, rippled's instance lock). The kernel releases it when the holder exits in any way (`kill -9`
/// included), so a lock is never left held by a dead process: a file that still names a gone pid is
/// simply locked again. The holder writes "pid <pid> since <time>" into the file so a waiting process
/// can say whom it waits for.
public final class FileLock: @unchecked Sendable {
  public let path: String
  private var fd: Int32 = -1

  private init(path: String, fd: Int32) {
    self.path = path
    self.fd = fd
  }

  /// Waits (polling every 50 ms, cancellable) until the lock is free, then holds it.
  /// `onWait` is called once, with the holder's description, if the lock is busy.
  public static func acquire(_ path: String, onWait: (String) -> Void = { _ in }) async throws -> FileLock {
    let fd = try openFile(path)
    var reported = false
    while try !lock(fd, path) {
      if !reported {
        reported = true
        onWait(holder(of: path))
      }
      do {
        try await Task.sleep(for: .milliseconds(50))
      } catch {
        close(fd)
        throw error
      }
    }
    return FileLock(path: path, holding: fd)
  }

  /// Holds the lock if it is free; nil when another process holds it.
  public static func tryAcquire(_ path: String) throws(FileLockError) -> FileLock? {
    let fd = try openFile(path)
    guard try lock(fd, path) else {
      close(fd)
      return nil
    }
    return FileLock(path: path, holding: fd)
  }

  /// What the lock file says about its holder, e.g. "pid 4242 since 2025-01-02T03:04:05Z".
  public static func holder(of path: String) -> String {
    let text = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    return text.flatMap { $0.isEmpty ? nil : $0 } ?? "another process"
  }

  public func release() {
    guard fd >= 0 else { return }
    _ = ftruncate(fd, 0)
    flock(fd, LOCK_UN)
    close(fd)
    fd = -1
  }

  deinit { release() }

  private convenience init(path: String, holding fd: Int32) {
    self.init(path: path, fd: fd)
    let text = "pid \(getpid()) since \(ISO8601DateFormatter().string(from: Date()))\n"
    _ = ftruncate(fd, 0)
    _ = pwrite(fd, text, text.utf8.count, 0)
  }

  /// The lock file, opened (its folder made first).
  private static func openFile(_ path: String) throws(FileLockError) -> Int32 {
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty {
      do {
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
      } catch {
        throw FileLockError(operation: "create the folder", path: parent, reason: error.localizedDescription)
      }
    }
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileLockError(operation: "open the lock file", path: path, code: errno) }
    return fd
  }

  /// One non-blocking attempt: true when held, false when another holds it.
  private static func lock(_ fd: Int32, _ path: String) throws(FileLockError) -> Bool {
    if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
    guard errno == EWOULDBLOCK || errno == EINTR else {
      let code = errno
      close(fd)
      throw FileLockError(operation: "lock", path: path, code: code)
    }
    return false
  }
}

/// A lock file that cannot be made, opened or locked (not: held by another process).
public struct FileLockError: RippleError, Hashable {
  public var operation: String
  public var path: String
  public var reason: String

  public init(operation: String, path: String, reason: String) {
    self.operation = operation
    self.path = path
    self.reason = reason
  }

  init(operation: String, path: String, code: Int32) {
    self.init(operation: operation, path: path, reason: String(cString: strerror(code)))
  }

  public var category: ErrorCategory { .environment }
  public var description: String { "cannot \(operation) \(path): \(reason)." }
}
