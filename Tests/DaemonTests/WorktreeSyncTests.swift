import Foundation
import Git
import Testing

@testable import Daemon

@Suite("working tree sync into the daemon's private copy")
struct WorktreeSyncTests {
  private func git(_ arguments: String...) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
    process.arguments = Array(arguments)
    process.environment = ProcessInfo.processInfo.environment.merging([
      "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
      "GIT_COMMITTER_EMAIL": "t@example.invalid",
    ]) { $1 }
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  private func write(_ path: String, _ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  @Test func fullThenChangedPathsOnlyAndTheCopyMatchesAsGitSeesIt() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString)")
      .resolvingSymlinksInPath().path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let dev = root + "/dev"
    try git("init", "-q", "-b", "main", dev)
    try write(dev + "/a.txt", "a\n")
    try write(dev + "/b.txt", "b\n")
    try write(dev + "/.gitignore", "build/\n")
    try git("-C", dev, "add", "-A")
    try git("-C", dev, "commit", "-q", "-m", "init")
    try write(dev + "/a.txt", "a edited\n")
    try write(dev + "/new.txt", "untracked\n")
    try write(dev + "/build/out.o", "ignored\n")

    let developer = try GitRepository.discover(from: dev)
    let copy = try GitRepository.openOrCreateWorktree(at: root + "/copy", objectsOf: developer)
    try copy.checkOut(try developer.headCommit())
    let full = try WorktreeSync.sync(from: developer, to: copy, only: nil)
    #expect(full.full)
    #expect(!FileManager.default.fileExists(atPath: root + "/copy/build/out.o"), "ignored files stay behind")
    let head = try developer.headCommit()
    #expect(try copy.changesToWorkingTree(from: head) == developer.changesToWorkingTree(from: head))

    // A save and a delete: only those paths are looked at.
    try write(dev + "/b.txt", "b edited\n")
    try FileManager.default.removeItem(atPath: dev + "/new.txt")
    let partial = try WorktreeSync.sync(from: developer, to: copy, only: ["b.txt", "new.txt"])
    #expect(partial == .init(copied: 1, removed: 1, full: false))
    #expect(try copy.changesToWorkingTree(from: head) == developer.changesToWorkingTree(from: head))
    #expect(try String(contentsOfFile: root + "/copy/b.txt", encoding: .utf8) == "b edited\n")

    // Nothing changed since: nothing copied.
    #expect(try WorktreeSync.sync(from: developer, to: copy, only: ["b.txt"]).copied == 0)
  }

  @Test func dirtyPathsStartUnknownThenCollectAndEmptyOnTake() {
    let dirty = DirtyPaths()
    #expect(dirty.take() == nil, "the first sync after start compares everything")
    dirty.mark(["a"])
    dirty.mark(["b"])
    #expect(dirty.take() == ["a", "b"])
    #expect(dirty.take() == [])
    dirty.markAll()
    dirty.mark(["c"])
    #expect(dirty.take() == nil)
  }
}
