import Foundation
import RippleCore
import SystemClients
import Testing

/// `FileLock`: the one `flock` wrapper (bootstrap's locks, rippled's instance lock).
@Suite struct FileLockTests {
  static func temporaryPath() -> String {
    (NSTemporaryDirectory() as NSString).appendingPathComponent("ripple-lock-\(UUID().uuidString)/sub/x.lock")
  }

  /// The `ripple-lock-…` folder of a `temporaryPath()`.
  static func removeFolder(of path: String) {
    try? FileManager.default.removeItem(
      atPath: ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
  }

  @Test func aHeldLockIsNotTakenAgainUntilReleased() throws {
    let path = Self.temporaryPath()
    defer { Self.removeFolder(of: path) }
    let first = try #require(try FileLock.tryAcquire(path), "the folder is made and the lock taken")
    #expect(FileLock.holder(of: path).hasPrefix("pid \(getpid()) since "))
    #expect(try FileLock.tryAcquire(path) == nil, "flock is per open file: a second holder is refused")
    first.release()
    #expect(FileLock.holder(of: path) == "another process", "a released lock names nobody")
    let second = try #require(try FileLock.tryAcquire(path))
    second.release()
  }

  @Test func aWaiterIsToldWhoHoldsItAndGetsItOnRelease() async throws {
    let path = Self.temporaryPath()
    defer { Self.removeFolder(of: path) }
    let first = try #require(try FileLock.tryAcquire(path))
    let told = AsyncStream<String>.makeStream()
    let waiter = Task { try await FileLock.acquire(path) { told.continuation.yield($0) } }
    var holders = told.stream.makeAsyncIterator()
    let holder = await holders.next()
    #expect(holder?.hasPrefix("pid \(getpid())") == true)
    first.release()
    let second = try await waiter.value
    #expect(second.path == path)
    second.release()
  }

  @Test func aLockFileThatCannotBeMadeIsAnEnvironmentErrorNamingIt() throws {
    let file = (NSTemporaryDirectory() as NSString).appendingPathComponent("ripple-lock-\(UUID().uuidString)")
    try Data().write(to: URL(fileURLWithPath: file))
    defer { try? FileManager.default.removeItem(atPath: file) }
    let error = try #require(throws: FileLockError.self) { try FileLock.tryAcquire(file + "/x.lock") }
    #expect(error.category == .environment)
    #expect(error.description.contains(file), "\(error)")
  }
}
