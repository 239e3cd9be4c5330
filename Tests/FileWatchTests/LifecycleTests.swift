import Foundation
import RippleCore
import TestSupport
import Testing

@testable import FileWatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exclusive with the other suites that count this process's descriptors (a pipe another test opens in the
/// window between two snapshots would look like the watcher's).
@Suite(.exclusive(.descriptorTable)) struct LifecycleTests {
  static var backends: [WatchBackend] {
    [.polling(interval: .milliseconds(50))] + (inotifyAvailable ? [.inotify] : [])
  }

  @Test(arguments: backends)
  func stopEndsTheStreamAndReleasesDescriptors(backend: WatchBackend) async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.mkdir("a/b")
    let before = openDescriptors()
    let watcher = try FileWatcher(root: tree.path, backend: backend, isIgnored: notIgnored)
    let held = ownDescriptors(of: watcher, root: tree.path, openedSince: before)
    #if os(Linux)
      // Its wake pipe (two ends), and its inotify instance with that backend.
      #expect(held.filter { $0.contains("pipe:") }.count == 2, "its wake pipe, both ends: \(held)")
      #expect(held.contains { $0.hasSuffix("inotify of \(tree.path)") } == (backend == .inotify), "\(held)")
    #endif
    let recorder = EventRecorder(watcher.events)

    watcher.stop()
    // stop() returns once the thread has closed its descriptors.
    #expect(watcherDescriptors(root: tree.path, openedSince: before).isDisjoint(with: held))
    #expect(await recorder.wait { $0.finished })
    watcher.stop()
    #expect(watcherDescriptors(root: tree.path, openedSince: before).isDisjoint(with: held))
  }

  @Test(arguments: backends)
  func releasingTheWatcherStopsIt(backend: WatchBackend) async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    let before = openDescriptors()
    var watcher: FileWatcher? = try FileWatcher(root: tree.path, backend: backend, isIgnored: notIgnored)
    let held = ownDescriptors(of: watcher!, root: tree.path, openedSince: before)
    let recorder = EventRecorder(watcher!.events)
    watcher = nil
    #expect(await recorder.wait { $0.finished })
    #expect(watcherDescriptors(root: tree.path, openedSince: before).isDisjoint(with: held))
  }

  @Test func endingTheIterationStopsTheWatcher() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    let before = openDescriptors()
    let watcher = try FileWatcher(
      root: tree.path, backend: .auto(pollInterval: .milliseconds(50)), isIgnored: notIgnored)
    let held = ownDescriptors(of: watcher, root: tree.path, openedSince: before)
    let received = Locked(0)
    let consumer = Task {
      for await _ in watcher.events { received.withLock { $0 += 1 } }
    }
    // The consumer is iterating once it has an event: only then is ending the iteration what stops the watcher.
    try Data("x".utf8).write(to: URL(fileURLWithPath: tree.path + "/started.txt"))
    try await waitFor { received.withLock { $0 } > 0 }
    #expect(received.withLock { $0 } > 0, "the watcher delivered an event")
    consumer.cancel()
    await consumer.value
    try await waitFor { watcherDescriptors(root: tree.path, openedSince: before).isDisjoint(with: held) }
    #expect(watcherDescriptors(root: tree.path, openedSince: before).isDisjoint(with: held))
  }

  @Test func rejectsAMissingRoot() throws {
    let error = #expect(throws: FileWatchError.self) {
      try FileWatcher(root: "/nonexistent/ripple-root", backend: .polling(interval: .seconds(1)), isIgnored: notIgnored)
    }
    #expect(error?.description.contains("/nonexistent/ripple-root") == true)
    #expect(error?.description.contains("does not exist") == true)
  }

  @Test func rejectsAFileAsRoot() throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.write("file")
    let error = #expect(throws: FileWatchError.self) {
      try FileWatcher(root: tree.absolute("file"), backend: .auto(pollInterval: .seconds(1)), isIgnored: notIgnored)
    }
    #expect(error?.description.contains("file: it is not a directory") == true)
  }

  @Test(.enabled(if: geteuid() != 0, "root can read anything"))
  func rejectsAnUnreadableRoot() throws {
    let tree = try TempTree()
    defer {
      chmod(tree.absolute("locked"), 0o755)
      tree.remove()
    }
    try tree.mkdir("locked")
    chmod(tree.absolute("locked"), 0)
    let error = #expect(throws: FileWatchError.self) {
      try FileWatcher(root: tree.absolute("locked"), backend: .auto(pollInterval: .seconds(1)), isIgnored: notIgnored)
    }
    #expect(error?.description.contains("not readable") == true)
  }

  @Test func rejectsANonPositiveInterval() throws {
    let tree = try TempTree()
    defer { tree.remove() }
    let error = #expect(throws: FileWatchError.self) {
      try FileWatcher(root: tree.path, backend: .polling(interval: .zero), isIgnored: notIgnored)
    }
    #expect(error?.category == .usage)
  }

  @Test(.enabled(if: !inotifyAvailable, "inotify exists here"))
  func inotifyIsRefusedWhereItDoesNotExist() throws {
    let tree = try TempTree()
    defer { tree.remove() }
    #expect(throws: FileWatchError.self) {
      try FileWatcher(root: tree.path, backend: .inotify, isIgnored: notIgnored)
    }
    let auto = try FileWatcher(root: tree.path, backend: .auto(pollInterval: .seconds(1)), isIgnored: notIgnored)
    #expect(auto.backendName == "polling")
  }

  @Test func autoUsesInotifyWhereItExists() throws {
    let tree = try TempTree()
    defer { tree.remove() }
    let watcher = try FileWatcher(root: tree.path, backend: .auto(pollInterval: .seconds(1)), isIgnored: notIgnored)
    #expect(watcher.backendName == (inotifyAvailable ? "inotify" : "polling"))
  }
}

extension WatchBackend: CustomTestStringConvertible {
  public var testDescription: String {
    switch self {
    case .auto: "auto"
    case .inotify: "inotify"
    case .polling: "polling"
    }
  }
}
