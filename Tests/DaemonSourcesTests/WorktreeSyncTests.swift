import Foundation
import Git
import TestSupport
import Testing

@testable import DaemonSources

@Suite("working tree sync into the daemon's private copy")
struct WorktreeSyncTests {
  @Test func fullThenChangedPathsOnlyAndTheCopyMatchesAsGitSeesIt() throws {
    let repository = try GitFixture()
    let dev = repository.root
    let scratch = try TemporaryDirectory(prefix: "sync")
    let root = scratch.path
    try repository.write("a.txt", "a\n")
    try repository.write("b.txt", "b\n")
    try repository.write(".gitignore", "build/\n")
    try repository.commitAll("init")
    try repository.write("a.txt", "a edited\n")
    try repository.write("new.txt", "untracked\n")
    try repository.write("build/out.o", "ignored\n")

    let developer = try GitRepository.discover(from: dev)
    let copy = try GitRepository.openOrCreateWorktree(at: root + "/copy", objectsOf: developer)
    try copy.checkOut(try developer.headCommit())
    let full = try WorktreeSync.sync(from: developer, to: copy, only: nil)
    #expect(full.full)
    #expect(!FileManager.default.fileExists(atPath: root + "/copy/build/out.o"), "ignored files stay behind")
    let head = try developer.headCommit()
    #expect(try copy.changesToWorkingTree(from: head) == developer.changesToWorkingTree(from: head))

    // A save and a delete: only those paths are looked at.
    try repository.write("b.txt", "b edited\n")
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

  /// The copy stays open between runs (its index stays loaded); a failed sync (`markAll`) opens it afresh.
  @Test func theCopyIsOpenedOnceUntilEverythingIsMarked() throws {
    let repository = try GitFixture()
    try repository.write("a.txt", "a\n")
    try repository.commitAll("init")
    let developer = try GitRepository.discover(from: repository.root)
    let scratch = try TemporaryDirectory(prefix: "sync")
    let dirty = DirtyPaths()
    let first = try dirty.copy(at: scratch.path + "/copy", objectsOf: developer)
    #expect(try dirty.copy(at: scratch.path + "/copy", objectsOf: developer) === first)
    #expect(FileManager.default.fileExists(atPath: scratch.path + "/copy/.git/objects/info/alternates"))
    #expect(try dirty.copy(at: scratch.path + "/other", objectsOf: developer) !== first, "another path")
    let other = try dirty.copy(at: scratch.path + "/other", objectsOf: developer)
    dirty.markAll()
    let reopened = try dirty.copy(at: scratch.path + "/other", objectsOf: developer)
    #expect(reopened !== other)

    // Removed behind the daemon's back (a cleaned cache): made again, not reused.
    try FileManager.default.removeItem(atPath: scratch.path + "/other")
    #expect(try dirty.copy(at: scratch.path + "/other", objectsOf: developer) !== reopened)
    #expect(FileManager.default.fileExists(atPath: scratch.path + "/other/.git/HEAD"))
  }
}
