import Foundation
import RippleConfig
import Testing

@testable import AssetFetch

/// Credential values must never reach an error message or `FetchResult.origin`.
@Suite("Secrets stay secret")
struct SecretRedactionTests {
  @Test func noErrorOrOriginShowsASecret() async throws {
    try await HTTPSFixture.with { server in
      let wrongToken = "wrongtoken-9d8c7b6a"
      let password = "netrcpass-5e4f3a2b"
      let signature = "presignedsig-1a2b3c4d"
      let userinfoPassword = "userinfopw-7f6e5d4c"
      let netrc = server.directory + "/netrc"
      try "default login ripple password \(password)\n".write(toFile: netrc, atomically: true, encoding: .utf8)
      let environment = [
        "FONT_TOKEN": wrongToken, "NETRC": netrc, "AWS_KEY": "AKIAEXAMPLE", "AWS_SECRET": "awssecret-0011",
      ]
      let bearer = CredentialReference.bearerTokenEnvironment(variable: "FONT_TOKEN")
      let presigned = server.url("/denied-presigned") + "?X-Amz-Credential=AKIA&X-Amz-Signature=\(signature)"
      let userinfo = "https://ripple:\(userinfoPassword)@127.0.0.1:\(server.httpsPort)/private/10?token=\(signature)"

      let requests: [FetchRequest] = [
        server.request([server.url("/private/10")], credentials: bearer),
        server.request([server.url("/private/10")], credentials: .netrc(path: nil)),
        server.request([presigned], credentials: bearer),
        server.request([userinfo, presigned, server.url("/always500") + "?sig=\(signature)"], credentials: bearer),
        server.request([server.url("/login") + "?session=\(signature)"], credentials: bearer),
        server.request([server.url("/to-http/10") + "?sig=\(signature)"], credentials: bearer),
        FetchRequest(
          assetID: "fonts",
          source: .s3(
            S3Location(
              endpoint: "https://127.0.0.1:\(server.httpsPort)", bucket: "b", key: "k", region: "us-east-1",
              pathStyle: true)),
          credentials: .awsEnvironment(
            accessKeyVariable: "AWS_KEY", secretKeyVariable: "AWS_SECRET", sessionTokenVariable: nil),
          destination: server.destination()),
      ]
      var descriptions: [String] = []
      try await withFetcher(server.options(retries: 1, environment: environment)) { fetcher in
        for request in requests {
          let error = await fetchError { _ = try await fetcher.fetch(request) { _ in } }
          #expect(error != nil, "\(request.source) must fail")
          descriptions.append(error.map { "\($0) \(String(reflecting: $0))" } ?? "")
          descriptions.append("\(await fetcher.checkAccess(request))")
        }
        let ok = try await fetcher.fetch(server.request([server.url("/data/10") + "?X-Amz-Signature=\(signature)"])) {
          _ in
        }
        descriptions.append(ok.origin)
        #expect(ok.origin == server.url("/data/10"))
      }
      let secrets = [wrongToken, password, signature, userinfoPassword, "awssecret-0011", HTTPSFixture.token]
      for description in descriptions {
        for secret in secrets {
          #expect(!description.contains(secret), "\(description)")
        }
      }
      #expect(descriptions.count == requests.count * 2 + 1)
    }
  }

  /// A run-time link's path is as secret as its query (a pre-signed link may carry its token there): a 404 names
  /// the scheme, the host and where the link came from, for a download and for an access check.
  @Test func aRunTimeLinksPathIsNeverShownWhenItIsNotFound() async throws {
    try await HTTPSFixture.with { server in
      var request = server.request([server.url("/s3cret-path-4d5e/missing.bin")])
      request.link = "$AUDIO_URL"
      try await withFetcher(server.options(retries: 0)) { fetcher in
        let error = try #require(await fetchError { _ = try await fetcher.fetch(request) { _ in } })
        let access = await fetcher.checkAccess(request)
        guard case .broken(let accessError) = access else {
          Issue.record("a 404 is a broken source, got \(access)")
          return
        }
        for message in [error.message, accessError.message] {
          #expect(message.contains("https://127.0.0.1:\(server.httpsPort) (the URL from $AUDIO_URL)"), "\(message)")
          #expect(message.contains("404"), "\(message)")
          #expect(!message.contains("s3cret-path") && !message.contains("missing.bin"), "\(message)")
        }
      }
    }
  }
}
