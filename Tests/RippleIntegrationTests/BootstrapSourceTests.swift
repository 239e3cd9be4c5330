import Foundation
import TestSupport
import Testing

/// `ripple bootstrap` (auto mode) against a loopback HTTPS server: placeholders stand in only where access is
/// missing; a broken or misconfigured source fails the asset with a sentence naming host and path (issue 38).
/// And what bootstrap installed into a folder git does not ignore is not a change.
@Suite(.serialized, .exclusive(.cooperativeThread), .bootstrapServer)
struct BootstrapSourceTests {
  static let words = "apple\nbanana\n"

  /// One checkout with `source` (and `credentials`) as its one asset, `.build` ignored, committed on main.
  static func repository(source: String, credentials: String? = nil) throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write(".gitignore", ".build/\n")
    let asset = [
      "  - id: words",
      "    source: \(source)",
      "    sha256: \"\(try BootstrapServer.current().wordsSHA)\"",
      credentials.map { "    credentials: \($0)" },
      "    destination: Sources/App/Resources",
      "    placeholders: [{path: words.txt, contents: placeholder}]",
    ]
    try repo.write("ripple.yml", (["assets:"] + asset.compactMap { $0 }).joined(separator: "\n") + "\n")
    try repo.commitAll("Initial import")
    return repo
  }

  /// `ripple bootstrap ARGUMENTS` with the server's CA and a content cache of the test's own.
  static func bootstrap(
    _ repo: TestRepository, _ arguments: [String] = [], environment: [String: String] = [:]
  ) throws -> CommandResult {
    let server = try BootstrapServer.current()
    return try RippleBinary.run(
      ["bootstrap", "--ca-bundle", server.certificates.caPath] + arguments, in: repo.root,
      environment: ["RIPPLE_CACHE_DIR": repo.root + "/.build/cache"].merging(environment) { $1 })
  }

  enum BrokenSource: String, CaseIterable, Sendable {
    case notFound, notFoundAfterARetry, refusedConnection, unknownHost, missingFile, plainHTTP

    /// The source, the exit code, and what the message must say.
    func expectation(_ server: BootstrapServer) -> (source: String, status: Int32, says: String) {
      switch self {
      case .notFound:
        return (
          #"{https: "\#(server.url("/missing/words.txt"))"}"#, 3,
          "\(server.url("/missing/words.txt")) answered HTTP 404"
        )
      case .notFoundAfterARetry:
        // 503, then 404 on the retry: the asset fails for the 404 (before, the 503 made it "no access").
        let url = server.url("/flaky-missing/bootstrap-\(UUID().uuidString)")
        return (#"{https: "\#(url)"}"#, 3, "\(url) answered HTTP 404")
      case .refusedConnection:
        // Nothing listens on port 1 of the loopback interface.
        return (
          #"{https: "https://127.0.0.1:1/words.txt"}"#, 3,
          "https://127.0.0.1:1/words.txt: 127.0.0.1 refused the connection on port 1"
        )
      case .unknownHost:
        // `.invalid` never resolves (RFC 2606).
        return (
          #"{https: "https://assets.ripple-test.invalid/words.txt"}"#, 3,
          "the host name assets.ripple-test.invalid does not resolve"
        )
      case .missingFile:
        return (#"{file: "Assets/words.txt"}"#, 2, "Assets/words.txt does not exist")
      case .plainHTTP:
        return (#"{https: "\#(server.httpURL("/files/words.txt"))"}"#, 2, "uses plain http")
      }
    }
  }

  @Test(arguments: BrokenSource.allCases)
  func aBrokenSourceFailsTheAsset(_ broken: BrokenSource) throws {
    let (source, status, says) = broken.expectation(try BootstrapServer.current())
    let repo = try Self.repository(source: source)
    let result = try Self.bootstrap(repo)
    #expect(result.status == status, "\(result.standardError)")
    #expect(result.standardError.contains(says), "\(result.standardError)")
    #expect(!result.standardError.contains("errno"), "a sentence, not the library's text")
    #expect(repo.read("Sources/App/Resources/words.txt") == nil, "no placeholder hides a broken source")
  }

  @Test func upToDatePlaceholdersDoNotHideABrokenSource() throws {
    let server = try BootstrapServer.current()
    let repo = try Self.repository(source: #"{https: "\#(server.url("/missing/words.txt"))"}"#)
    #expect(try Self.bootstrap(repo, ["--public"]).status == 0)
    #expect(repo.read("Sources/App/Resources/words.txt") == "placeholder")

    let result = try Self.bootstrap(repo)
    #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
    #expect(!result.standardOutput.contains("up to date"))
    #expect(result.standardError.contains("answered HTTP 404"))
  }

  @Test func aBrokenSecretLinkIsNamedByItsVariableNotItsURL() throws {
    let server = try BootstrapServer.current()
    let repo = try Self.repository(source: "{https: {urlEnv: RIPPLE_IT_WORDS_URL}}")
    let link = "https://user:pa55word@127.0.0.1:\(server.httpsPort)/missing/t0ken/words.txt?X-Amz-Signature=s1g"
    let result = try Self.bootstrap(repo, environment: ["RIPPLE_IT_WORDS_URL": link])
    #expect(result.status == 3, "\(result.standardError)")
    #expect(result.standardError.contains("https://127.0.0.1:\(server.httpsPort) (the URL from $RIPPLE_IT_WORDS_URL)"))
    for secret in ["pa55word", "t0ken", "s1g"] {
      #expect(!result.standardError.contains(secret), "\(secret) in \(result.standardError)")
    }
  }

  enum NoAccess: String, CaseIterable, Sendable {
    case noCredentials, unauthorized, forbidden, unsetLinkVariable, publicMode

    func setup(_ server: BootstrapServer) -> (
      source: String, credentials: String?, environment: [String: String], arguments: [String]
    ) {
      let token = "{bearerTokenEnv: RIPPLE_IT_TOKEN}"
      switch self {
      case .noCredentials: return (#"{https: "\#(server.url("/private/13"))"}"#, token, [:], [])
      case .unauthorized: return (#"{https: "\#(server.url("/private/13"))"}"#, token, ["RIPPLE_IT_TOKEN": "wrong"], [])
      case .forbidden: return (#"{https: "\#(server.url("/denied-presigned"))"}"#, nil, [:], [])
      case .unsetLinkVariable: return ("{https: {urlEnv: RIPPLE_IT_UNSET_URL}}", nil, [:], [])
      // Not consulted at all: even a broken source gives placeholders when none are wanted.
      case .publicMode: return (#"{https: "\#(server.url("/missing/words.txt"))"}"#, nil, [:], ["--public"])
      }
    }
  }

  @Test(arguments: NoAccess.allCases)
  func noAccessGivesPlaceholders(_ case: NoAccess) throws {
    let (source, credentials, environment, arguments) = `case`.setup(try BootstrapServer.current())
    let repo = try Self.repository(source: source, credentials: credentials)
    let result = try Self.bootstrap(repo, arguments, environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(repo.read("Sources/App/Resources/words.txt") == "placeholder")
  }

  @Test func installedFilesAreListedApartFromChanges() throws {
    let server = try BootstrapServer.current()
    // The destination is not ignored: what bootstrap installs there is untracked.
    let repo = try Self.repository(source: #"{https: "\#(server.url("/files/words.txt"))"}"#)
    #expect(try Self.bootstrap(repo).status == 0)
    #expect(repo.read("Sources/App/Resources/words.txt") == Self.words)

    let clean = try RippleBinary.run(["changes"], in: repo.root)
    #expect(clean.status == 0, "\(clean.standardError)")
    #expect(clean.standardOutput.isEmpty, "not a change: \(clean.standardOutput)")
    #expect(clean.standardError.contains("installed by bootstrap"))
    #expect(clean.standardError.contains("  Sources/App/Resources/words.txt\n"))
    let json = try RippleBinary.run(["changes", "--format", "json"], in: repo.root)
    let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect((report["changedFiles"] as? [Any])?.isEmpty == true)
    #expect(report["installedByBootstrap"] as? [String] == ["Sources/App/Resources/words.txt"])

    try repo.write("Sources/App/Resources/words.txt", "apple\nbanana\ncherry\n")
    let edited = try RippleBinary.run(["changes"], in: repo.root)
    #expect(edited.standardOutput == "added\tSources/App/Resources/words.txt\n")
    #expect(!edited.standardError.contains("installed by bootstrap"))
  }
}

/// The HTTPS test server (AssetFetchTests/Helpers/https_server.py), started once for the suite, serving
/// `words.txt` under `/files/`.
struct BootstrapServer: Sendable {
  var directory: String
  var certificates: TestCertificates
  var httpsPort: Int
  var httpPort: Int
  var wordsSHA: String

  @TaskLocal static var running: BootstrapServer?

  static func current() throws -> BootstrapServer {
    try #require(running, "the suite needs the .bootstrapServer trait")
  }

  func url(_ path: String) -> String { "https://127.0.0.1:\(httpsPort)\(path)" }
  func httpURL(_ path: String) -> String { "http://127.0.0.1:\(httpPort)\(path)" }

  private struct Ports: Decodable {
    var https: Int
    var http: Int
  }

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../AssetFetchTests/Helpers/https_server.py").standardized.path

  static func with(_ body: (BootstrapServer) async throws -> Void) async throws {
    let directory = try TemporaryDirectory(prefix: "ripple-bootstrap-server")
    defer { withExtendedLifetime(directory) {} }
    let served = directory.child("served")
    try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
    try Data(BootstrapSourceTests.words.utf8).write(to: URL(fileURLWithPath: served + "/words.txt"))
    let sha = try run(["sha256sum", served + "/words.txt"]).standardOutput.prefix(64)
    let certificates = try TestCertificates.make(in: directory.path)
    let (server, ready) = try await HelperProcess.start(
      script: script, arguments: [certificates.certificatePath, certificates.keyPath, "it-token", served],
      directory: directory.path)
    defer { server.stop() }
    let ports = try JSONDecoder().decode(Ports.self, from: ready)
    try await body(
      BootstrapServer(
        directory: directory.path, certificates: certificates, httpsPort: ports.https, httpPort: ports.http,
        wordsSHA: String(sha)))
  }
}

struct BootstrapServerTrait: SuiteTrait, TestScoping {
  var isRecursive: Bool { false }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await BootstrapServer.with { server in
      try await BootstrapServer.$running.withValue(server) { try await function() }
    }
  }
}

extension Trait where Self == BootstrapServerTrait {
  static var bootstrapServer: Self { Self() }
}
