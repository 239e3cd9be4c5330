import Foundation
import RippleCore
import Testing

@testable import FileWatch

@Suite(.enabled(if: inotifyAvailable, "inotify exists on Linux only"))
struct InotifyBackendTests {
  @Test func reportsCreateModifyDeleteAndRenameOfAFile() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.mkdir("src")
    let watcher = try FileWatcher(root: tree.path, backend: .inotify, isIgnored: notIgnored)
    defer { watcher.stop() }
    #expect(watcher.backendName == "inotify")
    let recorder = EventRecorder(watcher.events)

    try tree.write("src/a.swift")
    #expect(await recorder.waitForChanges("src/a.swift"))
    recorder.reset()
    try tree.write("src/a.swift", "modified")
    #expect(await recorder.waitForChanges("src/a.swift"))
    recorder.reset()
    try tree.move("src/a.swift", "src/b.swift")
    #expect(await recorder.waitForChanges("src/a.swift", "src/b.swift"))
    recorder.reset()
    try tree.delete("src/b.swift")
    #expect(await recorder.waitForChanges("src/b.swift"))
    #expect(recorder.rescanReasons.isEmpty)
  }

  @Test func seesFilesCreatedInANewDirectoryBeforeItsWatchExisted() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    let watcher = try FileWatcher(root: tree.path, backend: .inotify, isIgnored: notIgnored)
    defer { watcher.stop() }
    let recorder = EventRecorder(watcher.events)

    // `mkdir -p a/b/c && touch a/b/c/f`: the file usually exists before the watcher has watched a/b/c.
    try tree.write("a/b/c/f")
    #expect(await recorder.waitForChanges("a", "a/b", "a/b/c", "a/b/c/f"))
    try await waitFor { watcher.watchedDirectoryCount == 4 }
    #expect(watcher.watchedDirectoryCount == 4)

    recorder.reset()
    try tree.write("a/b/c/g")
    #expect(await recorder.waitForChanges("a/b/c/g"))
  }

  @Test func skipsIgnoredDirectoriesAndFiles() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.mkdir("ignored/deeper")
    try tree.mkdir("src")
    let watcher = try FileWatcher(root: tree.path, backend: .inotify) { path, isDirectory in
      (isDirectory && path == "ignored") || path.hasSuffix(".swp")
    }
    defer { watcher.stop() }
    #expect(watcher.watchedDirectoryCount == 2)  // the root and src
    let recorder = EventRecorder(watcher.events)

    try tree.write("ignored/x")
    try tree.write("ignored/deeper/y")
    try tree.write("src/.main.swift.swp")
    try tree.write("src/marker")
    // Events arrive in order: anything about the writes above would be here by now.
    #expect(await recorder.waitForChanges("src/marker"))
    #expect(recorder.changedPaths == ["src/marker"])
  }

  @Test func neverLooksIntoGitOrBuildFolders() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    for folder in [".git", ".build", ".build-linux", ".build_release", ".swiftpm", "Pkg/.build"] {
      try tree.mkdir(folder)
    }
    let asked = Locked<[String]>([])
    let watcher = try FileWatcher(root: tree.path, backend: .inotify) { path, _ in
      asked.withLock { $0.append(path) }
      return false
    }
    defer { watcher.stop() }
    #expect(watcher.watchedDirectoryCount == 2)  // the root and Pkg
    let recorder = EventRecorder(watcher.events)

    try tree.write(".git/index")
    try tree.write(".build/x")
    try tree.write(".build-linux/debug/y")
    try tree.write(".build_release/z")
    try tree.write(".swiftpm/config")
    try tree.write("Pkg/.build/w")
    try tree.mkdir("Pkg/Sub/.build")
    try tree.write("marker")
    #expect(await recorder.waitForChanges("marker", "Pkg/Sub"))
    #expect(recorder.changedPaths == ["marker", "Pkg/Sub"])
    #expect(
      asked.withLock { $0 }.allSatisfy { !$0.contains(".git") && !$0.contains(".build") && !$0.contains(".swiftpm") })
  }

  @Test func keepsWatchingADirectoryThatIsDeletedAndRecreated() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.write("lib/old/a")
    let watcher = try FileWatcher(root: tree.path, backend: .inotify, isIgnored: notIgnored)
    defer { watcher.stop() }
    #expect(watcher.watchedDirectoryCount == 3)
    let recorder = EventRecorder(watcher.events)

    try tree.delete("lib")
    #expect(await recorder.waitForChanges("lib"))
    try await waitFor { watcher.watchedDirectoryCount == 1 }
    #expect(watcher.watchedDirectoryCount == 1)

    recorder.reset()
    try tree.write("lib/new")
    #expect(await recorder.waitForChanges("lib", "lib/new"))
    recorder.reset()
    try tree.write("lib/later")
    #expect(await recorder.waitForChanges("lib/later"))
    #expect(watcher.watchedDirectoryCount == 2)
  }

  @Test func followsADirectoryRenamedInsideTheTree() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.write("before/inner/a")
    let watcher = try FileWatcher(root: tree.path, backend: .inotify, isIgnored: notIgnored)
    defer { watcher.stop() }
    let recorder = EventRecorder(watcher.events)

    try tree.move("before", "after")
    #expect(await recorder.waitForChanges("before", "after", "after/inner/a"))
    recorder.reset()
    try tree.write("after/inner/b")
    #expect(await recorder.waitForChanges("after/inner/b"))
    #expect(!recorder.changedPaths.contains { $0.hasPrefix("before/") })
    #expect(watcher.watchedDirectoryCount == 3)
  }

  @Test func watchesADirectoryMovedInFromOutside() async throws {
    let tree = try TempTree()
    let outside = try TempTree()
    defer {
      tree.remove()
      outside.remove()
    }
    try outside.write("pkg/Sources/x.swift")
    let watcher = try FileWatcher(root: tree.path, backend: .inotify, isIgnored: notIgnored)
    defer { watcher.stop() }
    let recorder = EventRecorder(watcher.events)

    try FileManager.default.moveItem(atPath: outside.absolute("pkg"), toPath: tree.absolute("pkg"))
    #expect(await recorder.waitForChanges("pkg", "pkg/Sources", "pkg/Sources/x.swift"))
    recorder.reset()
    try tree.write("pkg/Sources/y.swift")
    #expect(await recorder.waitForChanges("pkg/Sources/y.swift"))
  }
}
