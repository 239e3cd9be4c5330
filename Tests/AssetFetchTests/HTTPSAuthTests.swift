import Foundation
import RippleConfig
import Testing

@testable import AssetFetch

@Suite("HTTPS: credentials and redirects")
struct HTTPSAuthTests {
  let bearer = CredentialReference.bearerTokenEnvironment(variable: "FONT_TOKEN")
  let environment = ["FONT_TOKEN": HTTPSFixture.token]

  @Test func bearerTokenDownloadStreamsWithProgress() async throws {
    try await HTTPSFixture.with { server in
      let progress = ProgressRecorder()
      let request = server.request([server.url("/private/300000")], credentials: bearer, expectedSize: 300_000)
      let result = try await withFetcher(server.options(environment: environment)) { fetcher in
        try await fetcher.fetch(request, progress.callback)
      }
      #expect(result.bytes == 300_000)
      #expect(result.origin == server.url("/private/300000"))
      #expect(contents(request.destination) == serverBody(300_000))
      let reports = progress.recorded
      #expect(reports.last == FetchProgress(assetID: "fonts", receivedBytes: 300_000, totalBytes: 300_000))
      #expect(reports.count > 2, "progress is reported while the body streams")
      #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.receivedBytes <= $1.receivedBytes })
    }
  }

  @Test func unsetTokenVariableIsMissingCredentials() async throws {
    try await HTTPSFixture.with { server in
      let error = await fetchError {
        try await withFetcher(server.options(environment: ["FONT_TOKEN": ""])) { fetcher in
          _ = try await fetcher.fetch(server.request([server.url("/private/10")], credentials: bearer)) { _ in }
        }
      }
      #expect(error?.kind == .missingCredentials)
      #expect(error?.isAccessProblem == true)
      #expect(error?.description.contains("FONT_TOKEN") == true)
      let serverLog = try await server.log()
      #expect(serverLog.filter { $0.path == "/private/10" }.isEmpty, "nothing is sent without credentials")
    }
  }

  @Test func wrongTokenIsDeniedWithoutRetry() async throws {
    try await HTTPSFixture.with { server in
      let sleeps = SleepRecorder()
      let error = await fetchError {
        try await withFetcher(server.options(environment: ["FONT_TOKEN": "wrong"]), runtime: sleeps.runtime) {
          _ = try await $0.fetch(server.request([server.url("/private/10")], credentials: bearer)) { _ in }
        }
      }
      #expect(error?.kind == .accessDenied)
      if case .denied = error?.accessStatus {
      } else {
        Issue.record("expected a denied access status: \(String(describing: error))")
      }
      #expect(error?.description.contains("HTTP 401") == true)
      #expect(sleeps.recorded.isEmpty)
      let serverLog = try await server.log()
      #expect(serverLog.filter { $0.path == "/private/10" }.count == 1)
    }
  }

  @Test func netrcLoginIsSentAsBasicAuth() async throws {
    try await HTTPSFixture.with { server in
      let netrc = server.directory + "/netrc"
      try
        "machine other.example login x password y\nmachine 127.0.0.1\n  login ripple\n  password \(HTTPSFixture.token)\n"
        .write(toFile: netrc, atomically: true, encoding: .utf8)
      let request = server.request([server.url("/private/64")], credentials: .netrc(path: nil))
      _ = try await withFetcher(server.options(environment: ["NETRC": netrc])) {
        try await $0.fetch(request) { _ in }
      }
      #expect(contents(request.destination) == serverBody(64))
    }
  }

  @Test func sameHostRedirectKeepsCredentials() async throws {
    try await HTTPSFixture.with { server in
      let request = server.request([server.url("/redirect-same-host/100")], credentials: bearer)
      _ = try await withFetcher(server.options(environment: environment)) { try await $0.fetch(request) { _ in } }
      #expect(contents(request.destination) == serverBody(100))
    }
  }

