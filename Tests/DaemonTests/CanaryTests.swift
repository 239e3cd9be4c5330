import DaemonHTTPFixtures
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import RippleConfig
import RippleCore
import RunModel
import RunStore
import ServiceMetrics
import Testing

@testable import Daemon
@testable import DaemonHTTP
@testable import DaemonSupport

/// The canary schedule with a clock the test moves (no sleeping), and the misses a finished canary records.
@Suite struct CanaryTests {
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  static func record(_ id: Int64, queuedAt: Date) -> RunRecord {
    RunRecord(
      id: id, repository: "app", branch: "main", trigger: .canary, head: "h", state: .passed, queuedAt: queuedAt)
  }

  @Test func aCanaryIsDueEveryPeriodWhenTheBranchIsIdle() {
    let day = Duration.seconds(86_400)
    #expect(CanarySchedule.isDue(lastCompleted: nil, branchBusy: false, hasHead: true, every: day, now: Self.t0))
    #expect(!CanarySchedule.isDue(lastCompleted: nil, branchBusy: false, hasHead: false, every: day, now: Self.t0))
    #expect(!CanarySchedule.isDue(lastCompleted: nil, branchBusy: true, hasHead: true, every: day, now: Self.t0))
    let last = Self.record(1, queuedAt: Self.t0)
    #expect(
      !CanarySchedule.isDue(
        lastCompleted: last, branchBusy: false, hasHead: true, every: day, now: Self.t0 + 86_399))
    #expect(
      CanarySchedule.isDue(lastCompleted: last, branchBusy: false, hasHead: true, every: day, now: Self.t0 + 86_400))
  }

  @Test func theCheckQueuesAFullRunOfThePrimaryBranchWhenDue() async throws {
    let fixture = try RouterFixture()
    let store = fixture.store
    let clock = Locked(Self.t0)
    let submitted = Locked<[NewRun]>([])
    var settings = RepositorySettings(name: "app", source: .remote(url: "/srv/app.git"))
    settings.canary = CanarySettings(every: .seconds(86_400), branch: "main")
    let canaries = Canaries(
      repositories: [settings, RepositorySettings(name: "other", source: .remote(url: "/srv/other.git"))],
      store: store,
      runs: RunControl(
        submit: { new in
          submitted.withLock { $0.append(new) }
          return try? store.enqueue(new)
        }, cancel: { _ in false }),
      clock: DaemonClock(now: { clock.withLock { $0 } }, sleep: { _ in Issue.record("no sleeping") }),
      log: DaemonLog(minimum: .error, sink: { _ in }))

    #expect(await canaries.check().isEmpty, "no head of main known yet")
    let selective = try store.enqueue(NewRun(repository: "app", branch: "main", head: "abc", trigger: .fetch))
    #expect(await canaries.check().isEmpty, "main is busy")
    _ = try store.markRunning(selective.id, logPath: nil)
    _ = try store.finish(selective.id, state: .passed, reason: nil)

    let first = try #require(await canaries.check().first)
    #expect(submitted.withLock { $0 } == [NewRun(repository: "app", branch: "main", head: "abc", trigger: .canary)])
    #expect(await canaries.check().isEmpty, "the canary is queued")
    _ = try store.markRunning(first.id, logPath: nil)
    _ = try store.finish(first.id, state: .passed, reason: nil)
    // The store's clock is the real one: the canary was queued "now"; a day later the next one is due.
    clock.withLock { $0 = Date() + 3600 }
    #expect(await canaries.check().isEmpty, "an hour later")
    clock.withLock { $0 = Date() + 86_400 + 60 }
    #expect(await canaries.check().map(\.trigger) == [.canary])
  }

  @Test func aFinishedCanaryRecordsAndCountsItsMisses() throws {
    let fixture = try RouterFixture()
    let store = fixture.store
    func finish(_ head: String, _ trigger: RunTrigger, _ state: RunState, tests: [String], failing: Set<String>)
      throws -> RunRecord
    {
      let run = try store.enqueue(NewRun(repository: "app", branch: "main", head: head, trigger: trigger))
      _ = try store.markRunning(run.id, logPath: nil)
      try store.recordAnalysis(
        run.id,
        RunAnalysis(
          base: nil, changedFiles: [],
          targets: tests.map { RunTarget(package: ".", name: $0, kind: "test", isTest: true, reasons: []) },
          edges: [], selectedTestTargets: tests.count, totalTestTargets: 2))
      try store.recordResults(
        run.id, tests.map { TargetOutcome(package: ".", name: $0, status: failing.contains($0) ? .failed : .passed) },
        failedTests: failing.count)
      return try store.finish(run.id, state: state, reason: nil)
    }
    let selective = try finish("c1", .fetch, .passed, tests: ["UITests"], failing: [])
    let canary = try finish("c2", .canary, .failed, tests: ["UITests", "CoreTests"], failing: ["CoreTests"])
    let metrics = DaemonMetrics(repositories: ["app"])
    Canaries.recordMisses(
      of: canary, store: store, metrics: metrics, log: DaemonLog(minimum: .error, sink: { _ in }),
      isAncestorOrEqual: { $0 == "c1" || $0 == "c2" })
    #expect(try store.misses().map { "\($0.runID) \($0.target) \($0.commit)" } == ["\(selective.id) .:CoreTests c1"])
    let text = metrics.render(runsByState: [:], queueLength: 0, running: 0, ready: true, healthy: true)
    #expect(text.contains("ripple_selection_misses_total{repository=\"app\"} 1\n"))
    // A selective run's end records nothing.
    Canaries.recordMisses(
      of: selective, store: store, metrics: metrics, log: DaemonLog(minimum: .error, sink: { _ in }),
      isAncestorOrEqual: { _ in
        Issue.record("not asked"); return true
      })
  }

  @Test func theAPIQueuesACanaryOfTheLastHeadOrAGivenCommit() throws {
    typealias Request = RunsAPIRoutes.TriggerRequest
    let sha = String(repeating: "ab", count: 20)
    let last = try RunsAPIRoutes.canaryRun(Request(repository: "app", branch: "main", canary: true)) { _ in "c1" }
    #expect(last == NewRun(repository: "app", branch: "main", head: "c1", trigger: .canary))
    let given = try RunsAPIRoutes.canaryRun(
      Request(repository: "app", branch: "main", commit: sha.uppercased(), canary: true)
    ) { _ in nil }
    #expect(given.head == sha)
    for (request, status) in [
      (Request(repository: "app", branch: nil, canary: true), HTTPResponse.Status.badRequest),
      (Request(repository: "app", branch: "main", commit: "abc", canary: true), .badRequest),
      (Request(repository: "app", branch: "main", canary: true), .conflict),
    ] {
      let error = try #require(throws: HTTPError.self) { try RunsAPIRoutes.canaryRun(request) { _ in nil } }
      #expect(error.status == status)
    }
  }

  @Test func aCanaryOfAnUnknownRepositoryIs404() async throws {
    let fixture = try RouterFixture()
    try await fixture.application(runs: .failing).test(.router) { client in
      try await client.execute(
        uri: "/api/runs", method: .post, headers: RouterFixture.bearer("s3cret"),
        body: ByteBuffer(string: #"{"repository": "nope", "branch": "main", "canary": true}"#)
      ) { response in
        #expect(response.status == .notFound)
      }
    }
  }
}
