import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import Testing

@Suite("bootstrap: cache, install, receipts, access modes")
struct BootstrapFlowTests {
  let words = Data("apple\nbanana\n".utf8)

  @Test func installsASingleFileAndCachesIt() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let asset = AssetSpec.test("words", data: words, fileName: "words.txt?X-Amz-Signature=1")
    let report = try await repo.bootstrapper(testFetcher(["words": words], log: log)).run(
      AssetsConfig(assets: [asset]))
    try report.check()
    #expect(repo.snapshot("Sources/App/Resources") == ["words.txt": "apple\nbanana\n"])
    let object = ContentCache(root: repo.cache).objectPath(asset.sha256)
    #expect(object.hasSuffix("/cas/sha256/\(asset.sha256.prefix(2))/\(asset.sha256)"))
    #expect(FileManager.default.contents(atPath: object) == words)
    #expect(log.requests.count == 1)
    #expect(repo.read(".build/ripple/receipts/words.json")?.contains("\"words.txt\"") == true)
  }

  @Test func checksumMismatchDeletesThePartialAndKeepsTheDestination() async throws {
    let repo = try TestRepository()
    try repo.write("Sources/App/Resources/user.txt", "mine")
    let log = FetchLog()
    let html = Data("<html>403 Forbidden</html>".utf8)
    var asset = AssetSpec.test("words", data: words)
    asset.size = nil
    let report = try await repo.bootstrapper(testFetcher(["words": html], log: log)).run(
      AssetsConfig(assets: [asset]))
    let error = try #require(report.failures.first)
    #expect(
      error
        == .checksumMismatch(
          asset: "words", expected: asset.sha256, actual: sha256Hex(html), origin: "https://assets.test/words"))
    #expect(error.description.contains("expected \(asset.sha256)"))
    #expect(error.category == .checkFailed)
    #expect(repo.snapshot("Sources/App/Resources") == ["user.txt": "mine"])
    #expect(!FileManager.default.fileExists(atPath: repo.cache + "/cas/tmp/\(asset.sha256).partial"))
    #expect(!ContentCache(root: repo.cache).contains(asset.sha256))
  }

  @Test func sizeMismatchNamesBothSizes() async throws {
    let repo = try TestRepository()
    var asset = AssetSpec.test("words", data: words)
    asset.size = 3
    let report = try await repo.bootstrapper(testFetcher(["words": words], log: FetchLog())).run(
      AssetsConfig(assets: [asset]))
    #expect(
      report.failures
        == [.sizeMismatch(asset: "words", expected: 3, actual: Int64(words.count), origin: "https://assets.test/words")]
    )
  }

  @Test func interruptedDownloadResumesFromThePartialFile() async throws {
    let repo = try TestRepository()
    let asset = AssetSpec.test("words", data: words)
    let log = FetchLog()
    let first = try await repo.bootstrapper(testFetcher(["words": words], log: log, cutAfter: 5)).run(
      AssetsConfig(assets: [asset]))
    guard case .fetchFailed = try #require(first.failures.first) else { Issue.record("expected fetchFailed"); return }
    #expect(FileManager.default.contents(atPath: repo.cache + "/cas/tmp/\(asset.sha256).partial")?.count == 5)
    let second = try await repo.bootstrapper(testFetcher(["words": words], log: log)).run(AssetsConfig(assets: [asset]))
    try second.check()
    #expect(log.requests.map(\.resumeFrom) == [0, 5])
    #expect(repo.read("Sources/App/Resources/words") == "apple\nbanana\n")
  }

  @Test func upToDateRerunNeedsNoNetworkAndNoHashing() async throws {
    let repo = try TestRepository()
    let asset = AssetSpec.test("words", data: words)
    let log = FetchLog()
    try await repo.bootstrapper(testFetcher(["words": words], log: log)).run(AssetsConfig(assets: [asset])).check()
    // Same size, same mtime, other bytes: only hashing could notice, so an unchanged verdict proves none happened.
    let path = repo.path("Sources/App/Resources/words")
    let reference = repo.base + "/mtime-reference"
    try shell(["cp", "-p", path, reference])
    try Data("APPLE\nBANANA\n".utf8).write(to: URL(fileURLWithPath: path))
    try shell(["touch", "-r", reference, path])
    let quiet = FetchLog()
    let report = try await repo.bootstrapper(offlineFetcher(log: quiet)).run(AssetsConfig(assets: [asset]))
    #expect(report.assets.map(\.status) == [.upToDate(.private)])
    #expect(ProgressRenderer.summaryLine(report.assets[0]) == "words: up to date")
    #expect(quiet.requests.isEmpty && quiet.accessChecks.isEmpty)
  }

  @Test func locallyEditedManagedFileIsKeptUnlessForced() async throws {
    let repo = try TestRepository()
    let v1 = Data("one".utf8)
    let v2 = Data("two".utf8)
    let log = FetchLog()
    try await repo.bootstrapper(testFetcher(["w": v1], log: log)).run(
      AssetsConfig(assets: [.test("w", data: v1, fileName: "w.txt")])
    ).check()
    try repo.write("Sources/App/Resources/w.txt", "my edit")
    // Same config: up to date, edit reported.
    let same = try await repo.bootstrapper(testFetcher(["w": v1], log: log)).run(
      AssetsConfig(assets: [.test("w", data: v1, fileName: "w.txt")]))
    #expect(same.assets[0].keptEdited == ["Sources/App/Resources/w.txt"])
    #expect(ProgressRenderer.summaryLine(same.assets[0]).contains("use --force"))
    // New version: still kept.
    let updated = try await repo.bootstrapper(testFetcher(["w": v2], log: log)).run(
      AssetsConfig(assets: [.test("w", data: v2, fileName: "w.txt")]))
    try updated.check()
    #expect(updated.assets[0].keptEdited == ["Sources/App/Resources/w.txt"])
    #expect(repo.read("Sources/App/Resources/w.txt") == "my edit")
    // --force replaces it.
    let forced = try await repo.bootstrapper(testFetcher(["w": v2], log: log), force: true).run(
      AssetsConfig(assets: [.test("w", data: v2, fileName: "w.txt")]))
    try forced.check()
    #expect(repo.read("Sources/App/Resources/w.txt") == "two")
  }

  @Test func unmanagedFileInTheWayIsAnErrorUnlessForced() async throws {
    let repo = try TestRepository()
    try repo.write("Sources/App/Resources/w.txt", "user's")
    let data = Data("asset".utf8)
    let config = AssetsConfig(assets: [.test("w", data: data, fileName: "w.txt")])
    let report = try await repo.bootstrapper(testFetcher(["w": data], log: FetchLog())).run(config)
    #expect(report.failures == [.unmanagedFileInTheWay(owner: .asset("w"), path: "Sources/App/Resources/w.txt")])
    #expect(repo.snapshot("Sources/App/Resources") == ["w.txt": "user's"])
    try await repo.bootstrapper(testFetcher(["w": data], log: FetchLog()), force: true).run(config).check()
    #expect(repo.read("Sources/App/Resources/w.txt") == "asset")
  }

  @Test func gitTrackedFileIsNeverDeletedOrReplaced() async throws {
    let repo = try TestRepository()
    let v1 = try makeArchive(.zip, [["file", "a.txt", "A1"], ["file", "b.txt", "B1"]], at: repo.base + "/v1.zip")
    let log = FetchLog()
    try await repo.bootstrapper(testFetcher(["a": v1], log: log)).run(
      AssetsConfig(assets: [.test("a", data: v1, archive: ArchiveSpec(format: .zip))])
    ).check()
    // Someone commits b.txt; the next version drops it and changes a.txt.
    try repo.commitAll()
    let v2 = try makeArchive(.zip, [["file", "a.txt", "A2"]], at: repo.base + "/v2.zip")
    let dropped = try await repo.bootstrapper(testFetcher(["a": v2], log: log)).run(
      AssetsConfig(assets: [.test("a", data: v2, archive: ArchiveSpec(format: .zip))]))
    #expect(dropped.failures == [.gitTrackedFileInTheWay(owner: .asset("a"), path: "Sources/App/Resources/a.txt")])
    #expect(repo.snapshot("Sources/App/Resources") == ["a.txt": "A1", "b.txt": "B1"])
    // Once a.txt is untracked again, the install goes through; b.txt (tracked) stays.
    try repo.run("git", "rm", "-q", "--cached", "Sources/App/Resources/a.txt")
    try await repo.bootstrapper(testFetcher(["a": v2], log: log)).run(
      AssetsConfig(assets: [.test("a", data: v2, archive: ArchiveSpec(format: .zip))])
    ).check()
    #expect(repo.snapshot("Sources/App/Resources") == ["a.txt": "A2", "b.txt": "B1"])
  }

  @Test func newVersionRemovesOnlyRippleFiles() async throws {
    let repo = try TestRepository()
    try repo.write("Sources/App/Resources/user.json", "{}")
    let v1 = try makeArchive(.zip, [["file", "old.txt", "O"], ["file", "keep.txt", "K"]], at: repo.base + "/1.zip")
    let v2 = try makeArchive(.zip, [["file", "new/n.txt", "N"], ["file", "keep.txt", "K"]], at: repo.base + "/2.zip")
    let log = FetchLog()
    try await repo.bootstrapper(testFetcher(["a": v1], log: log)).run(
      AssetsConfig(assets: [.test("a", data: v1, archive: ArchiveSpec(format: .zip))])
    ).check()
    let report = try await repo.bootstrapper(testFetcher(["a": v2], log: log)).run(
      AssetsConfig(assets: [.test("a", data: v2, archive: ArchiveSpec(format: .zip))]))
    try report.check()
    guard case .installed(.private, let outcome, downloaded: true) = report.assets[0].status else {
      Issue.record("\(report.assets[0].status)")
      return
    }
    #expect(outcome.added == 1 && outcome.removed == 1 && outcome.unchanged == 1)
    #expect(repo.snapshot("Sources/App/Resources") == ["user.json": "{}", "keep.txt": "K", "new/n.txt": "N"])
  }

  @Test func publicModeWritesPlaceholdersThenAccessReplacesThem() async throws {
    let repo = try TestRepository()
    let data = try makeArchive(.zip, [["file", "a.mp3", "AUDIO"]], at: repo.base + "/a.zip")
    let asset = AssetSpec.test(
      "audio", data: data, archive: ArchiveSpec(format: .zip), placeholders: [PlaceholderSpec(path: "empty.mp3")])
    let config = AssetsConfig(assets: [asset])
    let log = FetchLog()
    let publicRun = try await repo.bootstrapper(offlineFetcher(log: log), mode: .public).run(config)
    try publicRun.check()
    #expect(repo.snapshot("Sources/App/Resources") == ["empty.mp3": ""])
    #expect(log.requests.isEmpty && log.accessChecks.isEmpty)

    // auto without access: placeholders stay, with the reason.
    let denied = try await repo.bootstrapper(
      testFetcher(["audio": data], log: log, access: .missingCredentials("ASSETS_TOKEN is not set"))
    ).run(config)
    #expect(denied.assets.map(\.status) == [.upToDate(.placeholder)])

    // auto with access: the real files replace the placeholders.
    let granted = try await repo.bootstrapper(testFetcher(["audio": data], log: log)).run(config)
    try granted.check()
    #expect(repo.snapshot("Sources/App/Resources") == ["a.mp3": "AUDIO"])
  }

  @Test func autoModeWithoutAccessSaysWhyPerAsset() async throws {
    let repo = try TestRepository()
    let asset = AssetSpec.test("words", data: words, placeholders: [PlaceholderSpec(path: "words", contents: "-")])
    let events = EventLog()
    let report = try await repo.bootstrapper(
      testFetcher([:], log: FetchLog(), access: .denied("HTTP 403 from assets.test")), onEvent: events.add
    ).run(AssetsConfig(assets: [asset]))
    try report.check()
    #expect(report.assets[0].placeholderReason == "HTTP 403 from assets.test")
    #expect(events.lines.contains("words: installing placeholders (no access: HTTP 403 from assets.test)"))
    #expect(repo.read("Sources/App/Resources/words") == "-")
  }

  @Test func requirePrivateWithoutAccessIsAnEnvironmentError() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(
        testFetcher(["words": words], log: log, access: .missingCredentials("ASSETS_TOKEN is not set")),
        mode: .requirePrivate
      ).run(AssetsConfig(assets: [.test("words", data: words)]))
    }
    #expect(error == .accessRequired(asset: "words", reason: "ASSETS_TOKEN is not set"))
    #expect(error.category.exitCode == 3)
    #expect(log.requests.isEmpty)
  }

  @Test func offlineWithAColdCacheListsWhatIsMissing() async throws {
    let repo = try TestRepository()
    let other = Data("other".utf8)
    let log = FetchLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(offlineFetcher(log: log), offline: true).run(
        AssetsConfig(assets: [.test("words", data: words), .test("other", data: other, destination: "Other")]))
    }
    guard case .missingFromCache(let items) = error else { throw error }
    #expect(
      items == [
        "words: sha256 \(sha256Hex(words)) from https://assets.test/words",
        "other: sha256 \(sha256Hex(other)) from https://assets.test/other",
      ])
    #expect(error.category == .environment)
    #expect(log.requests.isEmpty && log.accessChecks.isEmpty)
    #expect(repo.snapshot("Sources").isEmpty)
  }

  @Test func offlineWithAWarmCacheInstalls() async throws {
    let repo = try TestRepository()
    let asset = AssetSpec.test("words", data: words)
    try await repo.bootstrapper(testFetcher(["words": words], log: FetchLog())).run(AssetsConfig(assets: [asset]))
      .check()
    try FileManager.default.removeItem(atPath: repo.path("Sources"))
    let log = FetchLog()
    try await repo.bootstrapper(offlineFetcher(log: log), offline: true).run(AssetsConfig(assets: [asset])).check()
    #expect(repo.read("Sources/App/Resources/words") == "apple\nbanana\n")
    #expect(log.requests.isEmpty)
  }

  @Test func destinationThroughASymlinkOutOfTheRepoIsRefusedBeforeDownloading() async throws {
    let repo = try TestRepository()
    let outside = repo.base + "/outside"
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: repo.path("Sources"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: repo.path("Sources/App"), withDestinationPath: outside)
    let log = FetchLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher(["words": words], log: log)).run(
        AssetsConfig(assets: [.test("words", data: words)]))
    }
    guard case .destinationOutsideRepository(let owner, let path, let resolved, _) = error else { throw error }
    #expect(owner == "asset `words`" && path == "Sources/App/Resources")
    #expect(resolved.hasSuffix("/outside/Resources"))
    #expect(log.requests.isEmpty && log.accessChecks.isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
  }

  @Test func twoAssetsIntoTheSameFolderAreRefused() async throws {
    let repo = try TestRepository()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(offlineFetcher(log: FetchLog())).run(
        AssetsConfig(assets: [
          .test("a", data: words, destination: "R"), .test("b", data: words, destination: "R/sub"),
        ]))
    }
    #expect(error == .overlappingDestinations(first: "asset `a`", second: "asset `b`", path: "R/sub"))
  }

  @Test func missingToolIsReportedBeforeAnyDownload() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let transform = TransformSpec(command: ["ripple-no-such-tool", "{input}", "{output}"], outputName: "{stem}.x")
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher(["a": words], log: log)).run(
        AssetsConfig(assets: [.test("a", data: words, transform: transform)]))
    }
    #expect(error == .missingTool(asset: "a", tool: "ripple-no-such-tool"))
    #expect(error.category.exitCode == 3)
    #expect(log.requests.isEmpty)
  }

  @Test func failingTransformShowsTheCommandAndStatus() async throws {
    let repo = try TestRepository()
    try repo.write("Sources/App/Resources/user.txt", "mine")
    let transform = TransformSpec(
      command: ["sh", "-c", "echo converting $0 >&2; exit 7", "{input}", "{output}"], outputName: "{stem}.out")
    let report = try await repo.bootstrapper(testFetcher(["a": words], log: FetchLog())).run(
      AssetsConfig(assets: [.test("a", data: words, transform: transform)]))
    let error = try #require(report.failures.first)
    guard case .transformFailed(_, let file, let command, let status, let tail) = error else { throw error }
    #expect(file == "a" && status == 7)
    #expect(command.hasPrefix("sh -c"))
    #expect(tail.contains("converting"))
    #expect(repo.snapshot("Sources/App/Resources") == ["user.txt": "mine"])
  }
}

/// Collects rendered event lines.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var _events: [BootstrapEvent] = []
  var events: [BootstrapEvent] { lock.withLock { _events } }
  var lines: [String] {
    var renderer = ProgressRenderer(interactive: false)
    return events.map { renderer.render($0, now: 0) }.joined().split(separator: "\n").map(String.init)
  }
  func add(_ event: BootstrapEvent) { lock.withLock { _events.append(event) } }
}
