import Foundation
import Git
import TestSupport
import Testing

@testable import DaemonSources

@Suite("bare mirror, fetch and private work trees (the daemon's git)")
struct MirrorTests {
  /// A source repo with a commit on main, pushed to a bare "remote".
  private func remoteWithMain() throws -> (source: TestRepo, remote: TestRepo, first: ObjectID) {
    let source = try TestRepo()
    try source.write("Sources/A/a.swift", "a\n")
    try source.write(".gitignore", ".build/\nAssets/\n")
    let first = try source.commit()
    let remote = try TestRepo(bare: true)
    try source.git("push", "-q", remote.path, "main")
    return (source, remote, first)
  }

  @Test func fetchReportsNewMovedAndDeletedBranches() throws {
    let (source, remote, first) = try remoteWithMain()
    let mirrorPath = try TestRepo.makeTempDirectory() + "/mirror.git"
    defer { try? FileManager.default.removeItem(atPath: (mirrorPath as NSString).deletingLastPathComponent) }
    let mirror = try GitRepository.openOrCreateBare(at: mirrorPath)
    #expect(mirror.isBare)

    let initial = try mirror.fetchBranches(from: remote.path, timeout: .seconds(30))
    #expect(initial.heads == ["main": first])
    #expect(initial.updated == ["main": first])

    let again = try mirror.fetchBranches(from: remote.path, timeout: .seconds(30))
    #expect(again.updated.isEmpty, "nothing moved")

    try source.write("Sources/A/a.swift", "a2\n")
    let second = try source.commit()
    try source.git("push", "-q", remote.path, "main", "main:feature/x")
    let moved = try mirror.fetchBranches(from: remote.path, timeout: .seconds(30))
    #expect(moved.updated == ["main": second, "feature/x": second])

    try source.git("push", "-q", remote.path, ":feature/x")
    let pruned = try mirror.fetchBranches(from: remote.path, timeout: .seconds(30))
    #expect(pruned.deleted == ["feature/x"])
    #expect(try mirror.branches() == ["main": second])
    // Reopening finds the same mirror.
    #expect(try GitRepository.openOrCreateBare(at: mirrorPath).branches() == ["main": second])
  }

  @Test func fetchFromMissingRemoteIsAClearError() throws {
    let dir = try TestRepo.makeTempDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let mirror = try GitRepository.openOrCreateBare(at: dir + "/m.git")
    #expect {
      try mirror.fetchBranches(from: dir + "/no-such-remote.git", timeout: .seconds(10))
    } throws: { error in
      guard case .fetchFailed(let url, _, _) = error as? GitError else { return false }
      return url.hasSuffix("no-such-remote.git") && "\(error)".contains("could not fetch")
    }
  }

  @Test func worktreeChecksOutCommitsWithoutCopyingObjectsAndKeepsIgnoredFiles() throws {
    let (source, remote, first) = try remoteWithMain()
    let dir = try TestRepo.makeTempDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let mirror = try GitRepository.openOrCreateBare(at: dir + "/mirror.git")
    _ = try mirror.fetchBranches(from: remote.path, timeout: .seconds(30))
    try source.remove("Sources/A/a.swift")
    try source.write("Sources/B/b.swift", "b\n")
    let second = try source.commit()
    try source.git("push", "-q", remote.path, "main")
    _ = try mirror.fetchBranches(from: remote.path, timeout: .seconds(30))

    let work = try GitRepository.openOrCreateWorktree(at: dir + "/work/main", objectsOf: mirror)
    try work.checkOut(first)
    #expect(FileManager.default.fileExists(atPath: dir + "/work/main/Sources/A/a.swift"))
    #expect(try work.headCommit() == first)
    // Ignored files survive a checkout; untracked ones do not.
    try FileManager.default.createDirectory(atPath: dir + "/work/main/Assets", withIntermediateDirectories: true)
    try Data("asset".utf8).write(to: URL(fileURLWithPath: dir + "/work/main/Assets/font.ttf"))
    try Data("stray".utf8).write(to: URL(fileURLWithPath: dir + "/work/main/stray.txt"))
    #expect(work.isIgnored("Assets/font.ttf"))
    #expect(!work.isIgnored("stray.txt"))

    try work.checkOut(second)
    #expect(!FileManager.default.fileExists(atPath: dir + "/work/main/Sources/A/a.swift"))
    #expect(FileManager.default.fileExists(atPath: dir + "/work/main/Sources/B/b.swift"))
    #expect(FileManager.default.fileExists(atPath: dir + "/work/main/Assets/font.ttf"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/work/main/stray.txt"))
    #expect(try work.changes(from: first, to: second).map(\.path) == ["Sources/A/a.swift", "Sources/B/b.swift"])
    #expect(try work.isAncestor(first, of: second))
    #expect(try !work.isAncestor(second, of: first))
    // No objects were copied: the work tree's own object store holds nothing but what git init made.
    let objects = try FileManager.default.subpathsOfDirectory(atPath: dir + "/work/main/.git/objects")
    #expect(!objects.contains { $0.count == 41 && $0.contains("/") && !$0.hasPrefix("info") })
    // Reopening an existing work tree works.
    #expect(try GitRepository.openOrCreateWorktree(at: dir + "/work/main", objectsOf: mirror).headCommit() == second)
  }
}

