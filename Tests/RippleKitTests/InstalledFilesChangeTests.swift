import Assets
import Foundation
import RippleCore
import TestSupport
import Testing

@testable import RippleKit

/// Files `ripple bootstrap` installed into a folder git does not ignore are untracked, but not changes while
/// they hold the bytes the receipt records (docs/DESIGN.md, rule 1).
@Suite struct InstalledFilesChangeTests {
  /// Writes `files` (path under `Sources/Core/Resources` → contents) and a receipt of bootstrap's format recording
  /// `recorded` (path → contents whose size and sha256 it holds; default: the file's own contents).
  static func install(
    _ files: [String: String], recorded: [String: String] = [:], in repository: GitFixture
  ) throws {
    let destination = "Sources/Core/Resources"
    var managed: [[String: Any]] = []
    for (name, text) in files.sorted(by: { $0.key < $1.key }) {
      try repository.write(destination + "/" + name, text)
      let bytes = recorded[name] ?? text
      managed.append(["path": name, "size": bytes.utf8.count, "mtimeNanoseconds": 0, "sha256": try sha256(bytes)])
    }
    let receipt: [String: Any] = [
      "assetID": "words", "fingerprint": "f", "kind": "private", "destinations": [destination: managed],
    ]
    let path = repository.path(".build/ripple/receipts/words.json")
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: receipt).write(to: URL(fileURLWithPath: path))
  }

  @Test func installedFilesWithTheRecordedBytesAreNotChanges() throws {
    let repository = try WorkspaceTests.twoModulePackage()
    try Self.install(
      ["words.txt": "apple\n", "edited.txt": "mine now\n"], recorded: ["edited.txt": "as installed\n"], in: repository)
    try repository.write("Sources/Core/notes.txt", "a person's new file\n")

    let changeSet = try ChangeDetection.detect(ChangeRequest(base: "main"), directory: repository.root)
    #expect(
      changeSet.changes.map(\.path) == ["Sources/Core/Resources/edited.txt", "Sources/Core/notes.txt"],
      "an edited installed file and a person's file are changes")
    #expect(changeSet.installedByBootstrap == ["Sources/Core/Resources/words.txt"])
  }

  @Test func sameSizeOtherBytesIsAChange() throws {
    let repository = try WorkspaceTests.twoModulePackage()
    // The size matches the receipt, the sha256 does not: only the digest can tell.
    try Self.install(["words.txt": "apple\n"], recorded: ["words.txt": "APPLE\n"], in: repository)
    let changeSet = try ChangeDetection.detect(ChangeRequest(base: "main"), directory: repository.root)
    #expect(changeSet.changes.map(\.path) == ["Sources/Core/Resources/words.txt"])
    #expect(changeSet.installedByBootstrap.isEmpty)
  }

  @Test func affectedOnTheWorkingTreeIgnoresInstalledFiles() async throws {
    let repository = try WorkspaceTests.twoModulePackage()
    try Self.install(["words.txt": "apple\n"], in: repository)
    let cache = try TemporaryDirectory(prefix: "ripple-kit-cache")
    let workspace = try Workspace.open(
      directory: repository.root, services: WorkspaceTests.services(WorkspaceTests.toolchain().client, cache: cache))

    let untouched = try await workspace.affected(AffectedRequest(changes: ChangeRequest(base: "main")))
    #expect(untouched.report.changedFiles.isEmpty)
    #expect(untouched.report.testTargets.isEmpty)

    try repository.write("Sources/Core/Resources/words.txt", "apple, edited\n")
    let edited = try await workspace.affected(AffectedRequest(changes: ChangeRequest(base: "main")))
    #expect(edited.report.changedFiles.map(\.path) == ["Sources/Core/Resources/words.txt"])
    #expect(edited.report.testTargets.map(\.name) == ["CoreTests"])
  }

  /// The SHA-256 of `text`, as a receipt records it.
  static func sha256(_ text: String) throws -> String {
    String(try Command.run(["sh", "-c", "printf %s \"$0\" | sha256sum", text]).standardOutput.prefix(64))
  }

  @Test func anInstalledFileIsTrustedByItsStatUntilItChanges() throws {
    let repository = try WorkspaceTests.twoModulePackage()
    try Self.install(["words.txt": "apple\n"], recorded: ["words.txt": "pears\n"], in: repository)
    let file = repository.path("Sources/Core/Resources/words.txt")
    // A stat cache saying the file, at its stat now, holds the recorded bytes: a run believes it without reading.
    let recorded = try Self.sha256("pears\n")
    let planted = FileDigestCache(
      file: RepositoryState(repositoryRoot: repository.root).installedDigestsPath,
      format: ChangeDetection.installedDigestsFormat, now: { Int64.max / 2 }, hash: { _ in recorded })
    #expect(try planted.digest(of: file) == recorded)
    planted.save()
    let trusted = try ChangeDetection.detect(ChangeRequest(base: "main"), directory: repository.root)
    #expect(trusted.installedByBootstrap == ["Sources/Core/Resources/words.txt"], "read from the stat cache")

    // Another stat (here another size): the file is read, and its bytes are not the receipt's.
    try repository.write("Sources/Core/Resources/words.txt", "apple pie\n")
    let edited = try ChangeDetection.detect(ChangeRequest(base: "main"), directory: repository.root)
    #expect(edited.changes.map(\.path) == ["Sources/Core/Resources/words.txt"])
    #expect(edited.installedByBootstrap.isEmpty)
  }

  @Test func aDamagedStatCacheOfInstalledFilesIsNotTrusted() throws {
    let repository = try WorkspaceTests.twoModulePackage()
    try Self.install(["words.txt": "apple\n"], recorded: ["words.txt": "pears\n"], in: repository)
    let cache = RepositoryState(repositoryRoot: repository.root).installedDigestsPath
    let planted = FileDigestCache(
      file: cache, format: ChangeDetection.installedDigestsFormat, now: { Int64.max / 2 },
      hash: { _ in try Self.sha256("pears\n") })
    _ = try planted.digest(of: repository.path("Sources/Core/Resources/words.txt"))
    planted.save()
    let whole = try String(contentsOfFile: cache, encoding: .utf8)
    let whileWhole = try ChangeDetection.detect(ChangeRequest(base: "main"), directory: repository.root)
    #expect(whileWhole.installedByBootstrap == ["Sources/Core/Resources/words.txt"], "whole, it is believed")
    for damaged in [
      whole.replacingOccurrences(of: "ripple-installed-digests-1", with: "ripple-installed-digests-0"),
      String(whole.dropLast(20)),
      whole.replacingOccurrences(of: "\n6\t", with: "\n7\t"),
    ] {
      #expect(damaged != whole)
      try damaged.write(toFile: cache, atomically: true, encoding: .utf8)
      let changeSet = try ChangeDetection.detect(ChangeRequest(base: "main"), directory: repository.root)
      #expect(changeSet.changes.map(\.path) == ["Sources/Core/Resources/words.txt"], "the file itself was read")
    }
  }
}
