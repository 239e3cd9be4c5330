import Foundation
import RippleCore
import Testing

@testable import FileWatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Kernel limits, simulated by wrapping the real syscalls: no root needed, no sysctl touched.
@Suite(.enabled(if: inotifyAvailable, "inotify exists on Linux only"))
struct InotifyFallbackTests {
  /// The real syscalls, except that the `failingWatch`-th inotify_add_watch fails with ENOSPC.
  static func system(
    failingWatch: Int? = nil, initError: Int32? = nil, overflowOnFirstRead: Bool = false
  ) -> InotifySystem {
    var system = InotifySystem.live!
    let real = system
    let addWatchCalls = Locked(0)
    let overflowPending = Locked(overflowOnFirstRead)
    system.limit = { name in "limit-of-\(name)" }
    if let initError { system.initialize = { .failure(SystemError(code: initError)) } }
    system.addWatch = { fd, path, mask in
      let call = addWatchCalls.withLock { count in
        count += 1
        return count
      }
      return call == failingWatch ? .failure(SystemError(code: ENOSPC)) : real.addWatch(fd, path, mask)
    }
    system.read = { fd, buffer in
      let result = real.read(fd, buffer)
      guard case .success = result,
        overflowPending.withLock({ pending in
          defer { pending = false }; return pending
        })
      else { return result }
      // The queue overflowed: what the kernel had is lost and only the overflow record (wd -1, no name) is left.
      let record = InotifyRecord(wd: -1, mask: InotifyMask.queueOverflow, cookie: 0, name: "").encoded()
      buffer.copyBytes(from: record)
      return .success(record.count)
    }
    return system
  }

  @Test func watchLimitAtStartupFallsBackToPolling() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    for directory in ["a", "b", "c", "d"] { try tree.mkdir(directory) }
    let watcher = try FileWatcher(
      root: tree.path, backend: .auto(pollInterval: .milliseconds(50)), isIgnored: notIgnored,
      inotify: Self.system(failingWatch: 3))
    defer { watcher.stop() }
    #expect(watcher.backendName == "polling")
    #expect(watcher.watchedDirectoryCount == 5)
    let recorder = EventRecorder(watcher.events)

    try tree.write("c/new")
    #expect(await recorder.waitForChanges("c/new"))
    let reason = try #require(recorder.rescanReasons.first)
    #expect(reason.contains("fs.inotify.max_user_watches"))
    #expect(reason.contains("limit-of-max_user_watches"))
    #expect(reason.contains("50 ms"))
    #expect(recorder.rescanReasons.count == 1)
  }

  @Test func watchLimitWhileRunningFallsBackToPolling() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    // Watch 1 is the root; the directory created below needs watch 2.
    let watcher = try FileWatcher(
      root: tree.path, backend: .inotify, isIgnored: notIgnored, inotify: Self.system(failingWatch: 2))
    defer { watcher.stop() }
    #expect(watcher.backendName == "inotify")
    let recorder = EventRecorder(watcher.events)

    try tree.mkdir("grown")
    #expect(await recorder.wait { !$0.rescanReasons.isEmpty })
    #expect(recorder.rescanReasons.first?.contains("fs.inotify.max_user_watches") == true)
    #expect(watcher.backendName == "polling")

    try tree.write("grown/file")
    #expect(await recorder.waitForChanges("grown/file"))
    #expect(watcher.watchedDirectoryCount == 2)
  }

  @Test func tooManyInstancesFallsBackToPolling() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    let watcher = try FileWatcher(
      root: tree.path, backend: .auto(pollInterval: .milliseconds(50)), isIgnored: notIgnored,
      inotify: Self.system(initError: EMFILE))
    defer { watcher.stop() }
    #expect(watcher.backendName == "polling")
    let recorder = EventRecorder(watcher.events)

    try tree.write("file")
    #expect(await recorder.waitForChanges("file"))
    #expect(recorder.rescanReasons.count == 1)
    #expect(recorder.rescanReasons.first?.contains("fs.inotify.max_user_instances") == true)
  }

  @Test func queueOverflowAsksForARescanAndWatchesWhatWasMissed() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    let watcher = try FileWatcher(
      root: tree.path, backend: .inotify, isIgnored: notIgnored, inotify: Self.system(overflowOnFirstRead: true))
    defer { watcher.stop() }
    let recorder = EventRecorder(watcher.events)

    // The creation of `made` is lost in the overflow, so only a rescan of the tree can find and watch it.
    try tree.mkdir("made")
    #expect(await recorder.wait { !$0.rescanReasons.isEmpty })
    #expect(recorder.rescanReasons.first?.contains("fs.inotify.max_queued_events") == true)
    #expect(recorder.rescanReasons.first?.contains("limit-of-max_queued_events") == true)
    #expect(watcher.watchedDirectoryCount == 2)
    try tree.write("made/later")
    #expect(await recorder.waitForChanges("made/later"))
    #expect(watcher.backendName == "inotify")
  }

  @Test func liveLimitsComeFromProc() {
    #expect(Int(InotifySystem.liveLimit("max_user_watches")) != nil)
    #expect(InotifySystem.liveLimit("no_such_limit") == "unknown")
  }
}