@Suite("work trees survive a lost HEAD")
struct MirrorHeadTests {
  @Test func checkoutWorksWhenHeadPointsAtACommitWhoseObjectsAreGone() throws {
    let first = try TestRepo()
    try first.write("a.txt", "a\n")
    let firstHead = try first.commit()
    let second = try TestRepo()
    try second.write("b.txt", "b\n")
    let secondHead = try second.commit()
    let dir = try TestRepo.makeTempDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }

    let work = try GitRepository.openOrCreateWorktree(at: dir + "/w", objectsOf: try first.open())
    try work.checkOut(firstHead)
    // Re-pointed at another repository's objects: HEAD now names a commit that cannot be read.
    let moved = try GitRepository.openOrCreateWorktree(at: dir + "/w", objectsOf: try second.open())
    try moved.checkOut(secondHead)
    #expect(try moved.headCommit() == secondHead)
    #expect(FileManager.default.fileExists(atPath: dir + "/w/b.txt"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/w/a.txt"))
  }
}

/// A branch controls its work tree: what it commits and, while its tests run, every file in it (not `.git`,
/// which the sandbox keeps read-only). The next checkout runs outside the sandbox and must not act on any of it.
@Suite("a checkout stays in its work tree")
struct CheckoutContainmentTests {
  /// A folder outside the work tree with a file the checkout must leave alone, and a repository whose two
  /// commits the work tree goes through.
  final class Setup: @unchecked Sendable {
    let source = try! TestRepo()
    let dir = try! TestRepo.makeTempDirectory()
    var outside: String { dir + "/outside" }
    var work: String { dir + "/w" }

    init() throws {
      try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
      try Data("precious".utf8).write(to: URL(fileURLWithPath: outside + "/victim.txt"))
      try Data("precious".utf8).write(to: URL(fileURLWithPath: outside + "/x.swift"))
    }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    func link(_ path: String, to destination: String) throws {
      try? FileManager.default.removeItem(atPath: work + "/" + path)
      try FileManager.default.createSymbolicLink(atPath: work + "/" + path, withDestinationPath: destination)
    }