  @Test func redirectToAnotherHostDropsCredentials() async throws {
    try await HTTPSFixture.with { server in
      let request = server.request([server.url("/redirect-other-host/100")], credentials: bearer)
      _ = try await withFetcher(server.options(environment: environment)) { try await $0.fetch(request) { _ in } }
      #expect(contents(request.destination) == serverBody(100))
      let log = try await server.log()
      let first = log.first { $0.path == "/redirect-other-host/100" }
      let landing = log.first { $0.path == "/landing/100" }
      #expect(first?.authorization == true)
      #expect(landing?.authorization == false)
      #expect(landing?.host?.hasPrefix("localhost:") == true)
    }
  }

  @Test func httpsToHttpRedirectIsRefused() async throws {
    try await HTTPSFixture.with { server in
      let error = await fetchError {
        try await withFetcher(server.options(allowInsecureHTTP: true)) {
          _ = try await $0.fetch(server.request([server.url("/to-http/10")])) { _ in }
        }
      }
      #expect(error?.kind == .insecure)
      #expect(error?.description.contains("never continued over plain http") == true)
      let serverLog = try await server.log()
      #expect(serverLog.filter { $0.path == "/data/10" }.isEmpty)
    }
  }

  @Test func plainHTTPNeedsTheFlag() async throws {
    try await HTTPSFixture.with { server in
      let refused = await fetchError {
        try await withFetcher(server.options()) {
          _ = try await $0.fetch(server.request([server.httpURL("/data/10")])) { _ in }
        }
      }
      #expect(refused?.kind == .plainHTTP)
      #expect(refused?.description.contains("--allow-insecure-http") == true)

      let request = server.request([server.httpURL("/data/10")])
      _ = try await withFetcher(server.options(allowInsecureHTTP: true)) { try await $0.fetch(request) { _ in } }
      #expect(contents(request.destination) == serverBody(10))
    }
  }

  @Test func redirectLoopStopsAfterTenHops() async throws {
    try await HTTPSFixture.with { server in
      let error = await fetchError {
        try await withFetcher(server.options()) {
          _ = try await $0.fetch(server.request([server.url("/loop")])) { _ in }
        }
      }
      #expect(error?.kind == .redirect)
      let serverLog = try await server.log()
      #expect(serverLog.filter { $0.path == "/loop" }.count == 11)
    }
  }

  @Test func htmlLoginPageIsNotTheAsset() async throws {
    try await HTTPSFixture.with { server in
      let error = await fetchError {
        try await withFetcher(server.options()) {
          _ = try await $0.fetch(server.request([server.url("/login")])) { _ in }
        }
      }
      #expect(error?.kind == .htmlPage)
      #expect(
        error?.description.hasPrefix("server returned an HTML page (a login or error page?) instead of fonts") == true)

      let page = server.request([server.url("/page.html")])
      _ = try await withFetcher(server.options()) { try await $0.fetch(page) { _ in } }
      #expect(String(decoding: contents(page.destination), as: UTF8.self).contains("asset"))
    }
  }

  @Test func checkAccessReportsEachCase() async throws {
    try await HTTPSFixture.with { server in
      let url = server.url("/private/10")
      let granted = try await withFetcher(server.options(environment: environment)) {
        await $0.checkAccess(server.request([url], credentials: bearer))
      }
      #expect(granted == .granted)
      let statuses = try await withFetcher(server.options(environment: ["FONT_TOKEN": "wrong"])) { fetcher in
        [
          await fetcher.checkAccess(server.request([url], credentials: bearer)),
          await fetcher.checkAccess(server.request([url], credentials: .bearerTokenEnvironment(variable: "UNSET"))),
          await fetcher.checkAccess(server.request([server.url("/login")])),
        ]
      }
      guard case .denied = statuses[0], case .missingCredentials = statuses[1], case .denied = statuses[2] else {
        Issue.record("unexpected statuses \(statuses)")
        return
      }
      let probes = try await server.log().filter { $0.path == "/private/10" }
      #expect(probes.allSatisfy { $0.range == "bytes=0-0" })
    }
  }
}
