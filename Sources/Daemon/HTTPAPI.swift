import Foundation
import Hummingbird
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

  /// The check in front of every state change (API and pages).
  var authMiddleware: BearerAuthMiddleware<BasicRequestContext> {
    BearerAuthMiddleware(token: token, sessions: sessions, publicURL: publicURL)
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

  /// Fails the test that reaches it: for routes that must not schedule anything.
  static let failing = RunControl(
    submit: { run in preconditionFailure("RunControl.failing: submit(\(run)) was not expected") },
    cancel: { id in preconditionFailure("RunControl.failing: cancel(\(id)) was not expected") })
}

/// The daemon's HTTP interface: liveness and readiness, the JSON API, the webhook, metrics and the dashboard,
/// each a route collection; one middleware turns unexpected errors into logged JSON 500s, and one checks
/// the bearer token of every state change.
enum HTTPAPI {
  static let maxBody = 5 << 20

  static func router(_ api: APIContext) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: UnexpectedErrorMiddleware(log: api.log))
    router.addRoutes(HealthRoutes(api: api).collection)
    router.addRoutes(RunsAPIRoutes(api: api).collection, atPath: "/api")
    router.addRoutes(WebhookRoutes(api: api).collection, atPath: "/hooks")
    router.addRoutes(DashboardRoutes(api: api).collection)
    router.addRoutes(WebControlRoutes(api: api).collection)
    return router
  }
}
