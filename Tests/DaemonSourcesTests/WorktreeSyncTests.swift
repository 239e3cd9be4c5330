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

  /// Issue 48: a run replaced a tracked folder of its private copy with a link to a folder outside; the
  /// developer then saves one file there and deletes another. The sync neither writes nor deletes outside the
  /// copy, and the copy ends as the developer's tree.
  @Test func aLinkARunPlantedWhereAFolderBelongsIsReplacedNeverFollowed() throws {
    let repository = try GitFixture()
    let scratch = try TemporaryDirectory(prefix: "sync")
    let root = scratch.path
    for name in ["a", "b", "c"] { try repository.write("lib/\(name).txt", "\(name)\n") }
    try repository.write("lib/sub/d.txt", "d\n")
    try repository.write("top.txt", "top\n")
    try repository.commitAll("init")
    let developer = try GitRepository.discover(from: repository.root)
    let copy = try GitRepository.openOrCreateWorktree(at: root + "/copy", objectsOf: developer)
    try copy.checkOut(try developer.headCommit())
    _ = try WorktreeSync.sync(from: developer, to: copy, only: nil)

    let outside = root + "/outside"
    try FileManager.default.createDirectory(atPath: outside + "/sub", withIntermediateDirectories: true)
    let victims = ["a.txt", "b.txt", "c.txt", "keep.txt", "sub/d.txt"]
    for name in victims {
      try "outside \(name)\n".write(toFile: outside + "/" + name, atomically: false, encoding: .utf8)
    }
    func outsideIsUntouched() throws {
      for name in victims {
        #expect(
          try String(contentsOfFile: outside + "/" + name, encoding: .utf8) == "outside \(name)\n", "\(name) outside")
      }
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: outside).sorted() == [
          "a.txt", "b.txt", "c.txt", "keep.txt", "sub",
        ])
    }
    // The hostile run.
    try FileManager.default.removeItem(atPath: root + "/copy/lib")
    try FileManager.default.createSymbolicLink(atPath: root + "/copy/lib", withDestinationPath: outside)

    // The developer saves one file and deletes another in that folder.
    try repository.write("lib/a.txt", "a edited\n")
    try FileManager.default.removeItem(atPath: repository.root + "/lib/b.txt")
    _ = try WorktreeSync.sync(from: developer, to: copy, only: ["lib/a.txt", "lib/b.txt"])
    try outsideIsUntouched()
    let attributes = try FileManager.default.attributesOfItem(atPath: root + "/copy/lib")
    #expect(attributes[.type] as? FileAttributeType == .typeDirectory, "the link is replaced by a folder")
    #expect(try String(contentsOfFile: root + "/copy/lib/a.txt", encoding: .utf8) == "a edited\n")
    #expect(!FileManager.default.fileExists(atPath: root + "/copy/lib/b.txt"))
    #expect(try String(contentsOfFile: root + "/copy/lib/c.txt", encoding: .utf8) == "c\n", "what the link hid")
    let head = try developer.headCommit()
    #expect(try copy.changesToWorkingTree(from: head) == developer.changesToWorkingTree(from: head))

    // Deeper: a link inside a folder the developer then deletes whole (the watcher names only the folder).
    try FileManager.default.removeItem(atPath: root + "/copy/lib/sub")
    try FileManager.default.createSymbolicLink(atPath: root + "/copy/lib/sub", withDestinationPath: outside + "/sub")
    try FileManager.default.removeItem(atPath: repository.root + "/lib")
    _ = try WorktreeSync.sync(from: developer, to: copy, only: ["lib"])
    try outsideIsUntouched()
    #expect(!FileManager.default.fileExists(atPath: root + "/copy/lib"))

    // And a file saved under a link the run put where a folder of the file's path belongs (a full sync).
    try FileManager.default.createSymbolicLink(atPath: root + "/copy/lib", withDestinationPath: outside)
    try repository.write("lib/a.txt", "back\n")
    _ = try WorktreeSync.sync(from: developer, to: copy, only: nil)
    try outsideIsUntouched()
    #expect(try String(contentsOfFile: root + "/copy/lib/a.txt", encoding: .utf8) == "back\n")
    #expect(try copy.changesToWorkingTree(from: head) == developer.changesToWorkingTree(from: head))
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
