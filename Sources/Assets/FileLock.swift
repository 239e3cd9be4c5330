import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on a lock file. The kernel releases it when the holder exits in any way
/// (`kill -9` included), so a lock is never left held by a dead process: a file that still names a
/// gone pid is simply locked again. The holder writes "pid <pid> since <time>" into the file so a
/// waiting process can say whom it waits for.
final class FileLock: @unchecked Sendable {
  let path: String
  private var fd: Int32 = -1

  private init(path: String, fd: Int32) {
    self.path = path
    self.fd = fd
  }

  /// Waits (polling every 50 ms, cancellable) until the lock is free, then holds it.
  /// `onWait` is called once, with the holder's description, if the lock is busy.
  static func acquire(_ path: String, onWait: (String) -> Void = { _ in }) async throws -> FileLock {
    try FileIO.createDirectory(PathParts.parent(path))
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileIO.failure("open the lock file", path) }
    var reported = false
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        let code = errno
        close(fd)
        throw FileIO.failure("lock", path, code)
      }
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
    let lock = FileLock(path: path, fd: fd)
    lock.writeHolder()
    return lock
  }

  /// What the lock file says about its holder, e.g. "pid 4242 since 2025-01-02T03:04:05Z".
  static func holder(of path: String) -> String {
    let text = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    return text.flatMap { $0.isEmpty ? nil : $0 } ?? "another process"
  }

  private func writeHolder() {
    let text = "pid \(getpid()) since \(ISO8601DateFormatter().string(from: Date()))\n"
    _ = ftruncate(fd, 0)
    _ = pwrite(fd, text, text.utf8.count, 0)
  }

  func release() {
    guard fd >= 0 else { return }
    _ = ftruncate(fd, 0)
    flock(fd, LOCK_UN)
    close(fd)
    fd = -1
  }

  deinit { release() }
}
