import DaemonSupport
import Foundation
import Hummingbird
import RippleCore
import RunModel
import RunStore
import ServiceMetrics

/// What the HTTP handlers need from the daemon (one value, built at the wiring point).
package struct APIContext: Sendable {
  var store: RunStore
  var runs: RunControl
  var metrics: DaemonMetrics
  var status: @Sendable () async -> DaemonStatus
  var branchSources: [any RemoteSource]
  var worktreeSources: [any WorkingTreeSource]
  /// The bearer token for the API's state changes (POST/DELETE on /api/runs); nil: those answer 403.
  var token: [UInt8]?
  /// The GitHub webhook secret; nil: /hooks/github answers 404.
  var webhookSecret: [UInt8]?
  var log: DaemonLog
  var health: HealthBoard
  /// The browsers logged in at /login (their cookies are accepted for state changes like the token).
  var sessions: WebSessions = WebSessions()
  /// `http.publicURL`: its origin is accepted on state changes from a browser (behind a proxy).
  var publicURL: String? = nil
  /// The Host headers answered (DNS rebinding); the test default is the loopback names only.
  var hosts = HostPolicy(listenHost: "127.0.0.1", publicURL: nil)
  /// Failed tokens and webhook signatures, per client.
  var failures = FailureThrottle()
  /// The `?follow=1` log readers open at once (`http.maxLogFollowers`).
  var followers = Slots(limit: 32)
  /// The pass-record store's tokens and bound (`records:`); `.off`: `/api/v1/records` answers 404.
  var records = RecordsAccess.off
  /// The repositories whose rippled.yml entry turns coverage on: the dashboard never tells them to.
  var coverageRepositories: Set<String> = []

  package init(
    store: RunStore, runs: RunControl, metrics: DaemonMetrics, status: @escaping @Sendable () async -> DaemonStatus,
    branchSources: [any RemoteSource], worktreeSources: [any WorkingTreeSource], token: [UInt8]?,
    webhookSecret: [UInt8]?, log: DaemonLog, health: HealthBoard, sessions: WebSessions = WebSessions(),
    publicURL: String? = nil, hosts: HostPolicy = HostPolicy(listenHost: "127.0.0.1", publicURL: nil),
    failures: FailureThrottle = FailureThrottle(), followers: Slots = Slots(limit: 32),
    records: RecordsAccess = .off, coverageRepositories: Set<String> = []
  ) {
    self.coverageRepositories = coverageRepositories
    self.store = store
    self.runs = runs
    self.metrics = metrics
    self.status = status
    self.branchSources = branchSources
    self.worktreeSources = worktreeSources
    self.token = token
    self.webhookSecret = webhookSecret
    self.log = log
    self.health = health
    self.sessions = sessions
    self.publicURL = publicURL
    self.hosts = hosts
    self.failures = failures
    self.followers = followers
    self.records = records
  }

  /// The check in front of every state change (API and pages).
  var authMiddleware: BearerAuthMiddleware<RippledRequestContext> {
    BearerAuthMiddleware(token: token, sessions: sessions, publicURL: publicURL, failures: failures, log: log)
  }

  /// 429 with `Retry-After` while `client` is locked out after repeated failures.
  func refuseIfLockedOut(_ client: String) throws {
    guard let seconds = failures.retryAfter(client) else { return }
    throw HTTPError(
      .tooManyRequests, headers: [.retryAfter: "\(seconds)"],
      message: "too many failed attempts from \(client); try again in \(seconds) s")
  }

  /// Counts a failed token or signature of `client` and writes `warning` unless one was written lately.
  func recordFailure(_ client: String, warning: String) {
    if let suffix = failures.failed(client).logSuffix { log.warning("\(warning) (\(suffix))") }
  }

  /// A read of the store for a request. A failure makes the daemon unhealthy (listed on /readyz until the
  /// file checks out again) and answers 503 with what failed.
  func read<T>(_ body: () throws -> T) throws -> T {
    try HTTPAPI.storeRead(health: health, log: log, body)
  }
}

/// The daemon's HTTP interface: liveness and readiness, the JSON API, the webhook, metrics and the dashboard,
/// each a route collection; one middleware turns unexpected errors into logged JSON 500s, and one checks
/// the bearer token of every state change.
package enum HTTPAPI {
  static let maxBody = 5 << 20

  package static func router(_ api: APIContext) -> Router<RippledRequestContext> {
    let router = Router(context: RippledRequestContext.self)
    router.add(middleware: UnexpectedErrorMiddleware(log: api.log))
    router.add(middleware: HostCheckMiddleware(policy: api.hosts))
    router.addRoutes(HealthRoutes(api: api).collection)
    router.addRoutes(RunsAPIRoutes(api: api).collection, atPath: "/api")
    router.addRoutes(RecordsRoutes(api: api).collection, atPath: "/api/v1/records")
    router.addRoutes(WebhookRoutes(api: api).collection, atPath: "/hooks")
    router.addRoutes(DashboardRoutes(api: api).collection)
    router.addRoutes(WebControlRoutes(api: api).collection)
    return router
  }
}
