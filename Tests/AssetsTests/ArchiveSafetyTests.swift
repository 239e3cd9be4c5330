import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import Testing

/// Each unsafe archive fails with a clear error and leaves the destination exactly as it was.
@Suite("bootstrap refuses unsafe archives")
struct ArchiveSafetyTests {
  /// Installs `data` as asset `a` into a destination holding a user file; expects an error and an
  /// untouched destination (and no staging left behind).
  private func expectRefused(
    _ format: ArchiveFormat, _ entries: [[String]], spec: ArchiveSpec? = nil
  ) async throws -> AssetsError {
    let repo = try TestRepository()
    try repo.write("Sources/App/Resources/user.txt", "mine")
    let data = try makeArchive(format, entries, at: repo.base + "/fixture")
    let asset = AssetSpec.test("a", data: data, archive: spec ?? ArchiveSpec(format: format))
    let log = FetchLog()
    let report = try await repo.bootstrapper(testFetcher(["a": data], log: log)).run(AssetsConfig(assets: [asset]))
    let error = try #require(report.failures.first)
    #expect(repo.snapshot("Sources/App/Resources") == ["user.txt": "mine"])
    #expect(repo.snapshot("Sources/App").keys.sorted() == ["Resources/user.txt"])
    #expect(repo.snapshot("").keys.allSatisfy { !$0.contains("evil") })
    #expect(!FileManager.default.fileExists(atPath: repo.base + "/evil"))
    #expect(repo.snapshot(".build/ripple/receipts").isEmpty)
    return error
  }

  @Test func parentTraversalInAZip() async throws {
    let error = try await expectRefused(.zip, [["file", "ok.txt", "ok"], ["file", "../../../evil", "x"]])
    #expect(error == .unsafeArchiveEntry(asset: "a", entry: "../../../evil", reason: "`..` component (path traversal)"))
    #expect(error.category == .checkFailed)
  }

  @Test func absolutePathInATar() async throws {
    let error = try await expectRefused(.tar, [["file", "/tmp/evil", "x"]])
    guard case .unsafeArchiveEntry(_, let entry, let reason) = error else { throw error }
    #expect(entry == "/tmp/evil")
    #expect(reason == "absolute path")
  }

  @Test func symlinkLeavingTheTree() async throws {
    let error = try await expectRefused(.tar, [["file", "a.txt", "x"], ["symlink", "evil", "../../../etc"]])
    #expect(error.description.contains("symlink to `../../../etc` leaves the extracted tree"))
  }

  @Test func symlinkChainLeavingTheTreeIsCaughtByRealResolution() async throws {
    // Lexically `b -> a/..` stays inside; for real, `a -> .` makes it the parent of the staging folder.
    let error = try await expectRefused(.tar, [["symlink", "x/a", ".."], ["symlink", "x/b", "a/.."]])
    #expect(error.description.contains("resolves outside the extracted tree"))
  }

  @Test func absoluteSymlinkInAZip() async throws {
    let error = try await expectRefused(.zip, [["symlink", "passwd", "/etc/passwd"]])
    #expect(error.description.contains("symlink to `/etc/passwd`"))
  }

  @Test func fileWrittenThroughASymlink() async throws {
    let error = try await expectRefused(.tar, [["symlink", "dir", "sub"], ["file", "dir/evil", "x"]])
    #expect(error.description.contains("goes through the symlink `dir`"))
  }

  @Test func fifoAndDeviceFiles() async throws {
    let fifo = try await expectRefused(.tar, [["fifo", "pipe"]])
    #expect(fifo.description.contains("device, FIFO or socket"))
    let device = try await expectRefused(.tar, [["char", "null"]])
    #expect(device.description.contains("device, FIFO or socket"))
  }

  @Test func hardLinkOutsideTheTree() async throws {
    let error = try await expectRefused(.tar, [["hardlink", "evil", "../../etc/passwd"]])
    #expect(error.description.contains("hard link"))
  }

  @Test func zipBombStopsAtTheExpandedLimit() async throws {
    let zeros = String(repeating: "0", count: 3_000_000)
    let error = try await expectRefused(
      .zip, [["file", "bomb.bin", zeros]], spec: ArchiveSpec(format: .zip, maxExpandedBytes: 1_000_000))
    #expect(error == .archiveLimitExceeded(asset: "a", limit: "1000000 expanded bytes (maxExpandedBytes)"))
  }

  @Test func tooManyEntries() async throws {
    let entries = (0..<20).map { ["file", "f\($0)", "x"] }
    let error = try await expectRefused(.tar, entries, spec: ArchiveSpec(format: .tar, maxEntries: 10))
    #expect(error == .archiveLimitExceeded(asset: "a", limit: "10 entries (maxEntries)"))
  }

  @Test func namesCollidingByCase() async throws {
    let error = try await expectRefused(.zip, [["file", "Sound.wav", "a"], ["file", "sound.WAV", "b"]])
    #expect(error == .nameCollision(asset: "a", first: "Sound.wav", second: "sound.WAV"))
  }

