import Foundation
import Testing

@testable import TestSupport

/// `GitFixture.reused`'s slots (`ReusedFixtures.fixture`, used whatever `RIPPLE_TESTS_FRESH_FIXTURES` says): the
/// next test gets the same folder back as `populate` left it, with SwiftPM's build folders and nothing else of what
/// the last test did.
@Suite struct ReusedFixtureTests {
  private static func populate(_ repo: GitFixture) throws {
    try repo.write("Package.swift", "// a manifest\n")
    try repo.write("Sources/A/A.swift", "let a = 1\n")
    try repo.write("Sources/B/B.swift", "let b = 1\n")
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("initial")
  }

  /// A slot of its own, and how many times its repository was made.
  private final class Slot {
    let name = "reused-\(UUID().uuidString)"
    private(set) var populated = 0

    func take() throws -> GitFixture {
      try ReusedFixtures.fixture(name, folderName: "repo") { repo in
        populated += 1
        try ReusedFixtureTests.populate(repo)
      }
    }
  }

  private static func inode(_ path: String) throws -> UInt64 {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
  }

  @Test func theNextTestGetsWhatPopulateLeftWithSwiftPMsBuildFoldersOnly() throws {
    let slot = Slot()
    var first: GitFixture? = try slot.take()
    let root = try #require(first?.root)
    let initial = try #require(try first?.revParse("HEAD"))
    let untouched = try Self.inode(root + "/Sources/B/B.swift")
    // What a test does: edits, commits, branches, config, files beside the checkout, and a build.
    try first?.append("Sources/A/A.swift", "// edit\n")
    try first?.write("Sources/A/New.swift", "let new = 1\n")
    try first?.git("checkout", "-q", "-b", "feature")
    try first?.commitAll("a test's commit")
    try first?.git("config", "ripple.test", "yes")
    try first?.write("Untracked.txt", "x\n")
    try first?.write("../team-store/record", "x\n")
    let build = root + "/.build"
    for file in [
      "build.db", "workspace-state.json", "x86_64-unknown-linux-gnu/debug/A.build/A.swift.o",
      "x86_64-unknown-linux-gnu/debug/codecov/default.profraw", "ripple/timings.json", "ripple-cache/records/k",
      "ripple/runs/default/root/build.db", "ripple/runs/default/root/x86_64-unknown-linux-gnu/debug/B.o",
      "report.json",
    ] {
      try first?.write(".build/" + file, "x\n")
    }
    try first?.write("Packages/P/.build/build.db", "x\n")
    try first?.write("Packages/P/.build/ripple/state", "x\n")
    first = nil
    // Reuse off (`RIPPLE_TESTS_FRESH_FIXTURES=1`): a fresh repository, and the slot is left as it is.
    let off = try ReusedFixtures.fixture(slot.name, folderName: "repo", reusing: false) { try Self.populate($0) }
    #expect(off.root != root && off.read("Sources/A/A.swift") == "let a = 1\n")

    let second = try slot.take()
    #expect(slot.populated == 1)
    #expect(second.root == root)
    #expect(try second.revParse("HEAD") == initial)
    #expect(try second.git("rev-parse", "--abbrev-ref", "HEAD") == "main\n")
    #expect(try second.git("branch", "--list", "feature").isEmpty)
    #expect(try second.git("status", "--porcelain", "--untracked-files=all").isEmpty)
    #expect(second.read("Sources/A/A.swift") == "let a = 1\n")
    #expect(try Self.inode(root + "/Sources/B/B.swift") == untouched, "an unchanged file is not rewritten")
    #expect((try? second.git("config", "ripple.test")) == nil)
    let files = FileManager.default
    #expect(!files.fileExists(atPath: root + "/../team-store"))
    for kept in [
      "build.db", "workspace-state.json", "x86_64-unknown-linux-gnu/debug/A.build/A.swift.o",
      "ripple/runs/default/root/build.db", "ripple/runs/default/root/x86_64-unknown-linux-gnu/debug/B.o",
    ] {
      #expect(files.fileExists(atPath: build + "/" + kept), "\(kept)")
    }
    for removed in [
      "x86_64-unknown-linux-gnu/debug/codecov", "ripple/timings.json", "ripple-cache", "report.json",
    ] {
      #expect(!files.fileExists(atPath: build + "/" + removed), "\(removed)")
    }
    #expect(files.fileExists(atPath: root + "/Packages/P/.build/build.db"))
    #expect(!files.fileExists(atPath: root + "/Packages/P/.build/ripple"))

    // Build folders stay out of commits.
    try second.write("Sources/C/C.swift", "let c = 1\n")
    try second.commitAll("c")
    #expect(try second.git("ls-files").split(separator: "\n").filter { $0.contains(".build") }.isEmpty)
  }

  @Test func aSlotInUseGivesAFreshRepositoryAndAFailedResetMakesItAgain() throws {
    let slot = Slot()
    var held: GitFixture? = try slot.take()
    let beside = try slot.take()
    #expect(beside.root != held?.root)
    #expect(slot.populated == 2)
    let root = try #require(held?.root)
    try held?.write("Sources/A/A.swift", "// a test's edit\n")
    held = nil
    // A reset that fails (here: its copy of the repository's git folder is damaged) makes the slot again.
    try FileManager.default.removeItem(
      atPath: ReusedFixtures.folder(slot.name) + "/" + ReusedFixtures.pristineGit + "/HEAD")
    let again = try slot.take()
    #expect(again.root == root)
    #expect(slot.populated == 3)
    #expect(again.read("Sources/A/A.swift") == "let a = 1\n")
    #expect(try again.git("status", "--porcelain", "--untracked-files=all").isEmpty)
  }

  @Test func populateThatLeavesChangesIsRefused() {
    #expect(throws: GitCommandFailed.self) {
      _ = try ReusedFixtures.fixture("reused-\(UUID().uuidString)", folderName: "repo") { repo in
        try Self.populate(repo)
        try repo.write("Uncommitted.swift", "x\n")
      }
    }
  }
}
