import DaemonHTTPFixtures
import Foundation
import Hummingbird
import RippleConfig
import RippleCore
import RunModel
import RunStore
import Testing

@testable import Daemon
@testable import DaemonSupport

/// Notifications: only a branch going from passing to failing and back; Slack's JSON; retries through the shared
/// delivery loop, a failing webhook logged once; the live client against a loopback server.
@Suite struct BranchNotifierTests {
  static func run(_ state: RunState, trigger: RunTrigger = .fetch, failed: Int? = nil) -> RunRecord {
    RunRecord(
      id: 12, repository: "shop", branch: "main", trigger: trigger, head: "0123456789abcdef", state: state,
      queuedAt: Date(), failedTests: failed)
  }

  @Test func onlyChangesOfTheBranchesStateAreNews() {
    let failed = BranchNotification.text(
      run: Self.run(.failed, failed: 2), previous: .passed, publicURL: "https://ci.x")
    #expect(failed == "\u{274C} shop/main at 0123456789 (run #12) failed: 2 tests failed <https://ci.x/runs/12>")
    #expect(
      BranchNotification.text(run: Self.run(.passed), previous: .failed, publicURL: nil)?.contains("recovered")
        == true)
    #expect(BranchNotification.text(run: Self.run(.failed), previous: .failed, publicURL: nil) == nil)
    #expect(BranchNotification.text(run: Self.run(.passed), previous: .passed, publicURL: nil) == nil)
    #expect(BranchNotification.text(run: Self.run(.failed), previous: nil, publicURL: nil) == nil)
    #expect(BranchNotification.text(run: Self.run(.failed, trigger: .canary), previous: .passed, publicURL: nil) == nil)
    let body = BranchNotification.request(webhook: "https://hooks.example/x", text: "a \"b\"").body
    #expect(String(decoding: body, as: UTF8.self) == #"{"text":"a \"b\""}"#)
  }

  /// A store with a passed then a failed run of shop/main; the failed one.
  static func history(_ store: RunStore) throws -> RunRecord {
    let first = try store.enqueue(NewRun(repository: "shop", branch: "main", head: "aaa", trigger: .fetch))
    _ = try store.markRunning(first.id, logPath: nil)
    _ = try store.finish(first.id, state: .passed, reason: nil)
    let second = try store.enqueue(NewRun(repository: "shop", branch: "main", head: "bbb", trigger: .fetch))
    _ = try store.markRunning(second.id, logPath: nil)
    return try store.finish(second.id, state: .failed, reason: "1 test failed")
  }

  static var settings: RepositorySettings {
    var settings = RepositorySettings(name: "shop", source: .remote(url: "/srv/shop.git"))
    settings.notify = NotifySettings(webhook: "https://hooks.example/T/B/x")
    return settings
  }

  @Test func aWebhookAnswering500IsRetriedThenLoggedOnce() async throws {
    let fixture = try RouterFixture()
    let failedRun = try Self.history(fixture.store)
    let attempts = Locked(0)
    let lines = Locked<[String]>([])
    let notifier = BranchNotifier(
      repositories: [Self.settings], publicURL: nil, store: fixture.store,
      log: DaemonLog(minimum: .info, sink: { line in lines.withLock { $0.append(line) } }),
      send: { _ in
        attempts.withLock { $0 += 1 }
        return 500
      }, retryDelays: [.zero, .zero])
    notifier.finished(failedRun)
    await notifier.drain()
    notifier.finished(failedRun)
    await notifier.drain()
    #expect(attempts.withLock { $0 } == 6, "three attempts per notification")
    let warnings = lines.withLock { $0 }.filter { $0.contains("notification webhook") }
    #expect(warnings.count == 1, "\(lines.withLock { $0 })")
    #expect(warnings.first?.contains("hooks.example") == true)
    #expect(warnings.first?.contains("T/B/x") == false, "the webhook's secret path is not logged")
  }

  @Test func theLiveClientPostsSlackJSONToALoopbackServer() async throws {
    let received = Locked<[String]>([])
    let router = Router()
    router.post("/hook") { request, _ -> Response in
      let body = try await request.body.collect(upTo: 1 << 16)
      received.withLock { $0.append(String(buffer: body)) }
      return Response(status: .ok)
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

    let fixture = try RouterFixture()
    let failedRun = try Self.history(fixture.store)
    var settings = Self.settings
    settings.notify = NotifySettings(webhook: "http://127.0.0.1:\(port.withLock { $0 })/hook")
    let notifier = BranchNotifier(
      repositories: [settings], publicURL: "https://ci.example.com", store: fixture.store,
      log: DaemonLog(minimum: .error, sink: { _ in }))
    notifier.finished(failedRun)
    await notifier.drain()
    let bodies = received.withLock { $0 }
    #expect(bodies.count == 1)
    let json = try JSONSerialization.jsonObject(with: Data((bodies.first ?? "").utf8)) as? [String: String]
    #expect(json?["text"]?.contains("shop/main at bbb (run #\(failedRun.id)) failed") == true)
    #expect(json?["text"]?.hasSuffix("<https://ci.example.com/runs/\(failedRun.id)>") == true)
  }
}
