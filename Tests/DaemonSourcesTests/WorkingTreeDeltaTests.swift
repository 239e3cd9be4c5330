import FileWatch
import Foundation
import Git
import RippleCore
import TestSupport
import Testing

@testable import DaemonSources

/// The working tree kept current from a watcher's paths must always equal what git's status scan says.
@Suite("working tree delta from the watcher's paths")
struct WorkingTreeDeltaTests {
  /// A committed tree with a tracked folder, an ignore rule and a second commit on top of the base.
  private func fixture() throws -> (GitFixture, GitRepository, base: ObjectID) {
    let fixture = try GitFixture()
    try fixture.write(".gitignore", "build/\n")
    try fixture.write("Sources/A/a.swift", "let a = 1\n")
    try fixture.write("Sources/B/b.swift", "let b = 2\n")
    try fixture.write("Sources/B/c.swift", "let c = 3\n")
    try fixture.write("README.md", "readme\n")
    try fixture.commitAll("base")
    let repository = try GitRepository.discover(from: fixture.root)
    let base = try repository.headCommit()
    try fixture.write("Sources/A/a.swift", "let a = 10 // committed after the base\n")
    try fixture.write("Docs/notes.md", "notes\n")
    try fixture.commitAll("second")
    return (fixture, repository, base)
  }

  /// git's own answer for the working tree against `from`, as path → status (renames cannot occur here).
  private func gitAnswer(_ repository: GitRepository, from: ObjectID) throws -> [String: ChangeStatus] {
    Dictionary(uniqueKeysWithValues: try repository.changesToWorkingTree(from: from).map { ($0.path, $0.status) })
  }

  private func answer(_ changes: [ChangedFile]) -> [String: ChangeStatus] {
    Dictionary(uniqueKeysWithValues: changes.map { ($0.path, $0.status) })
  }

  @Test func eachKindOfChangeFromItsPathsAloneEqualsAScan() throws {
    let (fixture, repository, base) = try fixture()
    let head = try repository.headCommit()
    var delta = try WorkingTreeDelta.scan(repository, head: head)
    #expect(delta.differing.isEmpty)
    let clean = delta.fingerprint

    // A save, a new untracked file, a deleted file, an ignored file.
    try fixture.write("Sources/B/b.swift", "let b = 20\n")
    try fixture.write("Sources/New/new.swift", "let fresh = true\n")
    try FileManager.default.removeItem(atPath: fixture.root + "/README.md")
    try fixture.write("build/out.o", "object code\n")
    try delta.update(
      ["Sources/B/b.swift", "Sources/New", "Sources/New/new.swift", "README.md", "build/out.o"], in: repository)
    #expect(delta == (try WorkingTreeDelta.scan(repository, head: head)))
    #expect(Set(delta.differing.keys) == ["Sources/B/b.swift", "Sources/New/new.swift", "README.md"])
    #expect(answer(try delta.changes(from: head, in: repository)) == (try gitAnswer(repository, from: head)))
    #expect(answer(try delta.changes(from: base, in: repository)) == (try gitAnswer(repository, from: base)))

    // A folder moved away as a whole: the watcher names only the folder.
    let away = try TemporaryDirectory(prefix: "moved")
    try FileManager.default.moveItem(atPath: fixture.root + "/Sources/B", toPath: away.path + "/B")
    try delta.update(["Sources/B"], in: repository)
    #expect(delta == (try WorkingTreeDelta.scan(repository, head: head)))
    #expect(answer(try delta.changes(from: base, in: repository)) == (try gitAnswer(repository, from: base)))

    // Saving the committed bytes again: no longer a change, and the fingerprint says so.
    try fixture.write("README.md", "readme\n")
    try fixture.write("Sources/B/b.swift", "let b = 2\n")
    try fixture.write("Sources/B/c.swift", "let c = 3\n")
    try FileManager.default.removeItem(atPath: fixture.root + "/Sources/New")
    try delta.update(
      ["README.md", "Sources/B", "Sources/B/b.swift", "Sources/B/c.swift", "Sources/New"], in: repository)
    #expect(delta.differing.isEmpty)
    #expect(delta.fingerprint == clean)
    #expect(try delta.changes(from: head, in: repository).isEmpty)
    // From the base: only the commit's own changes, through the tree diff.
    #expect(answer(try delta.changes(from: base, in: repository)) == (try gitAnswer(repository, from: base)))
  }

