import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import TestSupport
import Testing

/// `source: {lfs: {paths: […]}}` with the real git-lfs, against a local remote: a bare repository on the
/// file system, which git-lfs serves with its standalone file transfer (no server, no network).
@Suite("bootstrap: Git LFS sources")
struct LFSSourceTests {
  /// A checkout whose `*.wav` files are committed through git-lfs and pushed to a bare remote beside it;
  /// then its local LFS store is emptied, as in a fresh clone without `git lfs pull`. With `lfsURL`, the objects
  /// go to a second bare repository named by `lfs.url=file://…` instead (git-lfs's standalone file transfer).
  static func repository(_ files: [String: String], lfsURL: Bool = false) throws -> TestRepository {
    _ = try requireTool("git-lfs", install: "apt-get install git-lfs (scripts/install-deps.sh --test)")
    let repo = try TestRepository()
    let remote = repo.base + "/remote.git"
    try shell(["git", "init", "-q", "--bare", remote])
    if lfsURL {
      try shell(["git", "init", "-q", "--bare", repo.base + "/store.git"])
      try repo.run("git", "config", "lfs.url", "file://" + repo.base + "/store.git")
    }
    try repo.run("git", "lfs", "install", "--local")
    try repo.run("git", "lfs", "track", "*.wav")
    for (path, text) in files { try repo.write(path, text) }
    try repo.commitAll("audio")
    try repo.run("git", "remote", "add", "origin", remote)
    try repo.run("git", "push", "-q", "origin", "HEAD:main")
    // A fresh clone without `git lfs pull`: no objects, and pointer files in the work tree.
    try FileManager.default.removeItem(atPath: repo.path(".git/lfs/objects"))
    for path in files.keys where path.hasSuffix(".wav") { try FileManager.default.removeItem(atPath: repo.path(path)) }
    try shell(["env", "GIT_LFS_SKIP_SMUDGE=1", "git", "checkout", "--", "."], in: repo.root)
    return repo
  }

  static func asset(_ paths: [String], flatten: Bool = false, strip: Int = 0) -> AssetSpec {
    AssetSpec(
      id: "audio", source: .lfs(LFSSource(paths: paths.map(Glob.init), stripComponents: strip, flatten: flatten)),
      sha256: "", destination: "Sources/App/Resources")
  }

  @Test func fetchesExactlyThoseObjectsVerifiesAndInstallsThenWorksOffline() async throws {
    let repo = try Self.repository([
      "Assets/Audio/Sounds/App/tap.wav": "TAP", "Assets/Audio/Music/App/theme.wav": "THEME",
      "Assets/Other/big.wav": "NOT WANTED",
    ])
    let config = AssetsConfig(assets: [Self.asset(["Assets/Audio/**"], flatten: true)])
    let log = FetchLog()
    try await repo.bootstrapper(offlineFetcher(log: log)).run(config).check()
    #expect(repo.snapshot("Sources/App/Resources") == ["tap.wav": "TAP", "theme.wav": "THEME"])
    #expect(log.requests.isEmpty && log.accessChecks.isEmpty)
    let fetched = try shell(["find", repo.path(".git/lfs/objects"), "-type", "f"]).split(separator: "\n")
    #expect(fetched.count == 2, "only the selected objects were fetched")

    // Offline: the remote is gone, git-lfs's local store is enough (and a rerun is up to date).
    try FileManager.default.removeItem(atPath: repo.base + "/remote.git")
    try FileManager.default.removeItem(atPath: repo.path("Sources/App/Resources/tap.wav"))
    try await repo.bootstrapper(offlineFetcher(log: log), offline: true).run(config).check()
    #expect(repo.snapshot("Sources/App/Resources") == ["tap.wav": "TAP", "theme.wav": "THEME"])
  }

  @Test func transformsAndVariantsApplyToLFSFiles() async throws {
    let repo = try Self.repository(["Assets/Audio/a.wav": "abc"])
    var spec = Self.asset(["Assets/Audio/*.wav"], strip: 2)
    spec.destination = ""
    spec.transform = TransformSpec(
      command: ["sh", "-c", "tr a-z A-Z < \"$0\" > \"$1\"; echo {rate} >> \"$1\"", "{input}", "{output}"],
      outputName: "{stem}.txt",
      variants: [
        TransformVariant(name: "full", variables: ["rate": "64k"], destination: "Sources/Full/Resources"),
        TransformVariant(name: "clip", variables: ["rate": "32k"], destination: "Sources/Clip/Resources"),
      ])
    try await repo.bootstrapper(offlineFetcher(log: FetchLog())).run(AssetsConfig(assets: [spec])).check()
    #expect(repo.read("Sources/Full/Resources/a.txt") == "ABC64k\n")
    #expect(repo.read("Sources/Clip/Resources/a.txt") == "ABC32k\n")
  }

