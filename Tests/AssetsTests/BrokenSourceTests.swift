import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import Testing

/// A broken source fails its asset in every mode; placeholders stand in only where access is missing.
@Suite("bootstrap: a broken source is not 'no access'")
struct BrokenSourceTests {
  let words = Data("apple\nbanana\n".utf8)
  let notFound = FetchError(
    .notFound, assetID: "words", "asset 'words': https://assets.test/words.txt answered HTTP 404 (not found)")

  private var config: AssetsConfig {
    var other = AssetSpec.test("other", data: Data("other".utf8))
    other.destination = "Sources/Other/Resources"
    return AssetsConfig(assets: [
      .test("words", data: words, placeholders: [PlaceholderSpec(path: "words", contents: "-")]), other,
    ])
  }

  /// Serves `other`, and answers `words`' access check with `status`.
  private func fetcher(_ log: FetchLog, words status: AccessStatus) -> Fetcher {
    let served = testFetcher(["other": Data("other".utf8)], log: log)
    return Fetcher(
      fetch: served.fetch,
      checkAccess: { request in
        request.assetID == "words" ? status : await served.checkAccess(request)
      })
  }

  @Test(arguments: [AccessMode.auto, .requirePrivate])
  func aBrokenSourceFailsTheAssetAndNothingElse(mode: AccessMode) async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    let report = try await repo.bootstrapper(fetcher(log, words: .broken(notFound)), mode: mode).run(config)
    let expected = AssetsError.sourceBroken(
      asset: "words", reason: "https://assets.test/words.txt answered HTTP 404 (not found)", category: .environment)
    #expect(report.failures == [expected])
    #expect(report.failures.first?.category.exitCode == 3)
    #expect(repo.read("Sources/App/Resources/words") == nil, "no placeholder hides it")
    #expect(repo.read("Sources/Other/Resources/other") == "other", "the other asset is installed")
    #expect(log.requests.map(\.assetID) == ["other"])
  }

  @Test func upToDatePlaceholdersDoNotHideABrokenSource() async throws {
    let repo = try TestRepository()
    let log = FetchLog()
    try await repo.bootstrapper(fetcher(log, words: .granted), mode: .public).run(config).check()
    #expect(repo.read("Sources/App/Resources/words") == "-")

    let report = try await repo.bootstrapper(fetcher(log, words: .broken(notFound))).run(config)
    guard
      case .failed(.sourceBroken("words", _, .environment)) = report.assets.first(where: { $0.id == "words" })?
        .status
    else {
      Issue.record("expected the asset to fail, got \(report.assets)")
      return
    }
    #expect(repo.read("Sources/App/Resources/words") == "-", "the placeholders installed before are kept")
  }

  @Test func aMisconfiguredSourceIsAUsageError() async throws {
    let repo = try TestRepository()
    let plainHTTP = FetchError(
      .plainHTTP, assetID: "words", "asset 'words': http://assets.test/words.txt uses plain http; use an https URL")
    let report = try await repo.bootstrapper(fetcher(FetchLog(), words: .broken(plainHTTP))).run(config)
    let error = try #require(report.failures.first)
    #expect(
      error
        == .sourceBroken(
          asset: "words", reason: "http://assets.test/words.txt uses plain http; use an https URL", category: .usage))
    #expect(error.category.exitCode == 2)
    #expect(
      error.description
        == "asset `words`: its source cannot be used: http://assets.test/words.txt uses plain http; use an https URL."
        + " Nothing was installed for it: placeholders stand in only where access is missing.")
  }

  @Test(arguments: [
    AccessStatus.missingCredentials("$ASSETS_TOKEN is not set"), .denied("HTTP 401"), .denied("HTTP 403"),
  ])
  func noAccessStillGivesPlaceholders(status: AccessStatus) async throws {
    let repo = try TestRepository()
    let report = try await repo.bootstrapper(fetcher(FetchLog(), words: status)).run(config)
    try report.check()
    #expect(repo.read("Sources/App/Resources/words") == "-")
  }
}
