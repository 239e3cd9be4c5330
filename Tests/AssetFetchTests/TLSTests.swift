import Foundation
import TestSupport
import Testing

@testable import AssetFetch

@Suite("HTTPS: trust")
struct TLSTests {
  @Test func withoutTheCABundleTheHandshakeFails() async throws {
    try await HTTPSFixture.with { server in
      let sleeps = SleepRecorder()
      let error = await fetchError {
        try await withFetcher(server.options(trustCA: false), runtime: sleeps.runtime) {
          _ = try await $0.fetch(server.request([server.url("/data/10")])) { _ in }
        }
      }
      #expect(error?.kind == .tls)
      #expect(error?.description.contains("TLS handshake") == true)
      #expect(error?.description.contains("--ca-bundle") == true)
      #expect(sleeps.recorded.isEmpty, "a certificate problem is not retried")
    }
  }

  @Test func anUnrelatedCABundleDoesNotHelp() async throws {
    try await HTTPSFixture.with { server in
      var options = server.options()
      options.caBundlePath = server.certificates.otherCAPath
      let error = await fetchError {
        try await withFetcher(options) { _ = try await $0.fetch(server.request([server.url("/data/10")])) { _ in } }
      }
      #expect(error?.kind == .tls)
    }
  }

  @Test func theServerCertificateIsValidForLocalhostToo() async throws {
    try await HTTPSFixture.with { server in
      let request = server.request([server.url("/data/10", host: "localhost")])
      _ = try await withFetcher(server.options()) { try await $0.fetch(request) { _ in } }
      #expect(contents(request.destination) == serverBody(10))
    }
  }

  @Test func anUnreadableCABundleIsAClearError() async throws {
    try await withTemporaryDirectory { directory in
      let options = FetchOptions(caBundlePath: directory + "/nope.pem", repositoryRoot: directory)
      let error = await fetchError {
        try await withFetcher(options) { fetcher in
          _ = try await fetcher.fetch(
            FetchRequest(
              assetID: "fonts", source: .https(urls: ["https://127.0.0.1:1/x"]), destination: directory + "/d")
          ) { _ in }
        }
      }
      #expect(error?.kind == .invalidSource)
      #expect(error?.description.contains("nope.pem") == true)
      #expect(error?.category == .usage)
    }
  }
}