    /// The outside folder's files and their text.
    func outsideFiles() throws -> [String: String] {
      var files: [String: String] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: outside) {
        files[name] = try String(contentsOfFile: outside + "/" + name, encoding: .utf8)
      }
      return files
    }
  }

  static let untouched = ["victim.txt": "precious", "x.swift": "precious"]

  /// Links left by a test where the next checkout writes (a folder, a file, a new folder) or removes (a folder
  /// holding a deleted file): without clearing them first, libgit2 wrote and deleted through every one.
  @Test func linksLeftInTheWorkTreeAreRemovedNotFollowed() throws {
    let setup = try Setup()
    let source = setup.source
    try source.write("T/x.swift", "1\n")
    try source.write("D/x.swift", "1\n")
    try source.write("f.txt", "1\n")
    try source.write("g.txt", "1\n")
    try source.write("gone.txt", "1\n")
    let first = try source.commit("first")
    try source.remove("gone.txt")
    try source.write("T/x.swift", "2\n")
    try source.write("T/y.swift", "2\n")
    try source.remove("D/x.swift")
    try source.write("f.txt", "2\n")
    try source.write("N/victim.txt", "pwned\n")
    let second = try source.commit("second")

    let work = try GitRepository.openOrCreateWorktree(at: setup.work, objectsOf: try source.open())
    try work.checkOut(first)
    // What a hostile test does: replaces tracked folders and files with links out, and plants one where the next
    // commit adds a folder.
    try setup.link("T", to: setup.outside)
    try setup.link("D", to: setup.outside)
    try setup.link("f.txt", to: setup.outside + "/victim.txt")
    try setup.link("g.txt", to: setup.outside + "/victim.txt")
    try setup.link("N", to: setup.outside)

    try work.checkOut(second)
    #expect(try setup.outsideFiles() == Self.untouched)
    #expect(try String(contentsOfFile: setup.work + "/T/y.swift", encoding: .utf8) == "2\n")
    #expect(try String(contentsOfFile: setup.work + "/N/victim.txt", encoding: .utf8) == "pwned\n")
    #expect(try String(contentsOfFile: setup.work + "/g.txt", encoding: .utf8) == "1\n")
    #expect(!FileManager.default.fileExists(atPath: setup.work + "/gone.txt"), "what the commit deleted")
    #expect(try work.headCommit() == second)
  }

  /// A link the branch committed is checked out as a link (that is the branch's content) and replaced by a real
  /// folder when the next commit makes it one.
  @Test func aCommittedLinkIsContentNotAPath() throws {
    let setup = try Setup()
    try setup.source.symlink("Tests/LibTests", to: setup.outside)
    let first = try setup.source.commit("link")
    try setup.source.remove("Tests/LibTests")
    try setup.source.write("Tests/LibTests/x.swift", "mine\n")
    let second = try setup.source.commit("folder")
    let work = try GitRepository.openOrCreateWorktree(at: setup.work, objectsOf: try setup.source.open())
    try work.checkOut(first)
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: setup.work + "/Tests/LibTests")) == setup.outside)
    try work.checkOut(second)
    #expect(try setup.outsideFiles() == Self.untouched)
    #expect(try String(contentsOfFile: setup.work + "/Tests/LibTests/x.swift", encoding: .utf8) == "mine\n")
  }

  /// A run that wrote the work tree's git settings (`core.worktree` at another folder: the next checkout
  /// removed that folder's files as untracked) has no say: rippled rewrites them before every checkout.
  @Test func settingsARunPlantedInGitAreReset() throws {
    let setup = try Setup()
    try setup.source.write("a.txt", "a\n")
    let first = try setup.source.commit("first")
    let work = try GitRepository.openOrCreateWorktree(at: setup.work, objectsOf: try setup.source.open())
    try work.checkOut(first)
    let included = setup.dir + "/included.config"
    try "[core]\n\tworktree = \(setup.outside)\n".write(toFile: included, atomically: true, encoding: .utf8)
    try "[core]\n\tworktree = \(setup.outside)\n[include]\n\tpath = \(included)\n[core]\n\thooksPath = /tmp\n"
      .appending("[filter \"x\"]\n\tsmudge = touch /tmp/pwned\n")
      .write(toFile: setup.work + "/.git/config", atomically: true, encoding: .utf8)

    let reopened = try GitRepository.openOrCreateWorktree(at: setup.work, objectsOf: try setup.source.open())
    #expect(reopened.workdir.map { URL(fileURLWithPath: $0).standardized.path } == setup.work)
    try reopened.checkOut(first)
    #expect(try setup.outsideFiles() == Self.untouched)
    #expect(try String(contentsOfFile: setup.work + "/.git/config", encoding: .utf8) == GitRepository.worktreeConfig)

    // A `commondir` would make the next open use another repository's config, refs and objects.
    try "\(setup.dir)/elsewhere\n".write(toFile: setup.work + "/.git/commondir", atomically: true, encoding: .utf8)
    let again = try GitRepository.openOrCreateWorktree(at: setup.work, objectsOf: try setup.source.open())
    #expect(!FileManager.default.fileExists(atPath: setup.work + "/.git/commondir"))
    #expect(try again.headCommit() == first)

    // A `.git` that is a file (`gitdir: …`) or a link leads elsewhere: a new repository is made in its place.
    try FileManager.default.removeItem(atPath: setup.work + "/.git")
    try "gitdir: \(setup.outside)\n".write(toFile: setup.work + "/.git", atomically: true, encoding: .utf8)
    let remade = try GitRepository.openOrCreateWorktree(at: setup.work, objectsOf: try setup.source.open())
    try remade.checkOut(first)
    #expect(try remade.headCommit() == first)
    #expect(try setup.outsideFiles() == Self.untouched)
  }

  @Test func touchedPathsAreEveryPathAndFolderParentsFirst() {
    #expect(
      CheckoutPaths.touched(tracked: ["a/b/c.txt", "z.txt"], target: ["a/b/c.txt", "a/d.txt"])
        == ["a", "z.txt", "a/b", "a/d.txt", "a/b/c.txt"])
  }
}

@Suite("what a failed fetch says")
struct FetchFailureTests {
  /// libgit2 1.5 reports a remote owned by another user as "config value 'safe.directory' was not found".
  @Test(.enabled(if: getuid() == 0, "chown needs root"))
  func aRemoteOwnedByAnotherUserIsNamedSo() throws {
    let source = try TestRepo()
    try source.write("a.txt", "a\n")
    try source.commit()
    let remote = try TestRepo(bare: true)
    try source.git("push", "-q", remote.path, "main")
    guard chownTree(remote.path, to: 65534) else {
      Issue.record("chown failed")
      return
    }
    let dir = try TestRepo.makeTempDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let mirror = try GitRepository.openOrCreateBare(at: dir + "/m.git")
    let error = #expect(throws: GitError.self) { try mirror.fetchBranches(from: remote.path, timeout: .seconds(30)) }
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains("is owned by another user (git's safe.directory)"), "\(text)")
    #expect(text.contains("git config --global --add safe.directory \(remote.path)"), "\(text)")
    #expect(!text.contains("was not found"), "\(text)")
  }

  /// The child's error comes with its own priority prefix and label; the daemon's log line adds its own.
  @Test func theFetchersOwnPrefixesAreDropped() {
    #expect(
      FetchFailure.childMessage("<3>rippled: error: could not fetch 'x': refused\n<3>second line\n")
        == "could not fetch 'x': refused\nsecond line")
    #expect(FetchFailure.childMessage("  plain\n") == "plain")
    #expect(FetchFailure.childMessage("<3>") == "")
  }

  private func chownTree(_ path: String, to owner: uid_t) -> Bool {
    guard let walker = FileManager.default.enumerator(atPath: path) else { return false }
    var ok = chown(path, owner, owner) == 0
    for case let relative as String in walker { ok = ok && lchown(path + "/" + relative, owner, owner) == 0 }
    return ok
  }
}
