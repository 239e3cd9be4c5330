import Foundation
import RippleConfig
import Testing

@testable import AssetFetch

@Suite("Parsing: netrc, Retry-After, Content-Range, credentials")
struct ParsingTests {
  @Test func netrcMachinesDefaultAndMacros() {
    let netrc = Netrc(
      parsing: """
        # comment
        machine assets.example.com login alice password "p a\\"ss"
        macdef init
        cd /pub
        login notme

        machine other.example.com
          login bob
          password two
        default login anonymous password guest
        """)
    #expect(netrc.entry(forHost: "ASSETS.example.com") == Netrc.Entry(login: "alice", password: "p a\"ss"))
    #expect(netrc.entry(forHost: "other.example.com") == Netrc.Entry(login: "bob", password: "two"))
    #expect(netrc.entry(forHost: "unknown.example.com") == Netrc.Entry(login: "anonymous", password: "guest"))
    #expect(Netrc(parsing: "machine a login x password y").entry(forHost: "b") == nil)
  }

  @Test func netrcPathPrecedence() {
    #expect(CredentialResolver.netrcPath("/explicit", environment: ["NETRC": "/env"]) == "/explicit")
    #expect(CredentialResolver.netrcPath(nil, environment: ["NETRC": "/env", "HOME": "/home/u"]) == "/env")
    #expect(CredentialResolver.netrcPath(nil, environment: ["HOME": "/home/u"]) == "/home/u/.netrc")
  }

  @Test func missingAWSVariablesAreNamed() {
    let reference = CredentialReference.awsEnvironment(
      accessKeyVariable: "KEY", secretKeyVariable: "SECRET", sessionTokenVariable: "TOKEN")
    #expect(throws: FetchError.self) {
      try CredentialResolver.resolve(reference, host: nil, assetID: "a", environment: ["KEY": "k"])
    }
    do {
      _ = try CredentialResolver.resolve(reference, host: nil, assetID: "a", environment: ["KEY": "k"])
    } catch {
      #expect(error.kind == .missingCredentials)
      #expect(error.message.contains("SECRET") && !error.message.contains("KEY and"))
    }
    let resolved = try? CredentialResolver.resolve(
      reference, host: nil, assetID: "a", environment: ["KEY": "k", "SECRET": "s", "TOKEN": ""])
    guard case .aws(let aws) = resolved else {
      Issue.record("expected AWS credentials")
      return
    }
    #expect(aws == AWSCredentials(accessKey: "k", secretKey: "s", sessionToken: nil))
  }

  @Test func retryAfterSecondsDatesAndCap() {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    var runtime = FetchRuntime(sleep: { _ in }, now: { now }, random: { 1 })
    #expect(runtime.parseRetryAfter("12") == .seconds(12))
    #expect(runtime.parseRetryAfter("Tue, 14 Nov 2023 22:13:40 GMT") == .seconds(20))
    #expect(runtime.parseRetryAfter("soon") == nil)
    #expect(runtime.delay(beforeRetry: 1, retryAfter: .seconds(3600)) == .seconds(30))
    runtime.random = { 0.999 }
    #expect(runtime.delay(beforeRetry: 30, retryAfter: nil) <= .seconds(8))
    runtime.random = { 0 }
    #expect(runtime.delay(beforeRetry: 2, retryAfter: nil) == .milliseconds(500))
  }

  @Test func contentRangeHeaders() {
    let range = ContentRange("bytes 100-199/1000")
    #expect(range?.start == 100 && range?.end == 199 && range?.total == 1000)
    #expect(ContentRange("bytes */1000")?.total == 1000)
    #expect(ContentRange("bytes 0-9/*")?.total == nil)
    #expect(ContentRange("items 0-9/10") == nil)
  }

  @Test func accessStatusOfMirrorLists() {
    let denied = FetchError(.accessDenied, assetID: "a", "denied")
    let missing = FetchError(.notFound, assetID: "a", "404")
    let broken = FetchError(.server, assetID: "a", "500")
    if case .denied = HTTPTransfer.combine([denied, missing], assetID: "a").accessStatus {
    } else {
      Issue.record("denied + not found is an access problem")
    }
    #expect(HTTPTransfer.combine([denied, broken], assetID: "a").accessStatus == nil)
    #expect(HTTPTransfer.combine([missing, missing], assetID: "a").accessStatus == nil)
  }
}
