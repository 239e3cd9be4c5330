import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import Testing

/// `generate:` entries through a real `Bootstrapper`: real commands (`sh`, `gzip`) in a real git repository.
@Suite("bootstrap: generate entries")
struct GenerateTests {
  /// Word list → gzip → a line count, the dictionary chain in miniature.
  static func chain(environment: [String] = []) -> AssetsConfig {
    AssetsConfig(generate: [
      GenerateSpec(
        id: "count",
        command: [
          "sh", "-c", "gunzip -c Sources/Words/Resources/words.txt.gz | wc -l > \"$RIPPLE_OUTPUT_DIR/count.txt\"",
        ],
        inputs: [Glob("Sources/Words/Resources/*.gz")], destination: "Sources/Count/Resources", after: ["words"],
        outputs: ["count.txt"]),
      GenerateSpec(
        id: "words",
        command: [
          "sh", "-c",
          "[ -z \"$FAIL\" ] || { echo boom >&2; exit 3; }; gzip -n -c Bootstrap/words.txt > \"$RIPPLE_OUTPUT_DIR/words.txt.gz\"",
        ],
        inputs: [Glob("Bootstrap/words.txt")], destination: "Sources/Words/Resources",
        environment: ["FAIL"] + environment),
    ])
  }

  static func statuses(_ report: BootstrapReport) -> [String: GenerateStatus] {
    Dictionary(report.generated.map { ($0.id, $0.status) }, uniquingKeysWith: { a, _ in a })
  }

  static func kind(_ status: GenerateStatus?) -> String {
    switch status {
    case .upToDate(let kind): "up to date \(kind.rawValue)"
    case .installed(let kind, _): "installed \(kind.rawValue)"
    case .failed: "failed"
    case .skipped(let after): "skipped after \(after.joined(separator: ","))"
    case nil: "missing"
    }
  }

  @Test func aChainRunsInOrderAndARerunIsUpToDate() async throws {
    let repo = try TestRepository()
    try repo.write("Bootstrap/words.txt", "APPLE\nBANANA\nCHERRY\n")
    let log = FetchLog()
    let first = try await repo.bootstrapper(testFetcher([:], log: log)).run(Self.chain())
    try first.check()
    #expect(first.generated.map(\.id) == ["words", "count"])
    #expect(repo.read("Sources/Count/Resources/count.txt")?.trimmingCharacters(in: .whitespaces) == "3\n")
    #expect(
      try shell(["gunzip", "-c", repo.path("Sources/Words/Resources/words.txt.gz")]) == "APPLE\nBANANA\nCHERRY\n")
    #expect(repo.read(".build/ripple/receipts/count.json")?.contains("\"generated\"") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: repo.path("Sources/Words")) == ["Resources"])

