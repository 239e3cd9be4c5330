import Foundation
import RippleConfig
import TestSupport
import Testing

@testable import AssetFetch

/// moto's S3 (Helpers/s3_server.py) with SigV4 enforced, one IAM user, bucket and object.
struct S3Fixture: Sendable {
  var directory: String
  var port: Int
  var accessKey: String
  var secretKey: String
  var bucket: String
  var key: String
  var content: String

  private struct Ready: Decodable {
    var port: Int
    var accessKey: String
    var secretKey: String
    var bucket: String
    var key: String
    var content: String
  }

  /// The server of the running suite (`@Suite(.s3Server)`): one per suite, not one per test (starting moto costs
  /// about 1.3 s of CPU). Tests only read from it, each into a download file of its own.
  @TaskLocal static var current: S3Fixture?

  static func suiteServer() throws -> S3Fixture {
    try #require(current, "the suite needs the .s3Server trait")
  }

  static func with(_ body: (S3Fixture) async throws -> Void) async throws {
    try await withTemporaryDirectory { directory in
      let (server, data) = try await HelperProcess.start(
        script: helpersDirectory + "/s3_server.py", arguments: [], directory: directory)
      defer { server.stop() }
      let ready = try JSONDecoder().decode(Ready.self, from: data)
      try await body(
        S3Fixture(
          directory: directory, port: ready.port, accessKey: ready.accessKey, secretKey: ready.secretKey,
          bucket: ready.bucket, key: ready.key, content: ready.content))
    }
  }

  static let credentials = CredentialReference.awsEnvironment(
    accessKeyVariable: "RIPPLE_AWS_KEY", secretKeyVariable: "RIPPLE_AWS_SECRET", sessionTokenVariable: nil)

  func options(accessKey: String? = nil, secretKey: String? = nil) -> FetchOptions {
    FetchOptions(
      allowInsecureHTTP: true, timeout: .seconds(20), retries: 1,
      environment: ["RIPPLE_AWS_KEY": accessKey ?? self.accessKey, "RIPPLE_AWS_SECRET": secretKey ?? self.secretKey],
      repositoryRoot: directory)
  }

  func request(key: String? = nil, pathStyle: Bool = true) -> FetchRequest {
    FetchRequest(
      assetID: "fonts",
      source: .s3(
        S3Location(
          endpoint: "http://127.0.0.1:\(port)", bucket: bucket, key: key ?? self.key, region: "us-east-1",
          pathStyle: pathStyle)),
      credentials: Self.credentials, destination: directory + "/download-\(UUID().uuidString)")
  }
}

/// Starts moto once for the suite that carries it and stops it when the suite ends.
struct S3ServerTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await S3Fixture.with { s3 in try await S3Fixture.$current.withValue(s3) { try await function() } }
  }
}

extension Trait where Self == S3ServerTrait {
  static var s3Server: Self { Self() }
}
