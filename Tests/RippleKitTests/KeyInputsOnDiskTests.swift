import Affected
import Foundation
import Git
import PackageModel
import PassRecords
import RippleConfig
import RippleCore
import TestSupport
import Testing

@testable import RippleKit

/// The disk side of keys (issues 47 and 50): every file given to a closure target as the build reads it
/// (tracked or not, modes, blob ids through a stat cache), links, submodules as checked out, names that are
/// not UTF-8, the global and unowned files by tree digests, and pins as SwiftPM left them.
@Suite struct KeyInputsOnDiskTests {
  static let core = TargetRef(package: ".", name: "Core")
  static let graph = app([
    Target(name: "Core", kind: .library, directory: "Sources/Core"),
    Target(name: "Inner", kind: .library, directory: "Sources/Core/Inner"),
  ])

  /// A repository of one package, App, at its root, with `targets`.
  static func app(_ targets: [Target]) -> PackageGraph {
    PackageGraph(packages: [Package(path: ".", name: "App", packageFingerprint: "", targets: targets)])
  }

  /// "An hour later": no file is racily clean, so the stat cache keeps each.
  static let later: @Sendable () -> Int64 = {
    Int64(Date().timeIntervalSince1970 * 1_000_000_000) + 3_600_000_000_000
  }

