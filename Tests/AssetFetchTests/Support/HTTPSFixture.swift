import Foundation
import RippleConfig
import TestSupport
import Testing

@testable import AssetFetch

/// The Python HTTPS test server (Helpers/https_server.py) with a fresh CA, plus a scratch folder.
struct HTTPSFixture: Sendable {
  static let token = "tok-3f9a7c51e2d8"

  var directory: String
  var certificates: TestCertificates
  var httpsPort: Int
  var httpPort: Int

  private struct Ports: Decodable {
    var https: Int
    var http: Int
  }

  /// The server of the running suite (`@Suite(.httpsServer)`): one per suite, not one per test. Its routes keep
  /// state per ID, so each test uses IDs of its own.
  @TaskLocal static var current: HTTPSFixture?

  static func suiteServer() throws -> HTTPSFixture {
    try #require(current, "the suite needs the .httpsServer trait")
  }

  /// Starts the server for `body` and stops it afterwards, also when `body` throws.
  static func with(_ body: (HTTPSFixture) async throws -> Void) async throws {
    try await withTemporaryDirectory { directory in
      let certificates = try TestCertificates.make(in: directory)
      let (server, ready) = try await HelperProcess.start(
        script: helpersDirectory + "/https_server.py",
        arguments: [certificates.certificatePath, certificates.keyPath, token], directory: directory)
      defer { server.stop() }
      let ports = try JSONDecoder().decode(Ports.self, from: ready)
      try await body(
        HTTPSFixture(directory: directory, certificates: certificates, httpsPort: ports.https, httpPort: ports.http))
    }
  }

  func url(_ path: String, host: String = "127.0.0.1") -> String { "https://\(host):\(httpsPort)\(path)" }
  func httpURL(_ path: String) -> String { "http://127.0.0.1:\(httpPort)\(path)" }

  func options(
    trustCA: Bool = true, allowInsecureHTTP: Bool = false, retries: Int = 2, environment: [String: String] = [:]
  ) -> FetchOptions {
    FetchOptions(
      caBundlePath: trustCA ? certificates.caPath : nil, allowInsecureHTTP: allowInsecureHTTP, timeout: .seconds(10),
      retries: retries, environment: environment, repositoryRoot: directory)
  }

  /// A fresh destination path in the scratch folder.
  func destination() -> String { directory + "/download-\(UUID().uuidString)" }

  func request(
    _ urls: [String], credentials: CredentialReference = .none, expectedSize: Int64? = nil,
    destination: String? = nil, resumeFrom: Int64 = 0
  ) -> FetchRequest {
    FetchRequest(
      assetID: "fonts", source: .https(urls: urls), credentials: credentials, expectedSize: expectedSize,
      destination: destination ?? self.destination(), resumeFrom: resumeFrom)
  }

  struct LogEntry: Decodable, Sendable {
    var path: String
    var host: String?
    var authorization: Bool
    var range: String?
  }

  /// Every request the server has seen so far.
  func log() async throws -> [LogEntry] {
    try await withFetcher(options()) { fetcher in
      let request = request([url("/_log")])
      _ = try await fetcher.fetch(request) { _ in }
      return try JSONDecoder().decode(
        [LogEntry].self, from: Data(contentsOf: URL(fileURLWithPath: request.destination)))
    }
  }
}

/// The server's deterministic body of `n` bytes.
func serverBody(_ n: Int) -> Data { Data((0..<n).map { UInt8($0 % 251) }) }

func contents(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

/// Records the waits the fetcher asks for instead of sleeping.
final class SleepRecorder: Sendable {
  private let sleeps = Locked<[Duration]>([])
  var recorded: [Duration] { sleeps.withLock { $0 } }

  var runtime: FetchRuntime {
    FetchRuntime(
      sleep: { [self] duration in sleeps.withLock { $0.append(duration) } }, now: { Date() }, random: { 0.5 })
  }
}

/// Collects progress reports.
final class ProgressRecorder: Sendable {
  private let reports = Locked<[FetchProgress]>([])
  var recorded: [FetchProgress] { reports.withLock { $0 } }
  var callback: @Sendable (FetchProgress) -> Void { { [self] progress in reports.withLock { $0.append(progress) } } }
}

/// A live fetcher for `body`, shut down afterwards.
func withFetcher<T: Sendable>(
  _ options: FetchOptions, runtime: FetchRuntime = SleepRecorder().runtime, _ body: (Fetcher) async throws -> T
) async throws -> T {
  try await Fetcher.live(options: options, runtime: runtime).using(body)
}

/// The `FetchError` `body` throws, or nil (recorded as an issue by the caller's `#expect`).
func fetchError(_ body: () async throws -> Void) async -> FetchError? {
  do {
    try await body()
    return nil
  } catch let error as FetchError {
    return error
  } catch {
    return FetchError(.server, assetID: "?", "unexpected error type: \(error)")
  }
}

/// A value behind a lock (`Mutex` needs macOS 15; the package supports macOS 13).
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// Starts the HTTPS server once for the suite that carries it and stops it when the suite ends.
struct HTTPSServerTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await HTTPSFixture.with { server in try await HTTPSFixture.$current.withValue(server) { try await function() } }
  }
}

extension Trait where Self == HTTPSServerTrait {
  static var httpsServer: Self { Self() }
}
