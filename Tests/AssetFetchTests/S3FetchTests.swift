import Foundation
import Testing

@testable import AssetFetch

/// Against moto with authentication on: moto recomputes each SigV4 signature with the secret it
/// issued, so a download only succeeds when our signing matches AWS's.
@Suite("S3 against moto", .s3Server)
struct S3FetchTests {
  @Test func signedGetDownloadsTheObject() async throws {
    let s3 = try S3Fixture.suiteServer()
    let request = s3.request()
    let progress = ProgressRecorder()
    let (result, access) = try await withFetcher(s3.options()) { fetcher in
      (try await fetcher.fetch(request, progress.callback), await fetcher.checkAccess(request))
    }
    #expect(String(decoding: contents(request.destination), as: UTF8.self) == s3.content)
    #expect(result.bytes == Int64(s3.content.utf8.count))
    #expect(result.origin.hasPrefix("s3://assets/fonts/Mono Regular.ttf"))
    #expect(progress.recorded.last?.receivedBytes == result.bytes)
    #expect(access == .granted)
  }

  @Test func wrongSecretIsDenied() async throws {
    let s3 = try S3Fixture.suiteServer()
    let sleeps = SleepRecorder()
    let (error, access) = try await withFetcher(s3.options(secretKey: "not-the-secret-key"), runtime: sleeps.runtime) {
      fetcher in
      (
        await fetchError { _ = try await fetcher.fetch(s3.request()) { _ in } },
        await fetcher.checkAccess(s3.request())
      )
    }
    #expect(error?.kind == .accessDenied)
    #expect(error?.description.contains("SignatureDoesNotMatch") == true)
    #expect(error?.description.contains("not-the-secret-key") == false)
    #expect(sleeps.recorded.isEmpty)
    if case .denied = access {} else { Issue.record("expected denied, got \(access)") }
  }

  @Test func unknownAccessKeyIsDenied() async throws {
    let s3 = try S3Fixture.suiteServer()
    let error = try await withFetcher(s3.options(accessKey: "AKIAUNKNOWNKEY000000")) { fetcher in
      await fetchError { _ = try await fetcher.fetch(s3.request()) { _ in } }
    }
    #expect(error?.kind == .accessDenied)
    #expect(error?.description.contains("InvalidAccessKeyId") == true)
  }

  @Test func missingObjectIsNotFound() async throws {
    let s3 = try S3Fixture.suiteServer()
    let error = try await withFetcher(s3.options()) { fetcher in
      await fetchError { _ = try await fetcher.fetch(s3.request(key: "fonts/missing.ttf")) { _ in } }
    }
    #expect(error?.kind == .notFound)
    #expect(error?.description.contains("NoSuchKey") == true)
    #expect(error?.isAccessProblem == false)
  }

  @Test func missingVariablesAreMissingCredentials() async throws {
    let s3 = try S3Fixture.suiteServer()
    var options = s3.options()
    options.environment = [:]
    let status = try await withFetcher(options) { await $0.checkAccess(s3.request()) }
    guard case .missingCredentials(let message) = status else {
      Issue.record("expected missing credentials, got \(status)")
      return
    }
    #expect(message.contains("RIPPLE_AWS_KEY") && message.contains("RIPPLE_AWS_SECRET"))
  }
}
