import Foundation
import RippleConfig
import TestSupport
import Testing

/// moto's S3 (AssetFetchTests' Helpers/s3_server.py, `--empty-bucket records`) with SigV4 enforced, one IAM user
/// and an empty bucket it may write.
struct MotoServer: Sendable {
  var port: Int
  var accessKey: String
  var secretKey: String
  var bucket: String

  private struct Ready: Decodable {
    var port: Int
    var accessKey: String
    var secretKey: String
    var bucket: String
  }

  @TaskLocal static var current: MotoServer?

  static func suiteServer() throws -> MotoServer {
    try #require(current, "the suite needs the .moto trait")
  }

  static func with(_ body: (MotoServer) async throws -> Void) async throws {
    try await withTemporaryDirectory { directory in
      let (server, data) = try await HelperProcess.start(
        script: helpersDirectory + "/../../AssetFetchTests/Helpers/s3_server.py",
        arguments: ["--empty-bucket", "records"],
        directory: directory)
      defer { server.stop() }
      let ready = try JSONDecoder().decode(Ready.self, from: data)
      try await body(
        MotoServer(port: ready.port, accessKey: ready.accessKey, secretKey: ready.secretKey, bucket: ready.bucket))
    }
  }

  static let credentials = CredentialReference.awsEnvironment(
    accessKeyVariable: "RIPPLE_TEST_AWS_KEY", secretKeyVariable: "RIPPLE_TEST_AWS_SECRET", sessionTokenVariable: nil)

  func environment(secretKey: String? = nil) -> [String: String] {
    ["RIPPLE_TEST_AWS_KEY": accessKey, "RIPPLE_TEST_AWS_SECRET": secretKey ?? self.secretKey]
  }

  func location(prefix: String = "ci/records") -> S3Location {
    S3Location(endpoint: "http://127.0.0.1:\(port)", bucket: bucket, key: prefix, region: "us-east-1", pathStyle: true)
  }
}

/// Helpers/standin_server.py: rippled's record API and the failure modes, by the URL's first path segment.
struct StandInServer: Sendable {
  var directory: String
  var port: Int

  var base: String { "http://127.0.0.1:\(port)" }

  struct SeenRequest: Decodable, Equatable {
    var method: String
    var path: String
    var authorization: String?
  }

  @TaskLocal static var current: StandInServer?

  static func suiteServer() throws -> StandInServer {
    try #require(current, "the suite needs the .standIn trait")
  }

  static func with(_ body: (StandInServer) async throws -> Void) async throws {
    try await withTemporaryDirectory { directory in
      let (server, data) = try await HelperProcess.start(
        script: helpersDirectory + "/standin_server.py", arguments: [], directory: directory)
      defer { server.stop() }
      struct Ready: Decodable { var port: Int }
      try await body(
        StandInServer(directory: directory, port: try JSONDecoder().decode(Ready.self, from: data).port))
    }
  }

  /// How the stand-in's 50 MiB answer to a path holding `text` ended, once it has (waiting at most 60 s): whether
  /// it was written whole and how many MiB were.
  func streamEnd(containing text: String) async throws -> (completed: Bool, mebibytes: Int)? {
    struct End: Decodable {
      var path: String
      var mebibytes: Int
      var completed: Bool
    }
    var found: End?
    _ = await poll(every: .milliseconds(50), timeout: .seconds(60)) {
      let lines = (try? String(contentsOfFile: directory + "/streams.jsonl", encoding: .utf8)) ?? ""
      found = lines.split(separator: "\n").compactMap { try? JSONDecoder().decode(End.self, from: Data($0.utf8)) }
        .first { $0.path.contains(text) }
      return found != nil
    }
    return found.map { ($0.completed, $0.mebibytes) }
  }

  /// Every request the stand-in has seen, in order.
  func requests() throws -> [SeenRequest] {
    let text = try String(contentsOfFile: directory + "/requests.jsonl", encoding: .utf8)
    return try text.split(separator: "\n").map { try JSONDecoder().decode(SeenRequest.self, from: Data($0.utf8)) }
  }
}

struct MotoTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await MotoServer.with { server in try await MotoServer.$current.withValue(server) { try await function() } }
  }
}

struct StandInTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await StandInServer.with { server in
      try await StandInServer.$current.withValue(server) { try await function() }
    }
  }
}

extension Trait where Self == MotoTrait {
  static var moto: Self { Self() }
}

extension Trait where Self == StandInTrait {
  static var standIn: Self { Self() }
}
