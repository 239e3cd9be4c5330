import DaemonSources
import Foundation
import Git
import TestSupport
import Testing

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
