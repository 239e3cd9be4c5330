import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One daemon per state folder: a second one would fight over the database and the work trees.
final class InstanceLock: Sendable {
  private let descriptor: Int32

  init(path: String) throws {
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw DaemonError.directory(path: path, reason: String(cString: strerror(errno))) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      throw DaemonError.alreadyRunning(lockFile: path)
    }
  }

  func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