  @Test func badInputsAreClearErrors() async throws {
    let repo = try Self.repository(["Assets/Audio/a.wav": "A"])
    try repo.write("Assets/Audio/notes.txt", "plain text, not a pointer")
    try repo.commitAll("notes")
    let fetcher = offlineFetcher(log: FetchLog())

    let nothing = try await expectAssetsError {
      _ = try await repo.bootstrapper(fetcher).run(AssetsConfig(assets: [Self.asset(["Assets/Video/**"])]))
    }
    #expect(nothing == .lfsPathsMatchedNothing(asset: "audio", glob: "Assets/Video/**"))
    #expect(nothing.category.exitCode == 2)

    let plain = try await expectAssetsError {
      _ = try await repo.bootstrapper(fetcher).run(AssetsConfig(assets: [Self.asset(["Assets/Audio/**"])]))
    }
    #expect(plain == .notAnLFSPointer(asset: "audio", path: "Assets/Audio/notes.txt"))
    #expect(plain.description.contains("not a Git LFS pointer"))

    // The object is on no remote and not in the store: the error names the file.
    try FileManager.default.removeItem(atPath: repo.base + "/remote.git")
    let report = try await repo.bootstrapper(fetcher).run(AssetsConfig(assets: [Self.asset(["Assets/Audio/*.wav"])]))
    let error = try #require(report.failures.first)
    guard case .lfsObjectUnavailable("audio", "Assets/Audio/a.wav", let reason) = error else { throw error }
    #expect(reason.contains("`git lfs fetch` could not get it"))
    #expect(error.category.exitCode == 3)
    #expect(repo.snapshot("Sources/App/Resources").isEmpty)

    let flat = try Self.repository(["Assets/Audio/App/x.wav": "1", "Assets/Audio/Core/x.wav": "2"])
    let collision = try await flat.bootstrapper(fetcher).run(
      AssetsConfig(assets: [Self.asset(["Assets/Audio/**"], flatten: true)]))
    #expect(
      collision.failures == [
        .flattenCollision(asset: "audio", first: "Assets/Audio/App/x.wav", second: "Assets/Audio/Core/x.wav")
      ])
  }

  /// `lfs.url=file://…` naming a bare repository works; naming a plain folder, git-lfs fails with only "EOF",
  /// so the error says what is wrong.
  @Test func anLFSURLOnTheFileSystemMustNameARepository() async throws {
    let repo = try Self.repository(["Assets/Audio/a.wav": "A"], lfsURL: true)
    let config = AssetsConfig(assets: [Self.asset(["Assets/Audio/*.wav"], strip: 2)])
    try await repo.bootstrapper(offlineFetcher(log: FetchLog())).run(config).check()
    #expect(repo.read("Sources/App/Resources/a.wav") == "A")

    try FileManager.default.removeItem(atPath: repo.path(".git/lfs/objects"))
    try FileManager.default.removeItem(atPath: repo.path("Sources/App/Resources/a.wav"))
    try FileManager.default.createDirectory(atPath: repo.base + "/plain", withIntermediateDirectories: true)
    try repo.run("git", "config", "lfs.url", "file://" + repo.base + "/plain")
    let report = try await repo.bootstrapper(offlineFetcher(log: FetchLog())).run(config)
    let error = try #require(report.failures.first)
    guard case .lfsObjectUnavailable("audio", "Assets/Audio/a.wav", let reason) = error else { throw error }
    #expect(reason.contains("the LFS endpoint file://\(repo.base)/plain (lfs.url) is not a git repository"))
    #expect(reason.contains("git init --bare"))
  }

  /// git-lfs's last error line quotes the endpoint with its credentials: `lfs.url` with `user:password@`, or the
  /// remote with the token CI puts in it. Neither reaches the error.
  @Test(arguments: ["lfs.url", "remote"])
  func anEndpointsCredentialsAreNeverInTheError(_ where: String) async throws {
    let repo = try Self.repository(["Assets/Audio/a.wav": "A"])
    if `where` == "lfs.url" {
      try repo.run("git", "config", "lfs.url", "https://deploy:pa55word-7c@127.0.0.1:1/r/info/lfs")
    } else {
      try repo.run("git", "remote", "set-url", "origin", "https://x-access-token:ghs_T0KEN-7c@127.0.0.1:1/o/r.git")
    }
    let report = try await repo.bootstrapper(offlineFetcher(log: FetchLog())).run(
      AssetsConfig(assets: [Self.asset(["Assets/Audio/*.wav"])]))
    let error = try #require(report.failures.first)
    guard case .lfsObjectUnavailable("audio", "Assets/Audio/a.wav", let reason) = error else { throw error }
    #expect(reason.contains("127.0.0.1:1"), "the endpoint is named: \(reason)")
    for secret in ["pa55word-7c", "ghs_T0KEN-7c"] {
      #expect(!error.description.contains(secret), "\(error)")
    }
  }

  @Test func aCorruptedObjectInTheStoreFailsItsOidCheck() async throws {
    let repo = try Self.repository(["Assets/Audio/a.wav": "GOOD"])
    let config = AssetsConfig(assets: [Self.asset(["Assets/Audio/*.wav"], strip: 2)])
    try await repo.bootstrapper(offlineFetcher(log: FetchLog())).run(config).check()
    let object = try shell(["find", repo.path(".git/lfs/objects"), "-type", "f"]).trimmingCharacters(in: .newlines)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: object)
    try "EVIL".write(toFile: object, atomically: false, encoding: .utf8)
    try FileManager.default.removeItem(atPath: repo.path("Sources/App/Resources/a.wav"))
    let report = try await repo.bootstrapper(offlineFetcher(log: FetchLog()), offline: true).run(config)
    guard case .checksumMismatch("audio", _, _, let origin) = try #require(report.failures.first) else {
      throw try #require(report.failures.first)
    }
    #expect(origin == "git-lfs's store (for Assets/Audio/a.wav)")
    #expect(repo.read("Sources/App/Resources/a.wav") == nil)
  }

  @Test func gitLFSMissingIsReportedUpFront() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(offlineFetcher(log: log), environment: ["PATH": "/nonexistent"]).run(
        AssetsConfig(assets: [Self.asset(["Assets/Audio/**"])]))
    }
    #expect(error == .lfsMissing(asset: "audio"))
    #expect(error.description.contains("apt-get install git-lfs"))
    #expect(error.category.exitCode == 3)
    #expect(!FileManager.default.fileExists(atPath: repo.path(".build/ripple")))
  }
}