  func disk(
    _ repo: GitFixture, graph: PackageGraph = Self.graph, cache: String? = nil,
    hash: @escaping @Sendable (String) throws -> String = GitBlobID.ofFile,
    now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) }
  ) throws -> KeyInputsOnDisk {
    KeyInputsOnDisk(
      root: repo.root, repository: try GitRepository.discover(from: repo.root), cacheFolder: cache,
      attribution: KeyAttribution(graph: graph, selection: SelectionConfig(), assets: AssetsConfig(), configPath: nil),
      hash: hash, now: now)
  }

  func files(_ repo: GitFixture, cache: String? = nil) throws -> [String: String] {
    let (files, unkeyable, _) = try disk(repo, cache: cache).targetFiles(of: [Self.core], in: Self.graph)
    #expect(unkeyable.isEmpty, "\(unkeyable)")
    return files[Self.core] ?? [:]
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
    #expect(truncate(big, 1 << 27) == 0, "a sparse 128 MiB file")
    let store = try TemporaryDirectory()
    // Hashed "an hour later": the file is no longer racily clean.
    let first = FileDigestCache(file: store.child("digests.tsv"), now: Self.later)
    let digest = try first.digest(of: big)
    #expect(first.hashed == 1)
    first.save()
    let second = FileDigestCache(file: store.child("digests.tsv"), now: Self.later)
    #expect(try second.digest(of: big) == digest)
    #expect(second.hashed == 0, "the stat matched: not read again")
    // Another size is another file (a small one: hashing 128 MiB once is enough for the suite).
    let other = repo.path("Sources/Core/Generated/Other.bin")
    try Data("ab".utf8).write(to: URL(fileURLWithPath: other))
    let stampedOther = try second.digest(of: other)
    #expect(truncate(other, 3) == 0)
    #expect(try second.digest(of: other) != stampedOther)
    #expect(second.hashed == 2, "read again after its size changed")
    // A name with a tab is kept too: the path is the line's last field, read whole.
    let tabbed = repo.path("Sources/Core/Generated/Tab\tName.txt")
    try Data("t".utf8).write(to: URL(fileURLWithPath: tabbed))
    let tabbedDigest = try second.digest(of: tabbed)
    second.save()
    let third = FileDigestCache(file: store.child("digests.tsv"), now: Self.later)
    #expect(try third.digest(of: tabbed) == tabbedDigest)
    #expect(try third.digest(of: big) == digest)
    #expect(third.hashed == 0, "both read back from the cache")
    // Just written (now): hashed, not remembered.
    let small = repo.path("Sources/Core/Generated/Small.txt")
    try Data("x".utf8).write(to: URL(fileURLWithPath: small))
    let fresh = FileDigestCache(file: store.child("fresh.tsv"))
    _ = try fresh.digest(of: small)
    fresh.save()
    #expect(!FileManager.default.fileExists(atPath: store.child("fresh.tsv")))
  }

  @Test func everyFileOfTheFolderIsKeyedAsGitWouldRecordItAndAnUnreadableOneMakesItsTargetUnkeyable() throws {
    let repo = try initialRepository()
    try repo.write("Sources/Core/Generated/Words.swift", "let words = 1\n")
    try repo.write("Sources/Core/Untracked.swift", "let x = 1\n")
    try repo.write("Sources/Core/Inner/Inner.swift", "let inner = 1\n")
    let found = try files(repo)
    // Tracked, ignored and untracked alike, by git's own blob ids; the nested target's folder is its own.
    #expect(
      found.keys.sorted() == [
        "Sources/Core/Core.swift", "Sources/Core/Generated/Words.swift", "Sources/Core/Untracked.swift",
      ])
    for (path, value) in found {
      #expect(value == "100644:" + (try repo.git("hash-object", path)).trimmingCharacters(in: .whitespacesAndNewlines))
    }
    // As root every file is readable: the read itself fails here.
    let (_, blocked, _) = try disk(repo, hash: { _ in throw CocoaError(.fileReadNoPermission) })
      .targetFiles(of: [Self.core], in: Self.graph)
    #expect(blocked[Self.core]?.first?.contains("Sources/Core/Core.swift cannot be read") == true, "\(blocked)")
  }

  @Test func anExecutableBitIsPartOfAFilesEntryAsGitRecordsIt() throws {
    let repo = try initialRepository()
    #expect(chmod(repo.path("Sources/Core/Core.swift"), 0o755) == 0)
    let edited = try files(repo)
    #expect(edited["Sources/Core/Core.swift"]?.hasPrefix("100755:") == true)
    _ = try repo.commitAll("executable")
    let listed = try repo.git("ls-tree", "HEAD", "Sources/Core/Core.swift").split(separator: "\t")[0]
      .split(separator: " ")
    #expect(edited["Sources/Core/Core.swift"] == "\(listed[0]):\(listed[2])")
  }

  @Test func aSubmoduleIsKeyedAsCheckedOutAndAnEditedOneIsSaid() throws {
    let library = try GitFixture()
    try library.write("Lib.swift", "public let lib = 1\n")
    let first = try library.commitAll("lib")
    let repo = try initialRepository()
    _ = try repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", library.root, "Sources/Core/Vendor")
    _ = try repo.commitAll("vendor")
    #expect(try files(repo)["Sources/Core/Vendor"] == "160000:" + first)

    try repo.write("Sources/Core/Vendor/Lib.swift", "public let lib = 2\n")
    let (_, dirty, _) = try disk(repo).targetFiles(of: [Self.core], in: Self.graph)
    #expect(dirty[Self.core]?.first?.contains("has edits of its own") == true, "\(dirty)")

    // A clone that never checked the submodule out builds without its files: nothing of it is keyed.
    let clone = try TemporaryDirectory()
    _ = try GitFixture.git(["clone", "-q", repo.root, clone.child("c")], in: clone.path)
    let cloned = GitFixture(existing: clone.child("c"))
    #expect(try files(cloned)["Sources/Core/Vendor"] == nil)
    #expect(try files(cloned).keys.sorted() == ["Sources/Core/Core.swift"])
  }

  @Test func aTargetFolderThatIsALinkIsFollowedInsideTheRepositoryAndRefusedOutside() throws {
    let repo = try initialRepository()
    try repo.write("Shared/Core/Core.swift", "public let core = 2\n")
    try repo.remove("Sources/Core")
    try repo.symlink("Sources/Core", to: "../Shared/Core")
    let found = try files(repo)
    #expect(found["Sources/Core"]?.hasPrefix("120000:") == true)
    let before = found["Sources/Core/Core.swift"]
    #expect(before != nil)
    // What the link leads to is what the build compiles: its edits are seen.
    try repo.write("Shared/Core/Core.swift", "public let core = 3\n")
    #expect(try files(repo)["Sources/Core/Core.swift"] != before)

    let outside = try TemporaryDirectory()
    try repo.remove("Sources/Core")
    try repo.symlink("Sources/Core", to: outside.path)
    let (_, unkeyable, _) = try disk(repo).targetFiles(of: [Self.core], in: Self.graph)
    #expect(unkeyable[Self.core]?.first?.contains("links outside the repository") == true, "\(unkeyable)")
  }

  @Test func aNameThatIsNotUTF8MakesItsTargetUnkeyable() throws {
    let repo = try initialRepository()
    let name = Array(repo.path("Sources/Core/").utf8) + [0x66, 0xFF] + Array(".bin".utf8) + [0]
    let descriptor = name.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
    }
    #expect(descriptor >= 0)
    close(descriptor)
    let (_, unkeyable, _) = try disk(repo).targetFiles(of: [Self.core], in: Self.graph)
    #expect(unkeyable[Self.core] == ["Sources/Core holds 1 name(s) that are not UTF-8: their content is not keyed"])
  }

  @Test func tenThousandUntrackedFilesAreHashedOnceThenTrustedByTheirStat() throws {
    let repo = try initialRepository()
    let folder = repo.path("Sources/Core/Data")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for index in 0..<10_000 {
      let descriptor = open(folder + "/\(index).json", O_CREAT | O_WRONLY, 0o644)
      _ = "\(index)".withCString { write(descriptor, $0, strlen($0)) }
      close(descriptor)
    }
    let cache = try TemporaryDirectory()
    let counter = Counter()
    let counting: @Sendable (String) throws -> String = { path in
      counter.add()
      return try GitBlobID.ofFile(path)
    }
    // Hashed "an hour later": no file is racily clean, so the stat cache keeps each.
    let first = try disk(repo, cache: cache.path, hash: counting, now: Self.later).targetFiles(
      of: [Self.core], in: Self.graph)
    #expect(first.files[Self.core]?.count == 10_001)
    let hashedFirst = counter.value
    #expect(hashedFirst >= 10_000)
    let second = try disk(repo, cache: cache.path, hash: counting, now: Self.later).targetFiles(
      of: [Self.core], in: Self.graph)
    #expect(second.files == first.files)
    #expect(counter.value == hashedFirst, "every stat matched: nothing read again")
  }

  @Test func aCacheOfTreeDigestsThatIsCorruptTruncatedOrFromAnotherVersionIsNotUsed() throws {
    let repo = try initialRepository()
    try repo.write("scripts/a.json", "1\n")
    try repo.write("scripts/deep/b.json", "2\n")
    _ = try repo.commitAll("unowned")
    let cache = try TemporaryDirectory()
    let fresh = try disk(repo).everyone(edited: [])
    #expect(try disk(repo, cache: cache.path).everyone(edited: []) == fresh)
    let folder = cache.child("tree-digests")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    // The digests of every folder, and apart, of whole trees: both are read only whole.
    #expect(names.filter { $0.hasSuffix(".roots") }.count == 1, "\(names)")
    for roots in names where roots.hasSuffix(".roots") {
      try FileManager.default.removeItem(atPath: folder + "/" + roots)
    }
    let file = folder + "/" + (names.first { $0.hasSuffix(".tsv") } ?? "")
    let written = try Data(contentsOf: URL(fileURLWithPath: file))
    #expect(CheckedCacheFile.lines(file, format: TreeDigestCache.format) != nil)
    let text = String(decoding: written, as: UTF8.self)
    let damaged = [
      "truncated": Data(written.prefix(written.count - 10)),
      "another version": Data(
        text.replacingOccurrences(of: TreeDigestCache.format, with: "ripple-tree-digests-0").utf8),
      "a digest changed": Data(text.replacingOccurrences(of: "\t", with: "\tx").utf8),
      "garbage": Data([0xFF, 0x00, 0x0A, 0x41]),
      "empty": Data(),
    ]
    for (what, data) in damaged {
      try data.write(to: URL(fileURLWithPath: file))
      for roots in try FileManager.default.contentsOfDirectory(atPath: folder) where roots.hasSuffix(".roots") {
        try data.write(to: URL(fileURLWithPath: folder + "/" + roots))
      }
      #expect(CheckedCacheFile.lines(file, format: TreeDigestCache.format) == nil, "\(what)")
      #expect(try disk(repo, cache: cache.path).everyone(edited: []) == fresh, "\(what)")
      #expect(CheckedCacheFile.lines(file, format: TreeDigestCache.format) != nil, "\(what): rewritten")
    }
    // A folder in the file's place is no cache either.
    try FileManager.default.removeItem(atPath: file)
    try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
    #expect(CheckedCacheFile.lines(file, format: TreeDigestCache.format) == nil)
  }

  @Test func aStatCacheOfBlobIDsThatIsDamagedIsNotTrusted() throws {
    let repo = try initialRepository()
    let cache = try TemporaryDirectory()
    let truth = try files(repo)
    _ = try disk(repo, cache: cache.path, now: Self.later).targetFiles(of: [Self.core], in: Self.graph)
    let folder = cache.child("blob-ids")
    let file = folder + "/" + (try FileManager.default.contentsOfDirectory(atPath: folder).first ?? "")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    // A planted id for Core.swift, its stat kept: with the header's checksum stale, the file is not read.
    let id = truth["Sources/Core/Core.swift"]!.split(separator: ":")[1]
    try text.replacingOccurrences(of: String(id), with: String(repeating: "0", count: 40))
      .write(toFile: file, atomically: true, encoding: .utf8)
    let counter = Counter()
    let counting: @Sendable (String) throws -> String = { path in
      counter.add()
      return try GitBlobID.ofFile(path)
    }
    let again = try disk(repo, cache: cache.path, hash: counting, now: Self.later)
      .targetFiles(of: [Self.core], in: Self.graph)
    #expect(again.files[Self.core] == truth)
    #expect(counter.value == 1, "hashed again, not taken from the damaged file")
    // Whole and checksummed, but another version's, or with a section head that is not one: not read either.
    let section = PackageStatCache(file: file).sections["Core"]
    let stamps = section?.lines.map { String(decoding: $0, as: UTF8.self) } ?? []
    #expect(stamps.count == 1)
    let bad: [(String, String, [String])] = [
      ("another version", "ripple-file-digests-1", ["T\tCore\t-\t1"] + stamps),
      ("a head with no digest", PackageStatCache.format, ["T\tCore\tnot-a-digest\t1"] + stamps),
      ("a head with no count", PackageStatCache.format, ["T\tCore\t-"] + stamps),
    ]
    for (what, format, lines) in bad {
      CheckedCacheFile.write(file, format: format, lines: lines)
      let before = counter.value
      let read = try disk(repo, cache: cache.path, hash: counting, now: Self.later)
        .targetFiles(of: [Self.core], in: Self.graph)
      #expect(read.files[Self.core] == truth, "\(what)")
      #expect(read.digests[Self.core] == FolderDigest.of(truth), "\(what)")
      #expect(counter.value == before + 1, "\(what): hashed again")
    }
  }

  @Test func eachPackageOfEachCheckoutHasOneStatCacheWithASectionPerTargetHoldingOnlyWhatItsWalkFound() throws {
    let repo = try initialRepository()
    let inner = TargetRef(package: ".", name: "Inner")
    try repo.write("Sources/Core/Inner/Inner.swift", "let inner = 1\n")
    try repo.write("Sources/Core/Old.swift", "let old = 1\n")
    let cache = try TemporaryDirectory()
    _ = try disk(repo, cache: cache.path, now: Self.later).targetFiles(of: [Self.core, inner], in: Self.graph)
    let folder = cache.child("blob-ids")
    func cacheFiles() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }
    #expect(try cacheFiles().count == 1, "one per package")
    func sections() throws -> [String: String] {
      let file = folder + "/" + (try cacheFiles().first ?? "")
      let cache = PackageStatCache(file: file)
      return cache.sections.mapValues { $0.lines.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined() }
    }
    #expect(try sections().keys.sorted() == ["Core", "Inner"])
    #expect(try sections()["Core"]?.contains("/Sources/Core/Old.swift\n") == true)
    #expect(try sections()["Inner"]?.contains("/Inner/Inner.swift\n") == true)
    // Old.swift goes and a new file comes: Core's section is written again without the file its walk no longer
    // found; Inner, not walked, keeps its own.
    try FileManager.default.removeItem(atPath: repo.path("Sources/Core/Old.swift"))
    try repo.write("Sources/Core/New.swift", "let new = 1\n")
    _ = try disk(repo, cache: cache.path, now: Self.later).targetFiles(of: [Self.core], in: Self.graph)
    #expect(try sections()["Core"]?.contains("/Sources/Core/Old.swift\n") == false)
    #expect(try sections()["Core"]?.contains("/Sources/Core/New.swift\n") == true)
    #expect(try sections()["Inner"]?.contains("/Inner/Inner.swift\n") == true)
    // A target the package no longer has loses its section when the package's file is next written.
    let coreOnly = Self.app([Target(name: "Core", kind: .library, directory: "Sources/Core")])
    _ = try disk(repo, graph: coreOnly, cache: cache.path, now: Self.later).targetFiles(of: [Self.core], in: coreOnly)
    #expect(try sections().keys.sorted() == ["Core"])
    #expect(try sections()["Core"]?.contains("/Inner/Inner.swift\n") == true, "Core's walk now enters Inner")
    // Another checkout of the same repository keeps stamps of its own.
    let clone = try initialRepository()
    _ = try disk(clone, cache: cache.path, now: Self.later).targetFiles(of: [Self.core], in: Self.graph)
    #expect(try cacheFiles().count == 2)
  }

  /// Plants `digest` as Core's saved files digest (its stamps kept, the file's checksum made again): what a walk
  /// that takes the saved digest gives back, where a walk that makes it gives the files' own.
  func plant(_ digest: String, in cache: String) throws {
    let folder = cache + "/blob-ids"
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      let file = PackageStatCache(file: folder + "/" + name)
      guard let section = file.sections["Core"] else { continue }
      file.save(
        replacing: [
          "Core": PackageStatCache.Written(
            summary: PackageStatCache.Summary(digest: digest, count: section.summary?.count ?? 0),
            lines: section.lines.map { String(decoding: $0, as: UTF8.self) })
        ], keeping: Set(file.sections.keys))
    }
  }

  /// Core's files and their digest as its walk gives them, an hour later.
  func walkCore(
    _ repo: GitFixture, cache: String, selection: SelectionConfig = SelectionConfig(), graph: PackageGraph = Self.graph
  ) throws -> (files: [String: String], digest: String?) {
    let disk = KeyInputsOnDisk(
      root: repo.root, repository: try GitRepository.discover(from: repo.root), cacheFolder: cache,
      attribution: KeyAttribution(graph: graph, selection: selection, assets: AssetsConfig(), configPath: nil),
      now: Self.later)
    let walked = disk.targetFiles(of: [Self.core], in: graph)
    return (walked.files[Self.core] ?? [:], walked.digests[Self.core])
  }

  @Test func aWalkWhoseFilesAreNotItsStatCachesFilesSavesNoDigest() throws {
    let repo = try initialRepository()
    try repo.write("Sources/Core/Notes.md", "notes\n")
    try repo.write("Sources/Core/Racy.swift", "let racy = 1\n")
    // Changed after the walk's "now": hashed, never remembered (git's racily clean file).
    let future = timespec(tv_sec: Int(Date().timeIntervalSince1970) + 7200, tv_nsec: 0)
    var times = [future, future]
    #expect(utimensat(AT_FDCWD, repo.path("Sources/Core/Racy.swift"), &times, 0) == 0)
    let cache = try TemporaryDirectory()
    // Notes.md is stamped but kept out, Racy.swift counted but not stamped: as many files counted as stamps kept,
    // but not the same files.
    let first = try walkCore(repo, cache: cache.path, selection: SelectionConfig(ignore: [Glob("**/*.md")]))
    #expect(first.files.keys.sorted() == ["Sources/Core/Core.swift", "Sources/Core/Racy.swift"])
    // Racy.swift goes, and Notes.md counts again: every stamp is as saved, and as many files are found.
    try FileManager.default.removeItem(atPath: repo.path("Sources/Core/Racy.swift"))
    let second = try walkCore(repo, cache: cache.path)
    #expect(second.files.keys.sorted() == ["Sources/Core/Core.swift", "Sources/Core/Notes.md"])
    #expect(second.digest == FolderDigest.of(second.files), "the first walk's digest was taken")
  }

  @Test func aWalkThatFindsEveryFileAsBeforeTakesItsSavedDigestAndAnyDifferenceMakesItAgain() throws {
    let repo = try initialRepository()
    try repo.write("Sources/Core/Notes.md", "notes\n")
    try repo.write("Sources/Core/Deep/Deep.swift", "let deep = 1\n")
    let cache = try TemporaryDirectory()
    func walk(_ selection: SelectionConfig = SelectionConfig(), graph: PackageGraph = Self.graph) throws -> (
      files: [String: String], digest: String?
    ) {
      try walkCore(repo, cache: cache.path, selection: selection, graph: graph)
    }
    let first = try walk()
    #expect(first.digest != nil)
    #expect(first.digest == FolderDigest.of(first.files), "made from the files the walk found")
    let planted = String(repeating: "f", count: 64)
    try plant(planted, in: cache.path)
    #expect(try walk().digest == planted, "every file as its section has it: the saved digest is taken")
    // Each difference below makes the digest again from the files found, whatever the section says.
    let changes: [(String, () throws -> Void)] = [
      ("an edit of the same size", { try repo.write("Sources/Core/Core.swift", "public let core = 2\n") }),
      ("an untracked file", { try repo.write("Sources/Core/Deep/Added.swift", "let added = 1\n") }),
      ("a file removed", { try FileManager.default.removeItem(atPath: repo.path("Sources/Core/Deep/Added.swift")) }),
      ("an executable bit", { _ = chmod(repo.path("Sources/Core/Core.swift"), 0o755) }),
      (
        "a link",
        {
          try FileManager.default.createSymbolicLink(
            atPath: repo.path("Sources/Core/Link.swift"), withDestinationPath: "Core.swift")
        }
      ),
    ]
    for (what, change) in changes {
      _ = try walk()
      try plant(planted, in: cache.path)
      try change()
      let again = try walk()
      #expect(again.digest != planted, "\(what): the saved digest was taken")
      #expect(again.digest == FolderDigest.of(again.files), "\(what)")
    }
    // A walk that finds a link always makes its digest: the section holds no link.
    try plant(planted, in: cache.path)
    #expect(try walk().digest != planted, "a link in the folder")
    try FileManager.default.removeItem(atPath: repo.path("Sources/Core/Link.swift"))
    // A rule that keeps a file the walk finds out of the key, with every stat as before.
    _ = try walk()
    try plant(planted, in: cache.path)
    let ignored = try walk(SelectionConfig(ignore: [Glob("**/*.md")]))
    #expect(ignored.files["Sources/Core/Notes.md"] == nil)
    #expect(ignored.digest == FolderDigest.of(ignored.files), "a file no longer counted")
    // A target that now begins inside the folder: the walk no longer enters it, every other stat as before.
    _ = try walk()
    try plant(planted, in: cache.path)
    let nested = Self.app([
      Target(name: "Core", kind: .library, directory: "Sources/Core"),
      Target(name: "Deep", kind: .library, directory: "Sources/Core/Deep"),
    ])
    let cut = try walk(graph: nested)
    #expect(cut.files["Sources/Core/Deep/Deep.swift"] == nil)
    #expect(cut.digest == FolderDigest.of(cut.files), "a folder no longer walked")
  }

  @Test func aTreeMissingFromTheRepositoryIsSaidNotGuessed() throws {
    let repo = try initialRepository()
    try repo.write("scripts/a.json", "1\n")
    _ = try repo.commitAll("unowned")
    let tree = try repo.git("rev-parse", "HEAD:scripts").trimmingCharacters(in: .whitespacesAndNewlines)
    try FileManager.default.removeItem(
      atPath: repo.path(".git/objects/\(tree.prefix(2))/\(tree.dropFirst(2))"))
    #expect(throws: (any Error).self) { try disk(repo).everyone(edited: []) }
  }

  @Test func editsOfUnownedFilesTheRunFoundAreKeyedBesideHEADsDigest() throws {
    let repo = try initialRepository()
    try repo.write("scripts/a.json", "1\n")
    _ = try repo.commitAll("unowned")
    let clean = try disk(repo).everyone(edited: [])
    #expect(clean.entries.map(\.kind) == ["everyone"])
    try repo.write("scripts/a.json", "2\n")
    let edited = try disk(repo).everyone(edited: ["scripts/a.json", "Sources/Core/Core.swift"])
    #expect(edited.entries.map(\.kind) == ["everyone", "everyone-edit"])
    #expect(edited.key != clean.key)
    try repo.remove("scripts/a.json")
    let deleted = try disk(repo).everyone(edited: ["scripts/a.json"])
    #expect(deleted.entries.last?.value == "unowned (deleted)")
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

/// A thread-safe count, for hash closures.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
