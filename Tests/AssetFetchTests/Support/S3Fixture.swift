import Foundation
import RippleConfig
import TestSupport

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
