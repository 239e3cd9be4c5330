import Foundation
import Hummingbird
import RippleConfig
import RippleCore
import RunModel
import Testing

@testable import Daemon
@testable import DaemonSupport

/// Commit statuses: the request each forge gets, the order and retries of the reporter, refusals logged
/// once, and the live client against a loopback stand-in that answers like a forge and records requests.
@Suite struct CommitStatusTests {
  static func run(_ state: RunState, selected: Int? = 3, total: Int? = 42, failed: Int? = nil, reason: String? = nil)
    -> RunRecord
  {
    RunRecord(
      id: 7, repository: "shop", branch: "main", trigger: .fetch, head: "0123456789abcdef0123456789abcdef01234567",
      state: state, reason: reason, queuedAt: Date(), selectedTestTargets: selected, totalTestTargets: total,
      failedTests: failed)
  }

  static let github = CommitStatusSettings(
    provider: .github, api: "https://api.github.com", repository: "acme/shop", tokenFile: "/dev/null")

  static func body(_ request: CommitStatus.Request) -> [String: String] {
    (try? JSONDecoder().decode([String: String].self, from: request.body)) ?? [:]
  }

  @Test func descriptionsSayWhatRanAndWhatFailed() {
    let base = "https://ci.example.com/ripple"
    #expect(CommitStatus.started(Self.run(.running), publicURL: base).state == .pending)
    let passed = CommitStatus.finished(Self.run(.passed), publicURL: base)
    #expect(
      passed == CommitStatus(state: .success, description: "3 of 42 test targets passed", targetURL: base + "/runs/7"))
    let failed = CommitStatus.finished(Self.run(.failed, failed: 1), publicURL: nil)
    #expect(failed?.state == .failure)
    #expect(failed?.description == "3 of 42 test targets, 1 test failed")
    #expect(failed?.targetURL == nil)
    #expect(CommitStatus.finished(Self.run(.error, reason: "timed out"), publicURL: nil)?.state == .error)
    #expect(CommitStatus.finished(Self.run(.superseded, reason: "superseded"), publicURL: nil)?.state == .cancelled)
    #expect(CommitStatus.finished(Self.run(.interrupted), publicURL: nil) == nil, "re-queued: the next attempt posts")
  }

  @Test func gitHubAndGiteaPostToStatusesOfTheCommit() {
    let status = CommitStatus(
      state: .cancelled, description: String(repeating: "x", count: 200), targetURL: "https://x/runs/7")
    let github = status.request(for: Self.github, commit: "abc", token: "s3cret")
    #expect(github.url == "https://api.github.com/repos/acme/shop/statuses/abc")
    #expect(github.headers["Authorization"] == "Bearer s3cret")
    #expect(github.headers["Accept"] == "application/vnd.github+json")
    let body = Self.body(github)
    #expect(body["state"] == "error", "GitHub has no cancelled state")
    #expect(body["context"] == "ripple")
    #expect(body["target_url"] == "https://x/runs/7")
    #expect(body["description"]?.count == 140)

    var gitea = Self.github
    gitea.provider = .gitea
    gitea.api = "https://gitea.example.com/api/v1"
    let request = status.request(for: gitea, commit: "abc", token: "s3cret")
    #expect(request.url == "https://gitea.example.com/api/v1/repos/acme/shop/statuses/abc")
    #expect(request.headers["Authorization"] == "token s3cret")
  }

  @Test func gitLabUsesTheProjectPathAndItsOwnStateNames() {
    let gitlab = CommitStatusSettings(
      provider: .gitlab, api: "https://gitlab.example.com/api/v4", repository: "group/sub/shop", tokenFile: "/dev/null",
      context: "ripple/linux")
    let request = CommitStatus(state: .pending, description: "testing", targetURL: nil)
      .request(for: gitlab, commit: "abc", token: "glpat")
    #expect(request.url == "https://gitlab.example.com/api/v4/projects/group%2Fsub%2Fshop/statuses/abc")
    #expect(request.headers["PRIVATE-TOKEN"] == "glpat")
    #expect(request.headers["Authorization"] == nil)
    #expect(Self.body(request)["state"] == "running")
    #expect(Self.body(request)["name"] == "ripple/linux")
    #expect(CommitStatus.gitLabState(.failure) == "failed")
    #expect(CommitStatus.gitLabState(.cancelled) == "canceled")
  }

  /// A token file, and a log whose lines the test reads; the folder goes with the value.
  final class Setup {
    let directory: String
    let lines = Locked<[String]>([])
    var log: DaemonLog { DaemonLog(minimum: .debug) { [lines] line in lines.withLock { $0.append(line) } } }
    var settings: RepositorySettings

    init(api: String = "https://api.github.com") throws {
      directory = NSTemporaryDirectory() + "ripple-status-\(UUID().uuidString)"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      try "s3cret-token\n".write(toFile: directory + "/token", atomically: true, encoding: .utf8)
      settings = RepositorySettings(name: "shop", source: .remote(url: "/srv/shop.git"))
      settings.status = CommitStatusSettings(
        provider: .github, api: api, repository: "acme/shop", tokenFile: directory + "/token")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
  }

  @Test func serverErrorsAreRetriedAndStatusesKeepTheirOrder() async throws {
    let setup = try Setup()
    let answers = Locked([500, 201, 201])
    let sent = Locked<[String]>([])
    let reporter = CommitStatusReporter(
      repositories: [setup.settings], publicURL: nil, log: setup.log,
      send: { request in
        sent.withLock { $0.append(Self.body(request)["state"] ?? "?") }
        return answers.withLock { $0.isEmpty ? 201 : $0.removeFirst() }
      }, retryDelays: [.zero])
    reporter.started(Self.run(.running))
    reporter.finished(Self.run(.passed))
    await reporter.drain()
    #expect(sent.withLock { $0 } == ["pending", "pending", "success"])
    #expect(setup.lines.withLock { $0 }.isEmpty)
  }

  @Test func aRefusalIsLoggedOnceNamingTheForgeButNeverTheToken() async throws {
    let setup = try Setup()
    let calls = Locked(0)
    let reporter = CommitStatusReporter(
      repositories: [setup.settings], publicURL: nil, log: setup.log,
      send: { _ in
        calls.withLock { $0 += 1 }
        return 401
      }, retryDelays: [.zero])
    for _ in 0..<3 { reporter.finished(Self.run(.passed)) }
    await reporter.drain()
    let lines = setup.lines.withLock { $0 }
    #expect(calls.withLock { $0 } == 3, "a 401 is not retried, but every run tries again")
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("github (https://api.github.com, acme/shop) refused") == true)
    #expect(lines.first?.contains("401: the token is not valid") == true)
    #expect(!lines.joined().contains("s3cret"))
  }

  @Test func anUnreachableForgeIsGivenUpAfterTheRetriesWithoutFailingAnything() async throws {
    let setup = try Setup()
    let calls = Locked(0)
    struct Down: Error {}
    let reporter = CommitStatusReporter(
      repositories: [setup.settings], publicURL: nil, log: setup.log,
      send: { _ in
        calls.withLock { $0 += 1 }
        throw Down()
      }, retryDelays: [.zero, .zero])
    reporter.finished(Self.run(.failed, failed: 2))
    await reporter.drain()
    #expect(calls.withLock { $0 } == 3)
    #expect(setup.lines.withLock { $0 }.first?.contains("not posted") == true)
  }

  @Test func aMissingTokenFileIsReportedOnceAndNothingIsSent() async throws {
    let setup = try Setup()
    setup.settings.status?.tokenFile = setup.directory + "/missing"
    let reporter = CommitStatusReporter(
      repositories: [setup.settings], publicURL: nil, log: setup.log,
      send: { _ in
        Issue.record("nothing may be sent without a token")
        return 201
      })
    reporter.started(Self.run(.running))
    reporter.finished(Self.run(.passed))
    await reporter.drain()
    #expect(setup.lines.withLock { $0 }.count == 1)
    #expect(CommitStatusReporter.tokenFileWarnings([setup.settings]).first?.contains("does not exist") == true)
  }

  @Test func aWorldReadableTokenFileIsAWarning() throws {
    let setup = try Setup()
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: setup.directory + "/token")
    #expect(CommitStatusReporter.tokenFileWarnings([setup.settings]).first?.contains("readable by everyone") == true)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: setup.directory + "/token")
    #expect(CommitStatusReporter.tokenFileWarnings([setup.settings]).isEmpty)
  }

  /// The live client against a loopback HTTP server that records what a forge would receive.
  @Test func theLiveClientPostsTheStatusToALoopbackForge() async throws {
    let received = Locked<[(path: String, authorization: String?, body: String)]>([])
    let router = Router()
    router.post("/repos/:owner/:repo/statuses/:sha") { request, context -> Response in
      let body = try await request.body.collect(upTo: 1 << 16)
      received.withLock {
        $0.append(
          (request.uri.path, request.headers[.authorization], String(buffer: body)))
      }
      return Response(status: .created)
    }
    let port = Locked(0)
    let listening = Latch()
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        port.withLock { $0 = channel.localAddress?.port ?? 0 }
        listening.open()
      })
    let server = Task { try await app.runService() }
    defer { server.cancel() }
    _ = await listening.wait()

    let setup = try Setup(api: "http://127.0.0.1:\(port.withLock { $0 })")
    let reporter = CommitStatusReporter(
      repositories: [setup.settings], publicURL: "https://ci.example.com", log: setup.log)
    reporter.finished(Self.run(.passed))
    await reporter.drain()
    let requests = received.withLock { $0 }
    #expect(requests.count == 1, "\(setup.lines.withLock { $0 })")
    #expect(requests.first?.path == "/repos/acme/shop/statuses/0123456789abcdef0123456789abcdef01234567")
    #expect(requests.first?.authorization == "Bearer s3cret-token")
    #expect(requests.first?.body.contains(#""target_url":"https://ci.example.com/runs/7""#) == true)
  }
}