  @Test func namesCollidingByUnicodeNormalisation() async throws {
    let nfc = "caf\u{E9}.txt"
    let nfd = "cafe\u{301}.txt"
    let error = try await expectRefused(.tar, [["file", nfc, "a"], ["file", nfd, "b"]])
    guard case .nameCollision = error else { throw error }
  }

  @Test func fileThenAFileUnderItIsABadAsset() async throws {
    let error = try await expectRefused(.tar, [["file", "x", "1"], ["file", "x/y", "2"]])
    #expect(
      error
        == .unsafeArchiveEntry(
          asset: "a", entry: "x/y", reason: "`x` and `x/y` need one name as both a file and a folder"))
    #expect(error.category.exitCode == 1)
    let reversed = try await expectRefused(.zip, [["file", "X/y", "2"], ["file", "x", "1"]])
    guard case .unsafeArchiveEntry("a", "x", _) = reversed else { throw reversed }
    #expect(reversed.category.exitCode == 1)
  }

  @Test func gitHookInAnArchiveIsRefused() async throws {
    let error = try await expectRefused(
      .tar, [["file", "ok.txt", "ok"], ["file", "top/.GIT/hooks/pre-commit.sh", "x"]])
    guard case .unsafeArchiveEntry("a", "top/.GIT/hooks/pre-commit.sh", let reason) = error else { throw error }
    #expect(reason.contains(".git"))
  }

  @Test func includeGlobMatchingNothing() async throws {
    let error = try await expectRefused(
      .zip, [["file", "a.wav", "x"]], spec: ArchiveSpec(format: .zip, include: [Glob("**/*.wav"), Glob("*.aiff")]))
    #expect(error == .includeMatchedNothing(asset: "a", glob: "*.aiff"))
    #expect(error.category == .usage)
  }

  @Test func safeArchiveWithStripIncludeAndLinksInstalls() async throws {
    let repo = try TestRepository()
    let data = try makeArchive(
      .tar,
      [
        ["dir", "top"], ["file", "top/a.wav", "A"], ["file", "top/sub/b.wav", "B"], ["file", "top/readme.md", "no"],
        ["symlink", "top/sub/link.wav", "../a.wav"], ["hardlink", "top/c.wav", "top/a.wav"],
        ["file", "top/run.sh", "#!/bin/sh"],
      ], at: repo.base + "/fixture.tar")
    let spec = ArchiveSpec(format: .tar, stripComponents: 1, include: [Glob("**/*.wav"), Glob("*.sh")])
    let log = FetchLog()
    let report = try await repo.bootstrapper(testFetcher(["a": data], log: log)).run(
      AssetsConfig(assets: [.test("a", data: data, archive: spec)]))
    try report.check()
    #expect(
      repo.snapshot("Sources/App/Resources") == [
        "a.wav": "A", "c.wav": "A", "sub/b.wav": "B", "sub/link.wav": "A", "run.sh": "#!/bin/sh",
      ])
    let attributes = try FileManager.default.attributesOfItem(atPath: repo.path("Sources/App/Resources/run.sh"))
    #expect((attributes[.posixPermissions] as? Int) == 0o755)  // executable kept, setuid dropped
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: repo.path("Sources/App/Resources/sub/link.wav"))
        == "../a.wav")
  }

  @Test func flattenInstallsSelectedFilesByBaseName() async throws {
    let repo = try TestRepository()
    let data = try makeArchive(
      .tar,
      [
        ["file", "Audio/Sounds/App/tap.wav", "T"], ["file", "Audio/Music/App/theme.wav", "M"],
        ["file", "Audio/Sounds/Core/clip.wav", "C"],
        ["hardlink", "Audio/Music/App/again.wav", "Audio/Music/App/theme.wav"],
      ], at: repo.base + "/fixture.tar")
    let spec = ArchiveSpec(
      format: .tar, stripComponents: 1, flatten: true, include: [Glob("Sounds/App/*.wav"), Glob("Music/App/*.wav")])
    let report = try await repo.bootstrapper(testFetcher(["a": data], log: FetchLog())).run(
      AssetsConfig(assets: [.test("a", data: data, archive: spec)]))
    try report.check()
    #expect(repo.snapshot("Sources/App/Resources") == ["tap.wav": "T", "theme.wav": "M", "again.wav": "M"])
  }

  @Test func flattenCollisionNamesBothEntries() async throws {
    let spec = ArchiveSpec(format: .zip, stripComponents: 1, flatten: true)
    let error = try await expectRefused(
      .zip, [["file", "Audio/Sounds/App/tap.wav", "1"], ["file", "Audio/Sounds/Core/Tap.wav", "2"]], spec: spec)
    #expect(error == .flattenCollision(asset: "a", first: "Sounds/App/tap.wav", second: "Sounds/Core/Tap.wav"))
    #expect(error.description.contains("`Sounds/App/tap.wav` and `Sounds/Core/Tap.wav`"))
    #expect(error.category.exitCode == 1)
  }
}
