import Foundation
import RippleCore
import Testing

@testable import FileWatch

struct PollingBackendTests {
  static let fast = WatchBackend.polling(interval: .milliseconds(50))

  @Test func firstScanIsSilentThenChangesAreReported() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.write("src/a.swift")
    try tree.write("README.md")
    let watcher = try FileWatcher(root: tree.path, backend: Self.fast, isIgnored: notIgnored)
    defer { watcher.stop() }
    #expect(watcher.backendName == "polling")
    #expect(watcher.watchedDirectoryCount == 2)
    let recorder = EventRecorder(watcher.events)

    try tree.write("marker")
    #expect(await recorder.waitForChanges("marker"))
    #expect(recorder.events == [.changed(["marker"])])

    recorder.reset()
    try tree.write("src/a.swift", "a longer body")
    #expect(await recorder.waitForChanges("src/a.swift"))
    recorder.reset()
    try tree.move("src/a.swift", "src/b.swift")
    #expect(await recorder.waitForChanges("src/a.swift", "src/b.swift"))
    recorder.reset()
    try tree.delete("src")
    #expect(await recorder.waitForChanges("src", "src/b.swift"))
    recorder.reset()
    try tree.write("new/deeper/file")
    #expect(await recorder.waitForChanges("new", "new/deeper", "new/deeper/file"))
    #expect(recorder.rescanReasons.isEmpty)
  }

  @Test func skipsIgnoredAndAlwaysSkippedPaths() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.mkdir("ignored")
    try tree.mkdir(".git")
    let watcher = try FileWatcher(root: tree.path, backend: Self.fast) { path, isDirectory in
      (isDirectory && path == "ignored") || path.hasSuffix(".swp")
    }
    defer { watcher.stop() }
    #expect(watcher.watchedDirectoryCount == 1)
    let recorder = EventRecorder(watcher.events)

    try tree.write("ignored/x")
    try tree.write(".git/index")
    try tree.write(".build/debug/y")
    try tree.write("Pkg/.swiftpm/z")
    try tree.write("Pkg/.build-linux/z")
    try tree.write("a.swp")
    try tree.write("marker")
    #expect(await recorder.waitForChanges("marker"))
    #expect(recorder.changedPaths == ["marker", "Pkg"])
  }

  @Test func reportsSymlinksAsThemselvesWithoutFollowingThem() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.write("real/file")
    try tree.symlink("loop", to: ".")
    try tree.symlink("alias", to: "real")
    let watcher = try FileWatcher(root: tree.path, backend: Self.fast, isIgnored: notIgnored)
    defer { watcher.stop() }
    #expect(watcher.watchedDirectoryCount == 2)  // the root and real, not the links
    let recorder = EventRecorder(watcher.events)

    try tree.write("real/other")
    #expect(await recorder.waitForChanges("real/other"))
    try tree.delete("alias")
    try tree.symlink("alias", to: "elsewhere")
    #expect(await recorder.waitForChanges("alias"))
    #expect(!recorder.changedPaths.contains { $0.hasPrefix("alias/") || $0.hasPrefix("loop/") })
  }

  @Test func asksAgainAfterAGitignoreChange() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.write("gen/a")
    let ignoreGenerated = Locked(true)
    let watcher = try FileWatcher(root: tree.path, backend: Self.fast) { path, _ in
      path == "gen" && ignoreGenerated.withLock { $0 }
    }
    defer { watcher.stop() }
    let recorder = EventRecorder(watcher.events)

    ignoreGenerated.withLock { $0 = false }
    try tree.write(".gitignore", "")
    #expect(await recorder.waitForChanges(".gitignore"))
    // The scan after the .gitignore change asks again, and finds gen.
    #expect(await recorder.waitForChanges("gen", "gen/a"))
  }

  @Test func comparesFilesButNotTheTimesOfDirectories() {
    let file = FileStatus(
      isDirectory: false, isSymlink: false, inode: 1, size: 10, modifiedNanoseconds: 5, changedNanoseconds: 5)
    let directory = FileStatus(
      isDirectory: true, isSymlink: false, inode: 2, size: 4096, modifiedNanoseconds: 5, changedNanoseconds: 5)
    var touched = file
    touched.modifiedNanoseconds = 6
    var chmodded = file
    chmodded.changedNanoseconds = 6
    var resized = file
    resized.size = 11
    var replaced = file
    replaced.inode = 3
    var directoryWithNewEntry = directory
    directoryWithNewEntry.modifiedNanoseconds = 9
    directoryWithNewEntry.changedNanoseconds = 9
    var fileNowDirectory = directory
    fileNowDirectory.inode = 1

    for changed in [touched, chmodded, resized, replaced, fileNowDirectory] { #expect(Snapshot.differs(file, changed)) }
    #expect(!Snapshot.differs(file, file))
    #expect(!Snapshot.differs(directory, directoryWithNewEntry))
  }

  /// The scan-and-compare step alone, on a real tree, without a thread.
  @Test func snapshotUpdatesReportExactlyWhatChanged() throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.write("a/one")
    try tree.write("a/two")
    try tree.write("b/three")
    try tree.write("skip/x")
    let asked = Locked<[String]>([])
    let filter = PathFilter { path, _ in
      asked.withLock { $0.append(path) }
      return path == "skip"
    }
    var snapshot = Snapshot()
    #expect(snapshot.update(root: tree.path, filter: filter) == [])
    #expect(snapshot.directoryCount == 3)
    #expect(snapshot.update(root: tree.path, filter: filter) == [])
    // Decisions are cached: each path was asked about once.
    #expect(asked.withLock { $0 }.sorted() == ["a", "a/one", "a/two", "b", "b/three", "skip"])

    try tree.write("a/one", "longer")
    try tree.delete("b")
    try tree.write("c")
    try tree.write("skip/y")
    #expect(snapshot.update(root: tree.path, filter: filter) == ["a/one", "b", "b/three", "c"])
    #expect(snapshot.update(root: tree.path, filter: filter) == [])
    #expect(snapshot.directoryCount == 2)

    snapshot.forgetIgnoreDecisions()
    asked.withLock { $0 = [] }
    #expect(snapshot.update(root: tree.path, filter: filter) == [])
    #expect(asked.withLock { $0 }.sorted() == ["a", "a/one", "a/two", "c", "skip"])
  }
}