  @Test func aCommittedFileEditedBackToTheBaseIsNoChangeFromTheBase() throws {
    let (fixture, repository, base) = try fixture()
    var delta = try WorkingTreeDelta.scan(repository, head: try repository.headCommit())
    try fixture.write("Sources/A/a.swift", "let a = 1\n")  // the base's bytes
    try delta.update(["Sources/A/a.swift"], in: repository)
    let changes = try delta.changes(from: base, in: repository)
    #expect(!changes.map(\.path).contains("Sources/A/a.swift"))
    // libgit2 merges base → index → disk and keeps "modified" for the edited-back file (git's own
    // `git diff <base>` reports nothing there); every other path agrees.
    var git = try gitAnswer(repository, from: base)
    #expect(git.removeValue(forKey: "Sources/A/a.swift") == .modified)
    #expect(answer(changes) == git)
  }

  @Test func sameContentWrittenAgainKeepsTheFingerprint() throws {
    let (fixture, repository, _) = try fixture()
    var delta = try WorkingTreeDelta.scan(repository, head: try repository.headCommit())
    try fixture.write("Sources/B/b.swift", "let b = 99\n")
    try delta.update(["Sources/B/b.swift"], in: repository)
    let edited = delta.fingerprint
    try fixture.write("Sources/B/b.swift", "let b = 99\n")
    try delta.update(["Sources/B/b.swift"], in: repository)
    #expect(delta.fingerprint == edited, "a save without new content is not a new working tree")
    try fixture.write("Sources/B/b.swift", "let b = 100\n")
    try delta.update(["Sources/B/b.swift"], in: repository)
    #expect(delta.fingerprint != edited)
  }

  @Test func aRescanOrAGitignoreEditLooksAtEverything() {
    #expect(WorktreeSource.pathsToLookAt(SettledBatch(paths: ["a.swift"])) == ["a.swift"])
    #expect(WorktreeSource.pathsToLookAt(SettledBatch(paths: ["a.swift"], rescan: true, reasons: ["overflow"])) == nil)
    #expect(WorktreeSource.pathsToLookAt(SettledBatch(paths: ["Sub/.gitignore"])) == nil)
    #expect(WorktreeSource.pathsToLookAt(SettledBatch(paths: [".gitignore"])) == nil)
  }

  @Test func prepareSyncsOnlyTheReportedPathsAndScansAfterAHeadMove() throws {
    let (fixture, developer, base) = try fixture()
    let scratch = try TemporaryDirectory(prefix: "delta")
    let copy = try GitRepository.openOrCreateWorktree(at: scratch.path + "/copy", objectsOf: developer)
    let dirty = DirtyPaths()

    try fixture.write("Sources/B/b.swift", "let b = 7\n")
    let (first, firstDelta) = try WorktreeSync.prepare(from: developer, to: copy, dirty: dirty)
    #expect(first.full, "nothing known at start: a full sync")
    #expect(Set(firstDelta.differing.keys) == ["Sources/B/b.swift"])

    // A folder moved away and a new file: the copy follows from those paths alone.
    try FileManager.default.moveItem(atPath: fixture.root + "/Sources/B", toPath: scratch.path + "/moved-B")
    try fixture.write("Sources/C/c.swift", "let c = 30\n")
    dirty.mark(["Sources/B", "Sources/C", "Sources/C/c.swift"])
    let (second, secondDelta) = try WorktreeSync.prepare(from: developer, to: copy, dirty: dirty)
    #expect(!second.full)
    #expect(second.removed == 2 && second.copied == 1)
    #expect(!FileManager.default.fileExists(atPath: scratch.path + "/copy/Sources/B"))
    #expect(secondDelta == (try WorkingTreeDelta.scan(copy, head: secondDelta.head)))
    #expect(
      answer(try secondDelta.changes(from: base, in: copy)) == (try gitAnswer(developer, from: base)))

    // A commit in the developer's tree (HEAD moved): a checkout and a full sync once.
    try fixture.commitAll("third")
    let (third, thirdDelta) = try WorktreeSync.prepare(from: developer, to: copy, dirty: dirty)
    #expect(third.full)
    #expect(thirdDelta.head == (try developer.headCommit()))
    #expect(thirdDelta.differing.isEmpty)
  }
}
