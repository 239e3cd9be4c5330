import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import TestSupport
import Testing

/// `source: {https: {urlEnv: …}}` and `{https: {urlCommand: […]}}`: a download link known only at run time.
@Suite("bootstrap: URLs from the environment or a command")
struct RuntimeURLTests {
  let words = Data("apple\nbanana\n".utf8)
  let secretURL = "https://user:s3cretpw@assets.test/words.txt?X-Amz-Signature=sig123"

  private func asset(_ source: RuntimeURL) -> AssetSpec {
    var spec = AssetSpec.test("words", data: words, placeholders: [PlaceholderSpec(path: "words", contents: "-")])
    spec.source = .runtimeURL(source)
    return spec
  }

  /// Every file under `folder` (the checkout with its state, the cache) that contains `text`.
  private func files(containing text: String, under folder: String) throws -> [String] {
    let result = try Command.run(["grep", "-rl", "--", text, folder])
    return result.standardOutput.split(separator: "\n").map(String.init)
  }

  @Test func urlFromTheEnvironmentIsFetchedAndNeverWrittenDown() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let events = EventLog()
    let report = try await repo.bootstrapper(
      testFetcher(["words": words], log: log), environment: ["WORDS_URL": secretURL + "\n"], onEvent: events.add
    ).run(AssetsConfig(assets: [asset(.environment(variable: "WORDS_URL"))]))
    try report.check()
    #expect(log.requests.map(\.source) == [.https(urls: [secretURL])])  // trimmed; the password is accepted
    #expect(repo.read("Sources/App/Resources/words.txt") == "apple\nbanana\n")
    #expect(try files(containing: "s3cretpw", under: repo.base).isEmpty)
    #expect(try files(containing: "sig123", under: repo.base).isEmpty)
    #expect(!events.lines.joined().contains("s3cretpw") && !events.lines.joined().contains("sig123"))
  }

  @Test func urlFromACommandRunsItOnceWithoutAShell() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let counter = repo.base + "/count"
    // argv, no shell: `$0` is printf's own argument, and `;` would be printed, not run.
    let command = ["sh", "-c", "echo x >> \"$0\"; printf '  %s\\n' \"$1\"", counter, secretURL]
    var second = asset(.command(command))
    second.id = "words2"
    second.destination = "Sources/Other/Resources"
    let report = try await repo.bootstrapper(testFetcher(["words": words, "words2": words], log: log)).run(
      AssetsConfig(assets: [asset(.command(command)), second]))
    try report.check()
    #expect(Set(log.requests.map(\.source)) == [.https(urls: [secretURL])])
    #expect(try String(contentsOfFile: counter, encoding: .utf8) == "x\n")
  }

  @Test func noURLMeansNoAccessAndSaysWhy() async throws {
    let cases: [(RuntimeURL, [String: String], String)] = [
      (.environment(variable: "WORDS_URL_UNSET_X"), [:], "$WORDS_URL_UNSET_X is not set"),
      (.environment(variable: "WORDS_URL"), ["WORDS_URL": "  "], "$WORDS_URL is empty"),
      (
        .environment(variable: "WORDS_URL"), ["WORDS_URL": "ftp://x:pw@h/a"],
        "$WORDS_URL holds something that is not an http(s) URL (not shown)"
      ),
      (.command(["ripple-no-such-tool-xyz", "get"]), [:], "`ripple-no-such-tool-xyz` (the urlCommand) is not on PATH"),
      (
        .command(["sh", "-c", "echo 'not logged in' >&2; exit 4"]), [:],
        "`sh -c echo 'not logged in' >&2; exit 4` exited with status 4: not logged in"
      ),
      (.command(["true"]), [:], "`true` printed no URL"),
      (
        // A signing service's error quoting its own request: the token in it is never shown.
        .command(["sh", "-c", "printf 'denied: GET /v1/sign?%s=%s\\n' token tok3n-x9 >&2; exit 2"]), [:],
        "`sh -c printf 'denied: GET /v1/sign?%s=%s\\n' token tok3n-x9 >&2; exit 2` exited with status 2: "
          + "denied: GET /v1/sign"
      ),
    ]
    for (source, environment, reason) in cases {
      let repo = try TestRepository()
      let log = FetchLog()
      let report = try await repo.bootstrapper(
        testFetcher(["words": words], log: log), environment: environment
      ).run(AssetsConfig(assets: [asset(source)]))
      try report.check()
      #expect(report.assets[0].placeholderReason == reason)
      #expect(repo.read("Sources/App/Resources/words") == "-")
      #expect(log.requests.isEmpty && log.accessChecks.isEmpty)

      let error = try await expectAssetsError {
        _ = try await repo.bootstrapper(
          testFetcher(["words": words], log: log), mode: .requirePrivate, environment: environment
        ).run(AssetsConfig(assets: [asset(source)]))
      }
      #expect(error == .accessRequired(asset: "words", reason: reason))
      #expect(error.category.exitCode == 3)
      #expect(!error.description.contains("pw@"))
    }
  }

  @Test func theLinkIsNeverShownInARealFetchFailure() async throws {
    let repo = try TestRepository()
    // Nothing listens on port 1: a broken source, not "no access"; the message names the host and the variable,
    // never the link's password, path or signature.
    let url = "https://user:s3cretpw@127.0.0.1:1/t0ken-path/words.txt?X-Amz-Signature=sig123"
    let options = FetchOptions(
      timeout: .seconds(5), retries: 0, environment: ["WORDS_URL": url], repositoryRoot: repo.root)
    let error = try await Fetcher.withLive(options: options) { fetcher in
      try await expectAssetsError {
        try await repo.bootstrapper(fetcher, environment: ["WORDS_URL": url]).run(
          AssetsConfig(assets: [asset(.environment(variable: "WORDS_URL"))])
        ).check()
      }
    }
    guard case .sourceBroken("words", let reason, .environment) = error else { throw error }
    #expect(reason.hasPrefix("https://127.0.0.1:1 (the URL from $WORDS_URL): 127.0.0.1 refused the connection"))
    for secret in ["s3cretpw", "sig123", "t0ken-path", "words.txt"] {
      #expect(!error.description.contains(secret), "\(secret) in \(error)")
    }
    #expect(repo.read("Sources/App/Resources/words") == nil, "no placeholder for a broken link")
  }

  @Test func theSha256PinStillApplies() async throws {
    let repo = try TestRepository()
    var spec = asset(.environment(variable: "WORDS_URL"))
    spec.size = nil
    let report = try await repo.bootstrapper(
      testFetcher(["words": Data("tampered".utf8)], log: FetchLog()), environment: ["WORDS_URL": secretURL]
    ).run(AssetsConfig(assets: [spec]))
    guard case .checksumMismatch("words", _, _, let origin) = try #require(report.failures.first) else {
      throw try #require(report.failures.first)
    }
    #expect(!origin.contains("s3cretpw") && !origin.contains("sig123"))
    #expect(repo.read("Sources/App/Resources/words.txt") == nil)
  }
}
