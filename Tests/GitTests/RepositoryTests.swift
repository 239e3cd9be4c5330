import Foundation
import Git
import RippleCore
import TestSupport
import Testing

@Suite("opening, revisions, default branch, trees and blobs")
struct RepositoryTests {
  @Test func discoverFromSubdirectory() throws {
    let repo = try TestRepo()
    try repo.write("Sources/Deep/Inner/file.txt", "x\n")
    try repo.commit()
    let git = try GitRepository.discover(from: repo.url("Sources/Deep/Inner").path)
    #expect(git.workdir == repo.path)
    #expect(git.gitDirectory == repo.path + "/.git")
    #expect(!git.isBare)
    #expect(!git.isShallow)
    #expect(try git.headCommit() == repo.head())
  }

  @Test func linkedWorktree() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    let base = try repo.commit()
    let dir = try TempDirectory()
    try repo.git("worktree", "add", "-q", "-b", "feature", dir.child("wt"))
    let worktree = TestRepo(existing: dir.child("wt"))
    try worktree.write("Sub/b.txt", "b\n")

    let git = try GitRepository.discover(from: dir.child("wt"))
    #expect(git.workdir == dir.child("wt"))
    #expect(git.gitDirectory == repo.path + "/.git/worktrees/wt")
    #expect(try git.changesToWorkingTree(from: base) == [ChangedFile(path: "Sub/b.txt", status: .added)])
    #expect(try git.workingTreeFiles() == ["Sub/b.txt", "a.txt"])
    #expect(try git.defaultBranch().name == "main")
  }

  @Test func bareRepository() throws {
    let source = try TestRepo()
    try source.write("a.txt", "a\n")
    let head = try source.commit()
    let dir = try TempDirectory()
    try TestRepo.git(["clone", "-q", "--bare", source.path, dir.child("bare.git")], in: dir.path)

    let git = try GitRepository.discover(from: dir.child("bare.git"))
    #expect(git.isBare)
    #expect(git.workdir == nil)
    #expect(git.gitDirectory == dir.child("bare.git"))
    #expect(try git.headCommit() == head)
    #expect(try git.files(at: head) == ["a.txt"])
    for error in [gitError { try git.changesToWorkingTree(from: head) }, gitError { try git.workingTreeFiles() }] {
      guard case .bareRepository = error else {
        Issue.record("expected bareRepository, got \(String(describing: error))")
        continue
      }
      #expect(error?.category == .usage)
      #expect(error?.description.contains("bare") == true)
    }
  }

  @Test func notARepository() throws {
    let dir = try TempDirectory()
    let error = gitError { try GitRepository.discover(from: dir.path) }
    guard case .notARepository = error else { Issue.record("got \(String(describing: error))"); return }
    #expect(error?.category == .environment)
    #expect(error?.category.exitCode == 3)
    #expect(error?.description.contains(dir.path) == true)

    let missing = gitError { try GitRepository.discover(from: dir.child("does-not-exist")) }
    #expect(missing?.category == .environment)
    #expect(missing?.description.contains("does-not-exist") == true)
  }

  @Test func repositoryOwnedByAnotherUser() throws {
    guard geteuid() == 0 else {
      // Only root can hand a directory to another user; elsewhere this path cannot be set up.
      #if compiler(>=6.3)
        try Test.cancel("needs root to chown the repository to another user")
      #else
        return
      #endif
    }
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    try repo.commit()
    try FileManager.default.createDirectory(at: repo.url("sub"), withIntermediateDirectories: true)
    // A machine-wide `safe.directory = *` turns the protection off: then there is nothing to test.
    let trusted = (try? TestRepo.git(["config", "--get-all", "safe.directory"], in: repo.path)) ?? ""
    if trusted.split(separator: "\n").contains("*") {
      #if compiler(>=6.3)
        try Test.cancel("safe.directory = * is configured on this machine: ownership is not checked")
      #else
        return
      #endif
    }
    let chown = Process()
    chown.executableURL = URL(fileURLWithPath: "/bin/chown")
    chown.arguments = ["-R", "12345:12345", repo.path]
    try chown.run()
    chown.waitUntilExit()
    try #require(chown.terminationStatus == 0)

    let error = gitError { try GitRepository.discover(from: repo.url("sub").path) }
    guard case .notOwnedByCurrentUser(let path) = error else {
      Issue.record("expected notOwnedByCurrentUser, got \(String(describing: error))")
      return
    }
    #expect(path == repo.path)
    #expect(error?.category == .environment)
    #expect(error?.description.contains("git config --global --add safe.directory \(repo.path)") == true)
  }

  @Test func resolveRevisions() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "1\n")
    let first = try repo.commit()
    try repo.git("tag", "-a", "v1.0", "-m", "annotated")
    try repo.git("tag", "light")
    try repo.write("a.txt", "2\n")
    let second = try repo.commit()
    try repo.git("branch", "side", first.hex)

    let git = try repo.open()
    #expect(try git.resolveCommit("HEAD") == second)
    #expect(try git.resolveCommit("HEAD~1") == first)
    #expect(try git.resolveCommit(String(first.hex.prefix(8))) == first)
    #expect(try git.resolveCommit(first.short) == first)
    #expect(try git.resolveCommit("v1.0") == first)  // annotated: peeled through the tag object
    #expect(try git.resolveCommit("light") == first)
    #expect(try git.resolveCommit("side") == first)
    #expect(try git.resolveCommit(second.hex) == second)
    #expect(try git.headCommit() == second)
  }

  @Test func unknownRevisionIsAUsageError() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "1\n")
    try repo.commit()
    let git = try repo.open()
    for spec in ["origin/no-such-branch", "HEAD~5", "deadbeefdeadbeef", ""] {
      let error = gitError { try git.resolveCommit(spec) }
      guard case .unknownRevision(let named, _, let shallow) = error else {
        Issue.record("\(spec): got \(String(describing: error))")
        continue
      }
      #expect(named == spec)
      #expect(!shallow)
      #expect(error?.category == .usage)
      #expect(error?.category.exitCode == 2)
      #expect(error?.description.contains("'\(spec)'") == true)
      #expect(error?.description.contains("git fetch") == true)
    }
    let tree = gitError { try git.resolveCommit("HEAD^{tree}") }
    #expect(tree == .notACommit(spec: "HEAD^{tree}"))
    #expect(tree?.category == .usage)
  }

  @Test func emptyRepositoryHasNoHead() throws {
    let repo = try TestRepo()
    let error = gitError { try repo.open().headCommit() }
    #expect(error == .emptyRepository(path: repo.path))
  }

  @Test func unrelatedHistoriesHaveNoMergeBase() throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    let main = try repo.commit()
    try repo.git("checkout", "-q", "--orphan", "other")
    try repo.write("b.txt", "b\n")
    let other = try repo.commit()
    let error = gitError { try repo.open().mergeBase(main, other) }
    #expect(error == .noCommonAncestor(main, other))
    #expect(error?.description.contains("no common ancestor") == true)

    let unknown = ObjectID(hex: String(repeating: "ab", count: 20))
    #expect(gitError { try repo.open().mergeBase(main, unknown) } == .missingCommit(unknown))
    #expect(gitError { try repo.open().changes(from: unknown, to: main) } == .missingCommit(unknown))
  }

  @Test func shallowCloneExplainsHowToFetchHistory() throws {
    let origin = try TestRepo()
    try origin.write("a.txt", "1\n")
    try origin.commit()
    try origin.write("a.txt", "2\n")
    try origin.commit()
    try origin.git("checkout", "-q", "-b", "side", "HEAD~1")
    try origin.write("side.txt", "side\n")
    let side = try origin.commit()
    try origin.git("checkout", "-q", "main")
    try origin.write("a.txt", "3\n")
    try origin.commit()

    let dir = try TempDirectory()
    try TestRepo.git(
      ["clone", "-q", "--depth", "1", "--no-single-branch", "file://" + origin.path, dir.child("clone")], in: dir.path)
    let clone = TestRepo(existing: dir.child("clone"))
    let git = try clone.open()
    #expect(git.isShallow)
    let head = try git.headCommit()
    let sideTip = try git.resolveCommit("origin/side")
    #expect(sideTip == side)

    let error = gitError { try git.mergeBase(head, sideTip) }
    #expect(error == .shallowMergeBase(head, sideTip))
    #expect(error?.category == .environment)
    let text = error?.description ?? ""
    #expect(text.contains("shallow"))
    #expect(text.contains("merge-base of \(head.short) and \(sideTip.short)"))
    #expect(text.contains("git fetch --unshallow"))
    #expect(text.contains("--deepen"))
    #expect(text.contains("fetch-depth: 0"))

    // Revisions beyond the cut are unknown, with the shallow hint.
    let beyond = gitError { try git.resolveCommit("HEAD~1") }
    guard case .unknownRevision(_, _, let shallow) = beyond else {
      Issue.record("got \(String(describing: beyond))")
      return
    }
    #expect(shallow)
    #expect(beyond?.description.contains("--unshallow") == true)

    let missing = ObjectID(hex: String(repeating: "cd", count: 20))
    #expect(gitError { try git.changes(from: missing, to: head) } == .shallowMissingCommit(missing))
  }

  @Test func defaultBranchFromOriginHead() throws {
    let origin = try TestRepo(branch: "trunk", bare: true)
    let seed = try TestRepo(branch: "trunk")
    try seed.write("a.txt", "a\n")
    let tip = try seed.commit()
    try seed.git("push", "-q", origin.path, "trunk")
    let dir = try TempDirectory()
    try TestRepo.git(["clone", "-q", origin.path, dir.child("clone")], in: dir.path)
    let clone = TestRepo(existing: dir.child("clone"))
    try clone.git("checkout", "-q", "-b", "feature")

    let branch = try clone.open().defaultBranch()
    #expect(branch.name == "origin/trunk")
    #expect(branch.commit == tip)
  }

  @Test func defaultBranchFallsBackToMainThenMaster() throws {
    let main = try TestRepo(branch: "main")
    let mainTip = try main.commit()
    try main.git("checkout", "-q", "-b", "feature")
    try main.commit()
    let onMain = try main.open().defaultBranch()
    #expect(onMain.name == "main")
    #expect(onMain.commit == mainTip)

    let master = try TestRepo(branch: "master")
    let masterTip = try master.commit()
    try master.git("checkout", "-q", "-b", "feature")
    let onMaster = try master.open().defaultBranch()
    #expect(onMaster.name == "master")
    #expect(onMaster.commit == masterTip)

    let neither = try TestRepo(branch: "trunk")
    try neither.commit()
    let error = gitError { try neither.open().defaultBranch() }
    #expect(error == .noDefaultBranch)
    #expect(error?.category == .usage)
  }

  @Test func filesAtCommitAndInTheWorkingTree() throws {
    let repo = try TestRepo()
    try repo.write(".gitignore", "*.log\n")
    try repo.write("Sources/A/a.swift", "a\n")
    try repo.write("Sources/B/b.swift", "b\n")
    try repo.write("z.txt", "z\n")
    try FileManager.default.createSymbolicLink(atPath: repo.url("link").path, withDestinationPath: "z.txt")
    let head = try repo.commit()
    #expect(
      try repo.open().files(at: head) == [".gitignore", "Sources/A/a.swift", "Sources/B/b.swift", "link", "z.txt"])

    try repo.remove("z.txt")  // deleted, not staged
    try repo.write("Sources/New/Deep/n.swift", "n\n")  // untracked, in new folders
    try repo.write("debug.log", "ignored\n")
    try repo.write("staged.txt", "s\n")
    try repo.git("add", "staged.txt")
    #expect(
      try repo.open().workingTreeFiles() == [
        ".gitignore", "Sources/A/a.swift", "Sources/B/b.swift", "Sources/New/Deep/n.swift", "link", "staged.txt",
      ])
    // The commit's tree is unchanged by the working tree.
    #expect(try repo.open().files(at: head).contains("z.txt"))
  }

  @Test func blobs() throws {
    let repo = try TestRepo()
    try repo.write("Package.swift", "// swift-tools-version:6.0\n")
    try repo.write("Sources/A/a.swift", "")
    let first = try repo.commit()
    try repo.write("Package.swift", "// swift-tools-version:6.1\n")
    let second = try repo.commit()

    let git = try repo.open()
    #expect(try git.blob(at: first, path: "Package.swift") == Array("// swift-tools-version:6.0\n".utf8))
    #expect(try git.blob(at: second, path: "Package.swift") == Array("// swift-tools-version:6.1\n".utf8))
    #expect(try git.blob(at: first, path: "Sources/A/a.swift") == [])
    #expect(try git.blob(at: first, path: "Missing.swift") == nil)
    #expect(try git.blob(at: first, path: "Sources/Missing/x.swift") == nil)
    #expect(try git.blob(at: first, path: "Sources/A") == nil)  // a directory is not a file
  }

  @Test func objectIDValue() throws {
    let id = ObjectID(hex: "0123456789ABCDEF0123456789abcdef01234567")
    #expect(id.hex == "0123456789abcdef0123456789abcdef01234567")
    #expect(id.short == "0123456789ab")
    #expect(id.description == id.hex)
    let json = try JSONEncoder().encode(["base": id])
    #expect(String(decoding: json, as: UTF8.self) == #"{"base":"0123456789abcdef0123456789abcdef01234567"}"#)
    #expect(try JSONDecoder().decode([String: ObjectID].self, from: json)["base"] == id)
  }

  @Test func oneRepositorySharedAcrossTasks() async throws {
    let repo = try TestRepo()
    try repo.write("a.txt", "a\n")
    let base = try repo.commit()
    try repo.write("b.txt", "b\n")
    let head = try repo.commit()
    let git = try repo.open()
    let results = try await withThrowingTaskGroup(of: [ChangedFile].self) { group in
      for _ in 0..<16 { group.addTask { try git.changes(from: base, to: head) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 16)
    #expect(results.allSatisfy { $0 == [ChangedFile(path: "b.txt", status: .added)] })
  }
}
