import Foundation
import Git
import RippleCore
import TestSupport
import Testing

@Suite("changes between commits and against the working tree")
struct ChangesTests {
  @Test func commitToCommit() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    try repo.write("b.txt", "b\n")
    try repo.write("Sources/Core/Keep.swift", "keep\n")
    let base = try repo.commit()
    try repo.write("a.txt", "a changed\n")
    try repo.remove("b.txt")
    try repo.write("Sources/Core/New.swift", "new\n")
    let head = try repo.commit()

    let git = try repo.open()
    #expect(
      try git.changes(from: base, to: head) == [
        ChangedFile(path: "Sources/Core/New.swift", status: .added),
        ChangedFile(path: "a.txt", status: .modified),
        ChangedFile(path: "b.txt", status: .deleted),
      ])
    #expect(try git.changes(from: head, to: base).map(\.status) == [.deleted, .modified, .added])
  }

  @Test func mergeBaseKeepsBaseBranchChangesOut() throws {
    let repo = try TestRepo()
    try repo.write("shared.txt", "shared\n")
    let fork = try repo.commit()
    try repo.git("checkout", "-q", "-b", "feature")
    try repo.write("Feature/f.swift", "feature\n")
    let feature = try repo.commit()
    try repo.git("checkout", "-q", "main")
    try repo.write("Main/m.swift", "moved on\n")
    try repo.write("shared.txt", "shared, edited on main\n")
    let main = try repo.commit()

    let git = try repo.open()
    let base = try git.mergeBase(feature, main)
    #expect(base == fork)
    #expect(try git.mergeBase(main, feature) == fork)
    #expect(try git.changes(from: base, to: feature) == [ChangedFile(path: "Feature/f.swift", status: .added)])
    // Without the merge-base, main's own changes leak in as reverted: the reason to use it.
    #expect(try git.changes(from: main, to: feature).count == 3)
  }

  @Test func stagedOnly() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    try repo.write("b.txt", "b\n")
    let base = try repo.commit()
    try repo.write("a.txt", "staged\n")
    try repo.git("add", "a.txt")
    try repo.write("c.txt", "staged new\n")
    try repo.git("add", "c.txt")

    #expect(
      try repo.open().changesToWorkingTree(from: base) == [
        ChangedFile(path: "a.txt", status: .modified),
        ChangedFile(path: "c.txt", status: .added),
      ])
  }

  @Test func unstaged() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    let base = try repo.commit()
    try repo.write("a.txt", "unstaged edit\n")
    #expect(try repo.open().changesToWorkingTree(from: base) == [ChangedFile(path: "a.txt", status: .modified)])
  }

  @Test func untrackedInNewNestedFolder() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    let base = try repo.commit()
    try repo.write("Sources/New/Deep/Inner.swift", "inner\n")
    try repo.write("Sources/New/Outer.swift", "outer\n")
    #expect(
      try repo.open().changesToWorkingTree(from: base) == [
        ChangedFile(path: "Sources/New/Deep/Inner.swift", status: .added),
        ChangedFile(path: "Sources/New/Outer.swift", status: .added),
      ])
  }

  @Test func ignoredFilesAreNotReported() throws {
    let repo = try TestRepo()
    try repo.write(".gitignore", "*.log\nbuild/\n")
    let base = try repo.commit()
    try repo.write("debug.log", "noise\n")
    try repo.write("build/out/artifact.o", "binary\n")
    try repo.write("Sources/Keep.swift", "keep\n")
    #expect(
      try repo.open().changesToWorkingTree(from: base) == [ChangedFile(path: "Sources/Keep.swift", status: .added)])
  }

  @Test func everythingSinceBaseTogether() throws {
    let repo = try TestRepo()
    try repo.write("committed.txt", "1\n")
    try repo.write("staged.txt", "1\n")
    try repo.write("unstaged.txt", "1\n")
    let base = try repo.commit()
    try repo.write("committed.txt", "2\n")
    try repo.commit()
    try repo.write("staged.txt", "2\n")
    try repo.git("add", "staged.txt")
    try repo.write("unstaged.txt", "2\n")
    try repo.write("untracked.txt", "new\n")
    #expect(
      try repo.open().changesToWorkingTree(from: base) == [
        ChangedFile(path: "committed.txt", status: .modified),
        ChangedFile(path: "staged.txt", status: .modified),
        ChangedFile(path: "unstaged.txt", status: .modified),
        ChangedFile(path: "untracked.txt", status: .added),
      ])
  }

  @Test func renamesWithinAndAcrossFolders() throws {
    let repo = try TestRepo()
    try repo.write("Sources/A/One.swift", body("one"))
    try repo.write("Sources/A/Moved.swift", body("moved"))
    let base = try repo.commit()
    try repo.gitMove("Sources/A/One.swift", "Sources/A/Two.swift")
    try repo.gitMove("Sources/A/Moved.swift", "Sources/B/Moved.swift")
    let head = try repo.commit()

    let expected = [
      ChangedFile(path: "Sources/A/Two.swift", status: .renamed, oldPath: "Sources/A/One.swift"),
      ChangedFile(path: "Sources/B/Moved.swift", status: .renamed, oldPath: "Sources/A/Moved.swift"),
    ]
    let git = try repo.open()
    #expect(try git.changes(from: base, to: head) == expected)
    #expect(try git.changesToWorkingTree(from: base) == expected)
    #expect(expected[1].touchedPaths == ["Sources/A/Moved.swift", "Sources/B/Moved.swift"])
  }

  @Test func renameWithEditsStillARename() throws {
    let repo = try TestRepo()
    try repo.write("Sources/A/File.swift", body("file"))
    let base = try repo.commit()
    try repo.gitMove("Sources/A/File.swift", "Sources/B/File.swift")
    try repo.write("Sources/B/File.swift", body("file") + "// one more line\n")
    let head = try repo.commit()
    #expect(
      try repo.open().changes(from: base, to: head) == [
        ChangedFile(path: "Sources/B/File.swift", status: .renamed, oldPath: "Sources/A/File.swift")
      ])
  }

  @Test func stagedAndUnstagedRenamesInTheWorkingTree() throws {
    let repo = try TestRepo()
    try repo.write("Sources/A/Staged.swift", body("staged"))
    try repo.write("Sources/A/Unstaged.swift", body("unstaged"))
    let base = try repo.commit()
    try repo.gitMove("Sources/A/Staged.swift", "Sources/B/Staged.swift")
    // A plain move on disk: a deleted tracked file and an untracked one.
    try repo.move("Sources/A/Unstaged.swift", "Sources/C/Unstaged.swift")
    #expect(
      try repo.open().changesToWorkingTree(from: base) == [
        ChangedFile(path: "Sources/B/Staged.swift", status: .renamed, oldPath: "Sources/A/Staged.swift"),
        ChangedFile(path: "Sources/C/Unstaged.swift", status: .renamed, oldPath: "Sources/A/Unstaged.swift"),
      ])
  }

  @Test func deletions() throws {
    let repo = try TestRepo()
    try repo.write("gone.txt", "bye\n")
    try repo.write("soon.txt", "bye soon\n")
    try repo.write("Dir/inner.txt", "inner\n")
    let base = try repo.commit()
    try repo.remove("gone.txt")
    let head = try repo.commit()
    try repo.remove("soon.txt")  // unstaged deletion
    try repo.git("rm", "-q", "Dir/inner.txt")  // staged deletion

    let git = try repo.open()
    #expect(try git.changes(from: base, to: head) == [ChangedFile(path: "gone.txt", status: .deleted)])
    #expect(
      try git.changesToWorkingTree(from: base) == [
        ChangedFile(path: "Dir/inner.txt", status: .deleted),
        ChangedFile(path: "gone.txt", status: .deleted),
        ChangedFile(path: "soon.txt", status: .deleted),
      ])
  }

  @Test func modeChangeIsModified() throws {
    let repo = try TestRepo()
    try repo.write("script.sh", "echo hi\n")
    try repo.write("other.sh", "echo other\n")
    let base = try repo.commit()
    try repo.makeExecutable("script.sh")
    let head = try repo.commit()
    try repo.makeExecutable("other.sh")  // unstaged mode change

    let git = try repo.open()
    #expect(try git.changes(from: base, to: head) == [ChangedFile(path: "script.sh", status: .modified)])
    #expect(
      try git.changesToWorkingTree(from: base) == [
        ChangedFile(path: "other.sh", status: .modified),
        ChangedFile(path: "script.sh", status: .modified),
      ])
  }

  @Test func fileReplacedBySymlinkIsATypeChange() throws {
    let repo = try TestRepo()
    try repo.write("target.txt", "target\n")
    try repo.write("link", "was a file\n")
    let base = try repo.commit()
    try repo.remove("link")
    try FileManager.default.createSymbolicLink(atPath: repo.url("link").path, withDestinationPath: "target.txt")
    let head = try repo.commit()
    #expect(try repo.open().changes(from: base, to: head) == [ChangedFile(path: "link", status: .typeChanged)])
  }

  @Test func submodulePointerBump() throws {
    let library = try TestRepo()
    try library.write("Lib.swift", "v1\n")
    try library.commit()

    let repo = try TestRepo()
    try repo.write("App.swift", "app\n")
    try repo.commit()
    try repo.git("submodule", "add", "-q", library.path, "Vendor/Lib")
    let base = try repo.commit("add submodule")

    try library.write("Lib.swift", "v2\n")
    try library.commit()
    let submodule = TestRepo(existing: repo.url("Vendor/Lib").path)
    try submodule.git("pull", "-q", "origin", "main")
    let git = try repo.open()
    // Moved but not committed in the superproject: the pointer changed in the working tree.
    #expect(try git.changesToWorkingTree(from: base) == [ChangedFile(path: "Vendor/Lib", status: .modified)])
    let head = try repo.commit("bump submodule")
    #expect(try git.changes(from: base, to: head) == [ChangedFile(path: "Vendor/Lib", status: .modified)])
    #expect(try git.changesToWorkingTree(from: head) == [])

    // Edits inside the submodule's working tree are its own business.
    try submodule.write("Lib.swift", "dirty\n")
    try submodule.write("Untracked.swift", "dirty\n")
    #expect(try git.changesToWorkingTree(from: head) == [])
    #expect(try git.files(at: head) == [".gitmodules", "App.swift", "Vendor/Lib"])
  }

  @Test func pathsWithSpacesAndNonASCII() throws {
    let path = "Sources/Été/a b.swift"
    let repo = try TestRepo()
    try repo.write("README", "r\n")
    let base = try repo.commit()
    try repo.write(path, "bonjour\n")
    try repo.write("Sources/日本/ファイル.swift", "konnichiwa\n")

    let git = try repo.open()
    let expected = [
      ChangedFile(path: path, status: .added),
      ChangedFile(path: "Sources/日本/ファイル.swift", status: .added),
    ]
    let untracked = try git.changesToWorkingTree(from: base)
    #expect(untracked == expected)
    let head = try repo.commit()
    let committed = try git.changes(from: base, to: head)
    #expect(committed == expected)
    #expect(try git.files(at: head).contains(path))
    #expect(try git.blob(at: head, path: path) == Array("bonjour\n".utf8))
    #if os(Linux)
      // Byte for byte (Swift's String == would also accept another Unicode normalisation).
      #expect(committed.map { Array($0.path.utf8) } == expected.map { Array($0.path.utf8) })
      #expect(untracked.map { Array($0.path.utf8) } == expected.map { Array($0.path.utf8) })
    #endif
  }

  @Test func emptyDiffs() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    let head = try repo.commit()
    let git = try repo.open()
    #expect(try git.changes(from: head, to: head) == [])
    #expect(try git.changesToWorkingTree(from: head) == [])
    // An empty commit changes no file either.
    let empty = try repo.commit("empty")
    #expect(try git.changes(from: head, to: empty) == [])
  }
}