    let second = try await repo.bootstrapper(testFetcher([:], log: log)).run(Self.chain())
    #expect(
      Self.statuses(second).mapValues(Self.kind) == ["words": "up to date generated", "count": "up to date generated"])

    // A changed input re-runs the entry and, through its output, the entry after it.
    try repo.write("Bootstrap/words.txt", "APPLE\nBANANA\n")
    let third = try await repo.bootstrapper(testFetcher([:], log: log)).run(Self.chain())
    #expect(
      Self.statuses(third).mapValues(Self.kind) == ["words": "installed generated", "count": "installed generated"])
    #expect(repo.read("Sources/Count/Resources/count.txt")?.trimmingCharacters(in: .whitespaces) == "2\n")
    #expect(log.requests.isEmpty && log.accessChecks.isEmpty)
  }

  @Test func declaredVariablesArePartOfTheKeyOthersAreNot() async throws {
    let repo = try TestRepository()
    try repo.write("Bootstrap/words.txt", "APPLE\n")
    let config = Self.chain(environment: ["WORDS_LOCALE"])
    try await repo.bootstrapper(testFetcher([:], log: FetchLog()), environment: ["WORDS_LOCALE": "en"]).run(config)
      .check()
    let other = try await repo.bootstrapper(
      testFetcher([:], log: FetchLog()), environment: ["WORDS_LOCALE": "en", "UNRELATED": "1"]
    ).run(config)
    #expect(Self.kind(Self.statuses(other)["words"]) == "up to date generated")
    let changed = try await repo.bootstrapper(testFetcher([:], log: FetchLog()), environment: ["WORDS_LOCALE": "fr"])
      .run(config)
    #expect(Self.kind(Self.statuses(changed)["words"]) == "installed generated")
    // Its output bytes are the same, so the entry after it is still up to date.
    #expect(Self.kind(Self.statuses(changed)["count"]) == "up to date generated")
  }

  @Test func aFailingCommandKeepsThePreviousOutputsAndSkipsWhatFollows() async throws {
    let repo = try TestRepository()
    try repo.write("Bootstrap/words.txt", "APPLE\n")
    try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(Self.chain()).check()
    let before = repo.snapshot("Sources/Words/Resources")
    try repo.write("Bootstrap/words.txt", "APPLE\nPEAR\n")

    let report = try await repo.bootstrapper(testFetcher([:], log: FetchLog()), environment: ["FAIL": "1"]).run(
      Self.chain())
    let command =
      "sh -c '[ -z \"$FAIL\" ] || { echo boom >&2; exit 3; }; gzip -n -c Bootstrap/words.txt > \"$RIPPLE_OUTPUT_DIR/words.txt.gz\"'"
    #expect(
      report.failures == [
        .generateFailed(entry: "words", command: command, status: 3, stderrTail: "    boom"),
        .generateSkipped(entry: "count", after: ["words"]),
      ])
    let error = try await expectAssetsError { try report.check() }
    #expect(error.category == .checkFailed)
    #expect(error.description.contains("generate entry `words`: `sh -c"))
    #expect(error.description.contains("exited with status 3:\n    boom"))
    #expect(error.description.contains("generate entry `count`: skipped because `words` was not installed"))
    #expect(repo.snapshot("Sources/Words/Resources") == before)
    #expect(repo.read("Sources/Count/Resources/count.txt")?.trimmingCharacters(in: .whitespaces) == "1\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: repo.path("Sources/Words")) == ["Resources"])
  }

  @Test(arguments: [
    ("touch \"$RIPPLE_OUTPUT_DIR/other.txt\"", "generateOutputMissing [words.txt]"),
    ("true", "generateOutputMissing [words.txt]"),
    ("ln -s /etc/hostname \"$RIPPLE_OUTPUT_DIR/words.txt\"", "escapes words.txt"),
    ("mkdir -p \"$RIPPLE_OUTPUT_DIR/a\" && ln -s ../../x \"$RIPPLE_OUTPUT_DIR/a/words.txt\"", "escapes a/words.txt"),
    (
      "echo x > \"$RIPPLE_OUTPUT_DIR/../evil\"; echo y > \"$RIPPLE_OUTPUT_DIR/words.txt\"",
      "escapes $RIPPLE_OUTPUT_DIR/../evil"
    ),
    ("mkfifo \"$RIPPLE_OUTPUT_DIR/words.txt\"", "escapes words.txt"),
  ])
  func whatTheCommandWroteIsCheckedBeforeInstalling(script: String, expected: String) async throws {
    let repo = try TestRepository()
    try repo.write("Sources/Words/Resources/user.txt", "mine")
    let config = AssetsConfig(generate: [
      GenerateSpec(
        id: "words", command: ["sh", "-c", script], destination: "Sources/Words/Resources", outputs: ["words.txt"])
    ])
    let report = try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(config)
    let failure = try #require(report.failures.first)
    switch failure {
    case .generateOutputMissing(let entry, _, let missing):
      #expect(entry == "words")
      #expect("generateOutputMissing [\(missing.joined(separator: ","))]" == expected)
    case .generateOutputEscapes(let entry, let path, _):
      #expect(entry == "words")
      #expect("escapes \(path)" == expected)
      #expect(failure.category == .checkFailed)
    default:
      Issue.record("unexpected \(failure)")
    }
    #expect(repo.snapshot("Sources/Words/Resources") == ["user.txt": "mine"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: repo.path("Sources/Words")) == ["Resources"])
    #expect(repo.read(".build/ripple/receipts/words.json") == nil)
  }

  @Test func aMissingCommandIsReportedBeforeAnyDownload() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let words = Data("apple\n".utf8)
    let config = AssetsConfig(
      assets: [.test("words", data: words)],
      generate: [
        GenerateSpec(id: "db", command: ["ripple-no-such-tool", "x"], destination: "Sources/DB/Resources"),
        GenerateSpec(id: "local", command: ["Bootstrap/missing.sh"], destination: "Sources/Local/Resources"),
      ])
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher(["words": words], log: log)).run(config)
    }
    #expect(
      error
        == .several([
          .generateMissingTool(entry: "db", tool: "ripple-no-such-tool"),
          .generateMissingTool(entry: "local", tool: "Bootstrap/missing.sh"),
        ]))
    #expect(error.category == .environment)
    #expect(log.requests.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: repo.path(".build/ripple")))
  }

  @Test func aCommandInTheRepositoryRunsAtItsRoot() async throws {
    let repo = try TestRepository()
    try repo.write("Bootstrap/make.sh", "#!/bin/sh\npwd > \"$RIPPLE_OUTPUT_DIR/where.txt\"\n")
    try shell(["chmod", "+x", repo.path("Bootstrap/make.sh")])
    let config = AssetsConfig(generate: [
      GenerateSpec(id: "where", command: ["Bootstrap/make.sh"], destination: "Sources/W/Resources")
    ])
    try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(config).check()
    let written = try #require(repo.read("Sources/W/Resources/where.txt"))
    #expect(
      URL(fileURLWithPath: written.trimmingCharacters(in: .newlines)).resolvingSymlinksInPath().path
        == URL(fileURLWithPath: repo.root).resolvingSymlinksInPath().path)
  }

  @Test func inputsMustMatchAndStayInTheRepository() async throws {
    let repo = try TestRepository()
    let nothing = AssetsConfig(generate: [
      GenerateSpec(id: "a", command: ["true"], inputs: [Glob("Bootstrap/*.txt")], destination: "Sources/A/Resources")
    ])
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(nothing)
    }
    #expect(error == .generateInputMatchedNothing(entry: "a", glob: "Bootstrap/*.txt"))
    #expect(error.category == .usage)

    try FileManager.default.createDirectory(atPath: repo.path("Bootstrap"), withIntermediateDirectories: true)
    try "secret".write(toFile: repo.base + "/outside.txt", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: repo.path("Bootstrap/words.txt"), withDestinationPath: repo.base + "/outside.txt")
    let outside = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(nothing)
    }
    guard case .generateInputOutsideRepository(let entry, let path, _) = outside else {
      Issue.record("unexpected \(outside)")
      return
    }
    #expect(entry == "a" && path == "Bootstrap/words.txt")
    #expect(outside.category == .usage)
    #expect(!FileManager.default.fileExists(atPath: repo.path("Sources/A")))
  }

  @Test func anInputAnEarlierEntryWritesMayBeMissingAtFirst() async throws {
    let repo = try TestRepository()
    try repo.write("Bootstrap/words.txt", "APPLE\n")
    // `count` reads `words`' output, which does not exist before the first run.
    try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(Self.chain()).check()
    #expect(FileManager.default.fileExists(atPath: repo.path("Sources/Count/Resources/count.txt")))
  }

  @Test func twoEntriesCannotWriteOneFile() async throws {
    let repo = try TestRepository()
    func entry(_ id: String, _ text: String, after: [String] = []) -> GenerateSpec {
      GenerateSpec(
        id: id,
        command: [
          "sh", "-c", "echo \(text) > \"$RIPPLE_OUTPUT_DIR/\(text).txt\"; echo \(id) > \"$RIPPLE_OUTPUT_DIR/same.txt\"",
        ],
        destination: "Sources/Shared/Resources", after: after)
    }
    let report = try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(
      AssetsConfig(generate: [entry("first", "one"), entry("second", "two", after: ["first"])]))
    #expect(
      report.failures == [
        .sharedOutputFile(entry: "second", path: "Sources/Shared/Resources/same.txt", owner: "first")
      ])
    #expect(report.failures.first?.category == .usage)
    #expect(repo.snapshot("Sources/Shared/Resources") == ["one.txt": "one\n", "same.txt": "first\n"])
  }

  @Test func independentEntriesRunAtTheSameTimeAndWhatFollowsWaits() async throws {
    let repo = try TestRepository()
    let meeting = repo.base + "/meeting"
    try FileManager.default.createDirectory(atPath: meeting, withIntermediateDirectories: true)
    // Each of a and b waits (up to 10 s) for the other to have started: only parallel runs both succeed.
    func waiting(_ me: String, for other: String) -> GenerateSpec {
      GenerateSpec(
        id: me,
        command: [
          "sh", "-c",
          "touch \(meeting)/\(me); i=0; while [ ! -f \(meeting)/\(other) ]; do sleep 0.1; i=$((i+1));"
            + " [ $i -gt 100 ] && exit 9; done; echo \(me) > \"$RIPPLE_OUTPUT_DIR/\(me).txt\"",
        ],
        destination: "Sources/\(me.uppercased())/Resources")
    }
    let last = GenerateSpec(
      id: "c",
      command: ["sh", "-c", "cat Sources/A/Resources/a.txt Sources/B/Resources/b.txt > \"$RIPPLE_OUTPUT_DIR/c.txt\""],
      destination: "Sources/C/Resources", after: ["a", "b"])
    let report = try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(
      AssetsConfig(generate: [last, waiting("a", for: "b"), waiting("b", for: "a")]))
    try report.check()
    #expect(report.generated.last?.id == "c")
    #expect(repo.read("Sources/C/Resources/c.txt") == "a\nb\n")
  }

  @Test func entriesMayShareAFolderWithDifferentFiles() async throws {
    let repo = try TestRepository()
    let config = AssetsConfig(generate: [
      GenerateSpec(
        id: "a", command: ["sh", "-c", "echo a > \"$RIPPLE_OUTPUT_DIR/a.txt\""], destination: "Sources/S/Resources"),
      GenerateSpec(
        id: "b", command: ["sh", "-c", "echo b > \"$RIPPLE_OUTPUT_DIR/b.txt\""], destination: "Sources/S/Resources"),
    ])
    try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(config).check()
    #expect(repo.snapshot("Sources/S/Resources") == ["a.txt": "a\n", "b.txt": "b\n"])
    let again = try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(config)
    #expect(Self.statuses(again).mapValues(Self.kind) == ["a": "up to date generated", "b": "up to date generated"])
  }

  // MARK: - Private variant

  static let privateWords = Data("PRIVATE\n".utf8)

  static func withPrivate() -> AssetsConfig {
    AssetsConfig(
      assets: [
        .test("words-private", data: privateWords, destination: "Sources/Words/Resources", fileName: "words.txt")
      ],
      generate: [
        GenerateSpec(
          id: "words", command: ["sh", "-c", "echo PUBLIC > \"$RIPPLE_OUTPUT_DIR/words.txt\""],
          destination: "Sources/Words/Resources", privateAsset: "words-private")
      ])
  }

  @Test func withAccessThePrivateAssetReplacesTheCommand() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let report = try await repo.bootstrapper(testFetcher(["words-private": Self.privateWords], log: log)).run(
      Self.withPrivate())
    try report.check()
    #expect(report.assets.isEmpty)
    #expect(Self.statuses(report).mapValues(Self.kind) == ["words": "installed private"])
    #expect(repo.snapshot("Sources/Words/Resources") == ["words.txt": "PRIVATE\n"])
    #expect(repo.read(".build/ripple/receipts/words-private.json") == nil)
    let again = try await repo.bootstrapper(testFetcher([:], log: log)).run(Self.withPrivate())
    #expect(Self.statuses(again).mapValues(Self.kind) == ["words": "up to date private"])
  }

  @Test func withoutAccessTheCommandRunsAndSaysWhy() async throws {
    let repo = try TestRepository()
    let denied = testFetcher([:], log: FetchLog(), access: .denied("HTTP 403"))
    let report = try await repo.bootstrapper(denied).run(Self.withPrivate())
    try report.check()
    #expect(Self.statuses(report).mapValues(Self.kind) == ["words": "installed generated"])
    #expect(report.generated.first?.commandReason == "no access to asset words-private: HTTP 403")
    #expect(repo.snapshot("Sources/Words/Resources") == ["words.txt": "PUBLIC\n"])

    // Access later: the private file replaces the generated one (same receipt, no "unmanaged" file).
    let granted = try await repo.bootstrapper(testFetcher(["words-private": Self.privateWords], log: FetchLog()))
      .run(Self.withPrivate())
    try granted.check()
    #expect(repo.snapshot("Sources/Words/Resources") == ["words.txt": "PRIVATE\n"])

    let publicRun = try await repo.bootstrapper(testFetcher([:], log: FetchLog()), mode: .public).run(
      Self.withPrivate())
    #expect(publicRun.generated.first?.commandReason == "--public")
    #expect(repo.snapshot("Sources/Words/Resources") == ["words.txt": "PUBLIC\n"])
  }

  @Test func requirePrivateMakesMissingAccessAnError() async throws {
    let repo = try TestRepository()
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(
        testFetcher([:], log: FetchLog(), access: .denied("HTTP 403")), mode: .requirePrivate
      )
      .run(Self.withPrivate())
    }
    #expect(error == .accessRequired(asset: "words-private", reason: "HTTP 403"))
    #expect(error.category == .environment)
    #expect(!FileManager.default.fileExists(atPath: repo.path("Sources/Words")))
  }

  @Test func aBrokenPrivateAssetIsNotStoodInForByTheCommand() async throws {
    let repo = try TestRepository()
    let notFound = FetchError(
      .notFound, assetID: "words-private", "asset 'words-private': https://assets.test/words.txt answered HTTP 404")
    let error = try await expectAssetsError {
      _ = try await repo.bootstrapper(testFetcher([:], log: FetchLog(), access: .broken(notFound))).run(
        Self.withPrivate())
    }
    #expect(
      error
        == .sourceBroken(
          asset: "words-private", reason: "https://assets.test/words.txt answered HTTP 404", category: .environment))
    #expect(!FileManager.default.fileExists(atPath: repo.path("Sources/Words")), "the command did not run")
  }

  @Test func anEntryAfterAFailedAssetIsSkipped() async throws {
    let repo = try TestRepository()
    var asset = AssetSpec.test("fonts", data: Data("font".utf8), destination: "Sources/Fonts/Resources")
    asset.size = nil
    let config = AssetsConfig(
      assets: [asset],
      generate: [
        GenerateSpec(
          id: "index", command: ["sh", "-c", "ls Sources/Fonts/Resources > \"$RIPPLE_OUTPUT_DIR/index.txt\""],
          destination: "Sources/Index/Resources", after: ["fonts"])
      ])
    let report = try await repo.bootstrapper(testFetcher(["fonts": Data("other".utf8)], log: FetchLog())).run(config)
    #expect(report.failures.count == 2)
    #expect(report.failures.last == .generateSkipped(entry: "index", after: ["fonts"]))
    #expect(!FileManager.default.fileExists(atPath: repo.path("Sources/Index")))
  }
}
