import Foundation
import Hummingbird
import RippleCore
import RunModel
import RunStore
import ServiceMetrics

/// What the HTTP handlers need from the daemon (one value, built at the wiring point).
struct APIContext: Sendable {
  var store: RunStore
  var runs: RunControl
  var metrics: DaemonMetrics
  var status: @Sendable () async -> DaemonStatus
  var branchSources: [BranchSource]
  var worktreeSources: [WorktreeSource]
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

/// What the API may ask of the scheduler: the interface, so that the routes are tested in process.
struct RunControl: Sendable {
  /// Records and schedules a run; nil when the store refused it (the daemon is then unhealthy).
  var submit: @Sendable (NewRun) async -> RunRecord?
  /// Cancels a queued or running run; false when it is neither.
  var cancel: @Sendable (Int64) async -> Bool

  static func live(_ scheduler: Scheduler) -> RunControl {
    RunControl(submit: { await scheduler.submit($0) }, cancel: { await scheduler.cancel($0) })
  }

  /// Reports the test that reaches it (and refuses): for routes that must not schedule anything.
  static let failing = RunControl(
    submit: { run in unimplemented("RunControl", "submit \(run)", placeholder: nil) },
    cancel: { id in unimplemented("RunControl", "cancel run \(id)", placeholder: false) })
}

/// The daemon's HTTP interface: liveness and readiness, the JSON API, the webhook, metrics and the dashboard,
/// each a route collection; one middleware turns unexpected errors into logged JSON 500s, and one checks
/// the bearer token of every state change.
enum HTTPAPI {
  static let maxBody = 5 << 20

  static func router(_ api: APIContext) -> Router<RippledRequestContext> {
    let router = Router(context: RippledRequestContext.self)
    router.add(middleware: UnexpectedErrorMiddleware(log: api.log))
    router.add(middleware: HostCheckMiddleware(policy: api.hosts))
    router.addRoutes(HealthRoutes(api: api).collection)
    router.addRoutes(RunsAPIRoutes(api: api).collection, atPath: "/api")
    router.addRoutes(WebhookRoutes(api: api).collection, atPath: "/hooks")
    router.addRoutes(DashboardRoutes(api: api).collection)
    router.addRoutes(WebControlRoutes(api: api).collection)
    return router
  }
}
