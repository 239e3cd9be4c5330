import Affected
import Foundation
import Git
import PackageModel
import PassRecords
import RippleCore
import TestSupport
import Testing

@testable import RippleKit

/// The disk side of keys (issue 47's bad inputs): pins as SwiftPM left them, untracked bytes hashed once and
/// trusted by stat, what cannot be read, submodules as checked out.
@Suite struct KeyInputsOnDiskTests {
  func disk(_ repo: GitFixture, digests: FileDigestCache = FileDigestCache(file: nil)) throws -> KeyInputsOnDisk {
    KeyInputsOnDisk(
      root: repo.root, repository: try GitRepository.discover(from: repo.root), digests: digests, ignore: [])
  }

  func initialRepository() throws -> GitFixture {
    let repo = try GitFixture()
    try repo.write("Package.swift", "// swift-tools-version:6.0\n")
    try repo.write("Sources/Core/Core.swift", "public let core = 1\n")
    try repo.write(".gitignore", "Sources/Core/Generated/\n")
    _ = try repo.commitAll("initial")
    return repo
  }

  @Test func pinsAreReadAsSwiftPMLeftThemAndEveryBadFileIsSaidNeverKeyed() throws {
    let repo = try initialRepository()
    let disk = try disk(repo)
    #expect(disk.pins(ofPackage: ".") == .missing)
    try repo.write(
      "Package.resolved",
      #"{"version":2,"pins":[{"identity":"swift-log","kind":"remoteSourceControl","location":"https://x/swift-log","#
        + #""state":{"revision":"abc","version":"1.0.1"}}]}"#)
    #expect(disk.pins(ofPackage: ".") == .pinned(["swift-log": "1.0.1@abc"]))
    try repo.write("Package.resolved", "{ not json")
    guard case .unusable(let corrupt) = disk.pins(ofPackage: ".") else { Issue.record("corrupt: keyed"); return }
    #expect(corrupt.contains("Package.resolved cannot be used"))
    try repo.write("Package.resolved", #"{"version":9,"pins":[]}"#)
    guard case .unusable(let newer) = disk.pins(ofPackage: ".") else { Issue.record("newer: keyed"); return }
    #expect(newer.contains("version 9 is not supported"), "\(newer)")
  }

  @Test func aLargeIgnoredFileIsHashedOnceThenTrustedByItsStat() throws {
    let repo = try initialRepository()
    let big = repo.path("Sources/Core/Generated/Big.bin")
    try FileManager.default.createDirectory(
      atPath: repo.path("Sources/Core/Generated"), withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: big, contents: nil))
    #expect(truncate(big, 1 << 30) == 0, "a sparse 1 GiB file")
    let store = try TemporaryDirectory()
    // Hashed "an hour later": the file is no longer racily clean.
    let later: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) + 3_600_000_000_000 }
    let first = FileDigestCache(file: store.child("digests.tsv"), now: later)
    let digest = try first.digest(of: big)
    #expect(first.hashed == 1)
    first.save()
    let second = FileDigestCache(file: store.child("digests.tsv"), now: later)
    #expect(try second.digest(of: big) == digest)
    #expect(second.hashed == 0, "the stat matched: not read again")
    // Another size is another file (a small one: hashing 1 GiB once is enough for the suite).
    let other = repo.path("Sources/Core/Generated/Other.bin")
    try Data("ab".utf8).write(to: URL(fileURLWithPath: other))
    let stampedOther = try second.digest(of: other)
    #expect(truncate(other, 3) == 0)
    #expect(try second.digest(of: other) != stampedOther)
    #expect(second.hashed == 2, "read again after its size changed")
    // Just written (now): hashed, not remembered.
    let small = repo.path("Sources/Core/Generated/Small.txt")
    try Data("x".utf8).write(to: URL(fileURLWithPath: small))
    let fresh = FileDigestCache(file: store.child("fresh.tsv"))
    _ = try fresh.digest(of: small)
    fresh.save()
    #expect(!FileManager.default.fileExists(atPath: store.child("fresh.tsv")))
  }

  @Test func ignoredFilesInAClosureFolderAreKeyedByContentAndAnUnreadableOneMakesItsTargetUnkeyable() throws {
    let repo = try initialRepository()
    try repo.write("Sources/Core/Generated/Words.swift", "let words = 1\n")
    let graph = PackageGraph(packages: [
      Package(
        path: ".", name: "App", packageFingerprint: "",
        targets: [Target(name: "Core", kind: .library, directory: "Sources/Core")])
    ])
    let core = TargetRef(package: ".", name: "Core")
    let (files, _) = try disk(repo).files()
    #expect(files["Sources/Core/Core.swift"]?.hasPrefix("100644:") == true)
    let (contents, unkeyable) = try disk(repo).folderContents(of: [core], in: graph, tracked: files)
    #expect(contents[core]?.entries.map(\.name) == ["Sources/Core/Generated/Words.swift"])
    #expect(unkeyable.isEmpty)
    // As root every file is readable: the read itself fails here.
    let failing = FileDigestCache(file: nil, hash: { _ in throw CocoaError(.fileReadNoPermission) })
    let (_, blocked) = try disk(repo, digests: failing).folderContents(of: [core], in: graph, tracked: files)
    #expect(blocked[core]?.first?.contains("Sources/Core/Generated/Words.swift cannot be read") == true)
  }

  @Test func anExecutableBitIsPartOfAFilesEntry() throws {
    let repo = try initialRepository()
    #expect(chmod(repo.path("Sources/Core/Core.swift"), 0o755) == 0)
    let (edited, _) = try disk(repo).files()
    #expect(edited["Sources/Core/Core.swift"]?.hasPrefix("100755:") == true)
    _ = try repo.commitAll("executable")
    let (committed, _) = try disk(repo).files()
    #expect(committed["Sources/Core/Core.swift"] == edited["Sources/Core/Core.swift"])
  }

  @Test func aSubmoduleIsKeyedAsCheckedOutAndOneNotCheckedOutOrEditedIsSaid() throws {
    let library = try GitFixture()
    try library.write("Lib.swift", "public let lib = 1\n")
    let first = try library.commitAll("lib")
    let repo = try initialRepository()
    _ = try repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", library.root, "Sources/Core/Vendor")
    _ = try repo.commitAll("vendor")
    let (files, unkeyable) = try disk(repo).files()
    #expect(files["Sources/Core/Vendor"] == "160000:" + first)
    #expect(unkeyable.isEmpty)

    try repo.write("Sources/Core/Vendor/Lib.swift", "public let lib = 2\n")
    let (_, dirty) = try disk(repo).files()
    #expect(dirty["Sources/Core/Vendor"]?.contains("has edits of its own") == true, "\(dirty)")

    // A clone that never checked the submodule out builds without its files: another key.
    let clone = try TemporaryDirectory()
    _ = try GitFixture.git(["clone", "-q", repo.root, clone.child("c")], in: clone.path)
    let cloned = GitFixture(existing: clone.child("c"))
    let (clonedFiles, _) = try disk(cloned).files()
    #expect(clonedFiles["Sources/Core/Vendor"] == "160000:" + first + " (not checked out)", "\(clonedFiles)")
  }

  /// One line per reason: a package without `Package.resolved` is said once, naming its targets.
  @Test func unkeyableTargetsAreSaidOncePerReason() {
    func unit(_ name: String, _ reason: String) -> KeyedUnit {
      KeyedUnit(package: ".", target: name, run: nil, inputs: KeyInputs(), blockers: [reason])
    }
    let warnings = Workspace.unkeyableWarnings([
      unit("A", "Package.resolved is missing"), unit("B", "Package.resolved is missing"),
      unit("C", "Package.resolved is missing"), unit("D", "Package.resolved is missing"),
      unit("E", "Sources/E/x links outside the repository"),
    ])
    #expect(
      warnings == [
        "4 test targets (.:A, .:B, .:C and 1 more) are not looked up and will not be recorded: Package.resolved is missing",
        ".:E is not looked up and will not be recorded: Sources/E/x links outside the repository",
      ])
  }
}
