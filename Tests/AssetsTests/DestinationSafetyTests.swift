import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import Testing

/// Destinations that reach git's folder or Ripple's state on disk, the order of validation and lock,
/// `--force`, and URLs with passwords in messages.
@Suite("bootstrap: protected destinations, validation before the lock, --force")
struct DestinationSafetyTests {
  let words = Data("apple\nbanana\n".utf8)
  static let location = ConfigLocation(file: "ripple.yml", line: 7, column: 18, keyPath: "assets[0].destination")

  /// An asset whose destination was written at `ripple.yml:7:18`.
  func asset(_ destination: String) -> AssetSpec {
    var spec = AssetSpec.test("words", data: words, destination: destination)
    spec.origins[destination] = Self.location
    return spec
  }

  /// Every path under the repository (`.git` and `.build` included) → contents (nil for folders).
  func tree(_ repo: TestRepository) -> [String: String?] {
    var result: [String: String?] = [:]
    let enumerator = FileManager.default.enumerator(atPath: repo.root)
    while let name = enumerator?.nextObject() as? String { result[name] = repo.read(name) }
    return result
  }

  /// Runs a bootstrap that must fail validation: returns the error, after checking that nothing was
  /// fetched and that the tree (lock and state folder included) is exactly as it was.
  /// `asksAccess`: whether the refusal comes after the (read-only) access check, as a tool check does.
  func expectRefusedBeforeTheLock(_ repo: TestRepository, _ config: AssetsConfig, asksAccess: Bool = false)
    async throws -> AssetsError
  {
    let before = tree(repo)
    let log = FetchLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher(["words": words], log: log)).run(config)
    }
    #expect(log.requests.isEmpty && log.accessChecks.isEmpty != asksAccess)
    #expect(tree(repo) == before)
    #expect(!FileManager.default.fileExists(atPath: repo.path(".build/ripple")))
    return error
  }

  @Test func destinationThroughASymlinkIntoGitIsRefusedWithItsConfigLine() async throws {
    let repo = try TestRepository()
    try FileManager.default.createDirectory(atPath: repo.path("Sources"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: repo.path("Sources/App"), withDestinationPath: "../.git")
    let error = try await expectRefusedBeforeTheLock(repo, AssetsConfig(assets: [asset("Sources/App/hooks")]))
    guard case .protectedDestination(let owner, let path, _, let location) = error else { throw error }
    #expect(owner == "asset `words`" && path == "Sources/App/hooks" && location == Self.location)
    #expect(error.description.hasPrefix("ripple.yml:7:18: assets[0].destination: "))
    #expect(error.description.contains("`.git/hooks`"))
    #expect(error.category.exitCode == 2)
  }

  @Test func destinationThroughASymlinkOutOfTheRepositoryNamesItsConfigLine() async throws {
    let repo = try TestRepository()
    try FileManager.default.createDirectory(atPath: repo.base + "/outside", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: repo.path("Out"), withDestinationPath: repo.base + "/outside")
    let error = try await expectRefusedBeforeTheLock(repo, AssetsConfig(assets: [asset("Out/R")]))
    guard case .destinationOutsideRepository = error else { throw error }
    #expect(error.description.hasPrefix("ripple.yml:7:18: assets[0].destination: "))
  }

  @Test func gitFolderNamedByAGitdirFileIsRefused() async throws {
    let repo = try TestRepository()
    // A submodule-style checkout whose git folder lives elsewhere in the tree.
    try FileManager.default.createDirectory(atPath: repo.path("store"), withIntermediateDirectories: true)
    try shell(["git", "init", "-q", "--separate-git-dir", repo.path("store/sub.git"), repo.path("Vendor/Sub")])
    #expect(FileManager.default.fileExists(atPath: repo.path("store/sub.git/HEAD")))
    let error = try await expectRefusedBeforeTheLock(repo, AssetsConfig(assets: [asset("store/sub.git/hooks")]))
    guard case .protectedDestination(_, _, let reason, let location) = error else { throw error }
    #expect(reason.contains("git folder"))
    #expect(location == Self.location)

    // The checkout itself is an ordinary folder: installing there is fine.
    try await repo.bootstrapper(testFetcher(["words": words], log: FetchLog())).run(
      AssetsConfig(assets: [asset("Vendor/Sub/Resources")])
    ).check()
    #expect(repo.read("Vendor/Sub/Resources/words") == "apple\nbanana\n")
  }

  @Test func configuredHooksFolderIsRefused() async throws {
    let repo = try TestRepository()
    try repo.run("git", "config", "core.hooksPath", "tools/hooks")
    let error = try await expectRefusedBeforeTheLock(repo, AssetsConfig(assets: [asset("tools/hooks")]))
    guard case .protectedDestination(_, _, let reason, _) = error else { throw error }
    #expect(reason.contains("hooks"))
  }

  @Test func missingToolFailsBeforeTheLock() async throws {
    let repo = try TestRepository()
    let transform = TransformSpec(command: ["ripple-no-such-tool", "{input}", "{output}"], outputName: "{stem}.x")
    let error = try await expectRefusedBeforeTheLock(
      repo, AssetsConfig(assets: [.test("words", data: words, transform: transform)]), asksAccess: true)
    #expect(error == .missingTool(asset: "words", tool: "ripple-no-such-tool"))
  }

  @Test func downloadNamedDotGitIsNotInstalled() async throws {
    let repo = try TestRepository()
    let pointer = Data("gitdir: /tmp/attacker\n".utf8)
    let report = try await repo.bootstrapper(testFetcher(["words": pointer], log: FetchLog())).run(
      AssetsConfig(assets: [.test("words", data: pointer, fileName: ".git")]))
    let error = try #require(report.failures.first)
    guard case .protectedFile(let owner, let path, _) = error else { throw error }
    #expect(owner == .asset("words") && path == "Sources/App/Resources/.git")
    #expect(error.category.exitCode == 1)
    #expect(!FileManager.default.fileExists(atPath: repo.path("Sources/App/Resources/.git")))
  }

  @Test func forceReinstallsAnAssetThatLooksUpToDate() async throws {
    let repo = try TestRepository()
    let spec = AssetSpec.test("words", data: words)
    let log = FetchLog()
    try await repo.bootstrapper(testFetcher(["words": words], log: log)).run(AssetsConfig(assets: [spec])).check()
    // Same size and mtime, other bytes: only a reinstall (not the up-to-date check) can notice.
    let path = repo.path("Sources/App/Resources/words")
    try shell(["cp", "-p", path, repo.base + "/reference"])
    try Data("APPLE\nBANANA\n".utf8).write(to: URL(fileURLWithPath: path))
    try shell(["touch", "-r", repo.base + "/reference", path])

    let forced = try await repo.bootstrapper(testFetcher(["words": words], log: log), force: true).run(
      AssetsConfig(assets: [spec]))
    try forced.check()
    guard case .installed(.private, _, downloaded: false) = forced.assets[0].status else {
      Issue.record("\(forced.assets[0].status)")
      return
    }
    #expect(repo.read("Sources/App/Resources/words") == "apple\nbanana\n")
    #expect(log.requests.count == 1, "reinstalled from the cache")

    // A cached object that no longer matches its hash is fetched again.
    let object = ContentCache(root: repo.cache).objectPath(spec.sha256)
    try Data("corrupt\nbytes\n".utf8).write(to: URL(fileURLWithPath: object))
    try await repo.bootstrapper(testFetcher(["words": words], log: log), force: true).run(
      AssetsConfig(assets: [spec])
    ).check()
    #expect(log.requests.count == 2)
    #expect(FileManager.default.contents(atPath: object) == words)
    #expect(repo.read("Sources/App/Resources/words") == "apple\nbanana\n")
  }

  @Test func offlineMessageHidesThePasswordOfASourceURL() async throws {
    let repo = try TestRepository()
    var spec = AssetSpec.test("words", data: words)
    spec.source = .https(urls: ["https://user:s3cretpw@assets.test/words.txt?X-Amz-Signature=sig123"])
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(offlineFetcher(log: FetchLog()), offline: true).run(AssetsConfig(assets: [spec]))
    }
    guard case .missingFromCache(let items) = error else { throw error }
    #expect(items == ["words: sha256 \(spec.sha256) from https://assets.test/words.txt"])
    #expect(!error.description.contains("s3cretpw") && !error.description.contains("sig123"))
  }
}
