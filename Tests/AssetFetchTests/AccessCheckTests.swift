import Foundation
import RippleConfig
import Testing

@testable import AssetFetch

/// `checkAccess` tells "no access" (placeholders may stand in) from a broken or misconfigured source (the asset
/// fails): only missing credentials, 401 and 403 are no access.
@Suite("access: a broken source is not 'no access'", .httpsServer)
struct AccessCheckTests {
  let bearer = CredentialReference.bearerTokenEnvironment(variable: "FONT_TOKEN")

  /// The status of `request`, with retries recorded instead of slept.
  private func status(
    _ request: FetchRequest, _ options: FetchOptions, sleeps: SleepRecorder = SleepRecorder()
  ) async throws -> AccessStatus {
    try await withFetcher(options, runtime: sleeps.runtime) { await $0.checkAccess(request) }
  }

  /// The error of a `.broken` status, or an issue naming what came instead.
  private func brokenError(_ status: AccessStatus) -> FetchError? {
    guard case .broken(let error) = status else {
      Issue.record("expected a broken source, got \(status)")
      return nil
    }
    #expect(!error.message.contains("errno"), "a sentence, not NIO's text: \(error.message)")
    return error
  }

  @Test func notFoundIsBroken() async throws {
    let server = try HTTPSFixture.suiteServer()
    let error = brokenError(try await status(server.request([server.url("/missing")]), server.options()))
    #expect(error?.kind == .notFound)
    #expect(error?.category == .environment)
    #expect(error?.message.contains(server.url("/missing")) == true)
  }

  @Test func notFoundAfterATransientFailureIsBrokenNotNoAccess() async throws {
    let server = try HTTPSFixture.suiteServer()
    let sleeps = SleepRecorder()
    let request = server.request([server.url("/flaky-missing/access-check")])
    let error = brokenError(try await status(request, server.options(retries: 2), sleeps: sleeps))
    #expect(error?.kind == .notFound, "the answer of the retry, not the 503 before it")
    #expect(sleeps.recorded.count == 1, "the 503 is retried once, the 404 is final")
  }

  @Test func refusedConnectionIsBrokenAndSaidInWords() async throws {
    let server = try HTTPSFixture.suiteServer()
    // Nothing listens on port 1 of the loopback interface.
    let error = brokenError(
      try await status(server.request(["https://127.0.0.1:1/fonts/mono.zip"]), server.options(retries: 1)))
    #expect(error?.kind == .connectionRefused)
    #expect(error?.category == .environment)
    #expect(
      error?.message
        == "asset 'fonts': https://127.0.0.1:1/fonts/mono.zip: 127.0.0.1 refused the connection on port 1 (nothing "
        + "listens there); check the URL and that the server is running")
  }

  @Test func unknownHostIsBroken() async throws {
    let server = try HTTPSFixture.suiteServer()
    // `.invalid` never resolves (RFC 2606).
    let error = brokenError(
      try await status(
        server.request(["https://assets.ripple-test.invalid/fonts/mono.zip"]), server.options(retries: 0)))
    #expect(error?.kind == .unknownHost)
    #expect(error?.category == .environment)
    #expect(error?.message.contains("https://assets.ripple-test.invalid/fonts/mono.zip") == true)
    #expect(error?.message.contains("the host name assets.ripple-test.invalid does not resolve") == true)
  }

  @Test func plainHTTPIsAMisconfigurationNotNoAccess() async throws {
    let server = try HTTPSFixture.suiteServer()
    let error = brokenError(
      try await status(server.request([server.httpURL("/data/10?plain-http-probe")]), server.options()))
    #expect(error?.kind == .plainHTTP)
    #expect(error?.category == .usage)
    #expect(error?.message.contains("--allow-insecure-http") == true)
    #expect(error?.message.contains("plain-http-probe") == false, "no query string")
  }

  @Test func missingFileIsAMisconfigurationNotNoAccess() async throws {
    let server = try HTTPSFixture.suiteServer()
    let request = FetchRequest(assetID: "fonts", source: .file(path: "no-such/mono.zip"), destination: "")
    let error = brokenError(try await status(request, server.options()))
    #expect(error?.kind == .missingFile)
    #expect(error?.category == .usage)
    #expect(error?.message.contains(server.directory + "/no-such/mono.zip") == true)
  }

  @Test func missingCredentialsAreNoAccess() async throws {
    let server = try HTTPSFixture.suiteServer()
    let status = try await status(server.request([server.url("/private/10")], credentials: bearer), server.options())
    guard case .missingCredentials(let why) = status else {
      Issue.record("expected missing credentials, got \(status)")
      return
    }
    #expect(why.contains("FONT_TOKEN"))
  }

  @Test func unauthorizedIsNoAccess() async throws {
    let server = try HTTPSFixture.suiteServer()
    let status = try await status(
      server.request([server.url("/private/10")], credentials: bearer),
      server.options(environment: ["FONT_TOKEN": "wrong"]))
    guard case .denied(let why) = status else {
      Issue.record("expected denied, got \(status)")
      return
    }
    #expect(why.contains("HTTP 401"))
  }

  @Test func forbiddenIsNoAccess() async throws {
    let server = try HTTPSFixture.suiteServer()
    let status = try await status(server.request([server.url("/denied-presigned?X-Amz-Signature=s")]), server.options())
    guard case .denied(let why) = status else {
      Issue.record("expected denied, got \(status)")
      return
    }
    #expect(why.contains("HTTP 403"))
  }

  @Test func aSecretLinkIsShownByItsOriginOnly() async throws {
    let server = try HTTPSFixture.suiteServer()
    let link = "https://user:pa55word@127.0.0.1:1/t0ken-in-path/mono.zip?X-Amz-Signature=s1gnature"
    var request = server.request([link])
    request.link = "$FONTS_URL"
    let error = brokenError(try await status(request, server.options(retries: 0)))
    let message = error?.message ?? ""
    #expect(message.contains("https://127.0.0.1:1 (the URL from $FONTS_URL)"), "\(message)")
    for secret in ["pa55word", "t0ken-in-path", "mono.zip", "s1gnature"] {
      #expect(!message.contains(secret), "\(secret) in \(message)")
    }
  }
}
