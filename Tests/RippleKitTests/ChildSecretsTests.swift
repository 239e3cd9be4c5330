import Foundation
import RippleConfig
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import RippleKit

/// Every process a workspace starts goes without the signing key and the store's credentials
/// (docs/DESIGN.md, "Secrets and child processes").
@Suite struct ChildSecretsTests {
  @Test func aConfigNamesItsSigningKeyAndEveryStoreCredentialVariable() {
    let s3 = ResultCacheConfig(
      store: .s3(
        S3Location(endpoint: "https://s3.r.amazonaws.com", bucket: "b", key: "", region: "r", pathStyle: false),
        credentials: .awsEnvironment(
          accessKeyVariable: "CI_AK", secretKeyVariable: "CI_SK", sessionTokenVariable: "CI_ST")),
      signingKeyVariable: "CI_SIGNING")
    #expect(s3.secretVariables == ["CI_SIGNING", "CI_AK", "CI_SK", "CI_ST"])
    let rippled = ResultCacheConfig(store: .rippled(url: "https://r.example", tokenVariable: "RIPPLED_TOKEN"))
    #expect(rippled.secretVariables == ["RIPPLE_RESULT_SIGNING_KEY", "RIPPLED_TOKEN"])
    let bazel = ResultCacheConfig(
      store: .bazelHTTP(url: "https://cache.example", credentials: .bearerTokenEnvironment(variable: "CACHE_TOKEN")))
    #expect(bazel.secretVariables == ["RIPPLE_RESULT_SIGNING_KEY", "CACHE_TOKEN"])
    #expect(ResultCacheConfig().secretVariables == ["RIPPLE_RESULT_SIGNING_KEY"])
    let defaultS3 = ResultCacheConfig(
      store: .s3(
        S3Location(endpoint: "https://s3.r.amazonaws.com", bucket: "b", key: "", region: "r", pathStyle: false),
        credentials: .awsEnvironment(
          accessKeyVariable: "AWS_ACCESS_KEY_ID", secretKeyVariable: "AWS_SECRET_ACCESS_KEY",
          sessionTokenVariable: "AWS_SESSION_TOKEN")))
    #expect(
      defaultS3.secretVariables == [
        "RIPPLE_RESULT_SIGNING_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
      ])
  }

  @Test func aWorkspaceWithholdsTheConfiguredSecretsFromEveryProcess() async throws {
    let repository = try GitFixture()
    try repository.write(
      "ripple.yml",
      """
      test:
        resultCache:
          store: bazel+https://cache.example/ac-root
          credentials: {bearerTokenEnv: CACHE_TOKEN}
          signingKeyEnv: CI_SIGNING_KEY

      """)
    try repository.commitAll("init")
    let seen = Locked<[ProcessRequest]>([])
    let process = ProcessClient { request in
      seen.withLock { $0.append(request) }
      return ProcessResult(request: request, exitStatus: 0, standardOutput: Data(), standardError: Data())
    }
    let services = RippleServices(
      process: process, environment: ["CACHE_TOKEN": "t0ken", "CI_SIGNING_KEY": "k3y", "AWS_SECRET_ACCESS_KEY": "s"])
    let workspace = try Workspace.open(directory: repository.root, services: services)
    #expect(workspace.configuration.test.resultCache.signingKeyVariable == "CI_SIGNING_KEY")
    _ = try await workspace.services.process.run(
      ProcessRequest("swift", ["test"], environment: ["CACHE_TOKEN": "passed on by a generate: list"]))
    let request = try #require(seen.withLock { $0.first })
    for name in ["CACHE_TOKEN", "CI_SIGNING_KEY", "RIPPLE_RESULT_SIGNING_KEY"] {
      #expect(request.environment[name] == .some(nil), "\(name) is removed")
    }
    #expect(request.environment["AWS_SECRET_ACCESS_KEY"] == nil, "not this store's: the tests may need it")
  }
}
