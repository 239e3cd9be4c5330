import DaemonWeb
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RunModel
import RunStore
import ServiceMetrics

/// What the HTTP handlers need from the daemon (one value, built at the wiring point).
struct APIContext: Sendable {
  var store: RunStore
  var scheduler: Scheduler
  var metrics: DaemonMetrics
  var status: @Sendable () async -> DaemonStatus
  var branchSources: [BranchSource]
  var worktreeSources: [WorktreeSource]
  /// The bearer token for POST/DELETE on /api/runs; nil: those answer 403.
  var token: [UInt8]?
  /// The GitHub webhook secret; nil: /hooks/github answers 404.
  var webhookSecret: [UInt8]?
  var log: DaemonLog
  var health: HealthBoard

  /// A read of the store for a request. A failure makes the daemon unhealthy (listed on /readyz until the
  /// file checks out again) and answers 503 with what failed.
  func read<T>(_ body: () throws -> T) throws -> T {
    try HTTPAPI.storeRead(health: health, log: log, body)
  }
}

/// Routes: liveness/readiness, the JSON API, the webhook, metrics and the dashboard.
enum HTTPAPI {
  static let maxBody = 5 << 20

  static func router(_ api: APIContext) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: UnexpectedErrorMiddleware(log: api.log))
    router.get("/healthz") { _, _ in "ok\n" }
    router.get("/readyz") { _, _ in
      let status = await api.status()
      let ready = status.ready && status.healthy
      return try json(
        ReadyAnswer(ready: status.ready, healthy: status.healthy, problems: status.problems),
        status: ready ? .ok : .serviceUnavailable)
    }
    router.get("/api/status") { _, _ in try json(await api.status()) }
    router.get("/api/runs") { request, _ in
      let query = request.uri.queryParameters
      var states: Set<RunState>?
      if let raw = query["state"] {
        states = Set(
          try raw.split(separator: ",").map { name in
            guard let state = RunState(rawValue: String(name)) else {
              throw HTTPError(
                .badRequest, message: "unknown state '\(name)'; one of \(RunState.allCases.map(\.rawValue))")
            }
            return state
          })
      }
      let limit = min(max(query["limit"].flatMap { Int(String($0)) } ?? 50, 1), 500)
      let runs = try api.read {
        try api.store.runs(
          repository: query["repository"].map(String.init), branch: query["branch"].map(String.init),
          states: states, limit: limit, before: query["before"].flatMap { Int64(String($0)) })
      }
      return try json(runs)
    }
    router.get("/api/runs/:id") { _, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard let detail = try api.read({ try api.store.detail(id) }) else {
        throw HTTPError(.notFound, message: "no run \(id)")
      }
      return try json(detail)
    }
    router.get("/api/runs/:id/log") { _, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard let run = try api.read({ try api.store.run(id) }) else {
        throw HTTPError(.notFound, message: "no run \(id)")
      }
      guard let path = run.logPath, let data = FileManager.default.contents(atPath: path) else {
        throw HTTPError(.notFound, message: "run \(id) has no log")
      }
      return response(.ok, contentType: "text/plain; charset=utf-8", bytes: [UInt8](data))
    }
    router.post("/api/runs") { request, _ in
      try authorize(request, api.token)
      let body = try await request.body.collect(upTo: maxBody)
      let trigger = try TriggerRequest.decode(Data(buffer: body))
      return try await triggerRun(trigger, api)
    }
    router.delete("/api/runs/:id") { request, context in
      try authorize(request, api.token)
      let id = try context.parameters.require("id", as: Int64.self)
      guard await api.scheduler.cancel(id) else {
        throw HTTPError(.conflict, message: "run \(id) is not queued or running")
      }
      return try json(["cancelled": id], status: .accepted)
    }
    router.post("/hooks/github") { request, _ in try await webhook(request, api) }
    router.get("/metrics") { _, _ in
      let runsByState = (try? api.read { try api.store.countsByState() }) ?? [:]
      let status = await api.status()
      let text = api.metrics.render(
        runsByState: runsByState, queueLength: status.queueLength, running: status.running.count,
        ready: status.ready, healthy: status.healthy)
      return response(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: Array(text.utf8))
    }
    router.get("/") { _, _ in
      let status = await api.status()
      let runs = try api.read { try api.store.runs(limit: 200) }
      return html(Dashboard.index(status: status, runs: runs, now: Date()))
    }
    router.get("/runs/:id") { _, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard let detail = try api.read({ try api.store.detail(id) }) else {
        return html(Dashboard.notFound("There is no run \(id)."), status: .notFound)
      }
      return html(Dashboard.run(detail, now: Date()))
    }
    return router
  }

  /// Runs a store call for a request: a store failure makes the daemon unhealthy (listed on /readyz until the
  /// file checks out again), is logged once, and answers 503 instead of an empty 500.
  static func storeRead<T>(health: HealthBoard, log: DaemonLog, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as RunStoreError {
      if !health.has(HealthBoard.storeReads) { log.error("the runs database failed: \(error.description)") }
      health.set(HealthBoard.storeReads, "the runs database failed: \(error.description)")
      throw HTTPError(.serviceUnavailable, message: "the runs database failed; see /readyz")
    }
  }

  struct ReadyAnswer: Codable {
    var ready: Bool
    var healthy: Bool
    var problems: [String]
  }

  /// `POST /api/runs`: `{"repository": "name", "branch": "main", "commit": "<sha>"}`. Without a commit, a
  /// remote repository is fetched first and the branch's new head (if any) runs; a working tree is checked.
  struct TriggerRequest: Codable {
    var repository: String
    var branch: String?
    var commit: String?

    /// The request body, or a 400 naming what is wrong with it (never a 500).
    static func decode(_ body: Data) throws -> TriggerRequest {
      guard !body.isEmpty else {
        throw HTTPError(.badRequest, message: "the body is empty: " + example)
      }
      do {
        return try JSONDecoder().decode(TriggerRequest.self, from: body)
      } catch let error as DecodingError {
        throw HTTPError(.badRequest, message: problem(error))
      }
    }

    static let example = #"send a JSON object such as {"repository": "app", "branch": "main"}"#

    /// What is wrong with a body, by field.
    static func problem(_ error: DecodingError) -> String {
      func field(_ path: [any CodingKey]) -> String? {
        path.isEmpty ? nil : path.map(\.stringValue).joined(separator: ".")
      }
      switch error {
      case .keyNotFound(let key, let context):
        return "'\(field(context.codingPath + [key]) ?? key.stringValue)' is required; " + example
      case .typeMismatch(_, let context), .valueNotFound(_, let context):
        guard let name = field(context.codingPath) else { return "the body is not a JSON object; " + example }
        return "'\(name)' must be a string"
      case .dataCorrupted(let context):
        if let name = field(context.codingPath) { return "'\(name)' is not valid: \(context.debugDescription)" }
        return "the body is not a JSON object (not valid JSON); " + example
      @unknown default:
        return "the body is not a JSON object; " + example
      }
    }
  }

  /// A full commit id: exactly 40 ASCII hex digits (`Character.isHexDigit` also takes full-width digits).
  static func isFullCommitID(_ text: String) -> Bool {
    text.utf8.count == 40
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }
  }

  private static func triggerRun(_ trigger: TriggerRequest, _ api: APIContext) async throws -> Response {
    if api.worktreeSources.contains(where: { $0.settings.name == trigger.repository }) {
      guard
        let run = await api.scheduler.submit(
          NewRun(repository: trigger.repository, branch: WorktreeSource.lane, head: "worktree", trigger: .api))
      else { throw HTTPError(.serviceUnavailable, message: "the runs database is failing; see /readyz") }
      return try json(run, status: .accepted)
    }
    guard let source = api.branchSources.first(where: { $0.settings.name == trigger.repository }) else {
      throw HTTPError(.notFound, message: "no repository named '\(trigger.repository)' is configured")
    }
    guard let branch = trigger.branch else {
      throw HTTPError(.badRequest, message: "'branch' is required for a remote repository")
    }
    guard let commit = trigger.commit else {
      source.requestFetch()
      return try json(["queued": "fetch of \(trigger.repository)"], status: .accepted)
    }
    guard isFullCommitID(commit) else {
      throw HTTPError(.badRequest, message: "'commit' must be a full 40-character sha")
    }
    // A commit pushed a moment ago may not be in the mirror yet: fetch once before refusing it.
    if !source.hasCommit(commit.lowercased()) {
      await source.poll()
      guard source.hasCommit(commit.lowercased()) else {
        throw HTTPError(.notFound, message: "commit \(commit) is not on \(trigger.repository)'s remote")
      }
      // That fetch may have queued this very commit as the branch's new head: answer with that run.
      if let live = try api.read({
        try api.store.runs(repository: trigger.repository, branch: branch, states: [.queued, .running])
      }).first(where: { $0.head == commit.lowercased() }) {
        return try json(live, status: .accepted)
      }
    }
    guard
      let run = await api.scheduler.submit(
        NewRun(repository: trigger.repository, branch: branch, head: commit.lowercased(), trigger: .api))
    else { throw HTTPError(.serviceUnavailable, message: "the runs database is failing; see /readyz") }
    return try json(run, status: .accepted)
  }

  /// GitHub deliveries: signature first (401 before the body is parsed), then dedup, then 202 and a fetch.
  private static func webhook(_ request: Request, _ api: APIContext) async throws -> Response {
    guard let secret = api.webhookSecret else {
      throw HTTPError(.notFound, message: "webhooks are not configured (http.webhookSecretFile)")
    }
    let body = try await request.body.collect(upTo: maxBody)
    let bytes = [UInt8](buffer: body)
    let signature = request.headers[HTTPField.Name("X-Hub-Signature-256")!]
    guard WebhookVerifier.verify(signatureHeader: signature, body: bytes, secret: secret) else {
      api.metrics.webhookDelivery(result: "rejected")
      api.log.warning("rejected a webhook delivery: missing or wrong X-Hub-Signature-256")
      throw HTTPError(.unauthorized, message: "bad signature")
    }
    let delivery = request.headers[HTTPField.Name("X-GitHub-Delivery")!] ?? ""
    if !delivery.isEmpty, try !api.read({ try api.store.recordDelivery(delivery) }) {
      api.metrics.webhookDelivery(result: "duplicate")
      return try json(["duplicate": delivery] as [String: String], status: .ok)
    }
    let event = request.headers[HTTPField.Name("X-GitHub-Event")!] ?? "push"
    let payload = try? JSONDecoder().decode(WebhookPayload.self, from: Data(bytes))
    let targets = api.branchSources.filter { $0.matchesRemote(payload?.urls ?? []) }
    api.metrics.webhookDelivery(result: "accepted")
    if event == "push" || event == "create" {
      for source in targets { source.requestFetch() }
    }
    api.log.info(
      "webhook \(event) delivery \(delivery): fetching \(targets.map(\.settings.name).joined(separator: ", "))")
    return try json(
      ["accepted": delivery, "fetching": targets.map(\.settings.name).joined(separator: ",")],
      status: .accepted)
  }

  private static func authorize(_ request: Request, _ token: [UInt8]?) throws {
    guard let token else { throw HTTPError(.forbidden, message: "no API token is configured (http.tokenFile)") }
    let header = request.headers[.authorization] ?? ""
    guard header.hasPrefix("Bearer "), constantTimeEqual(Array(header.utf8.dropFirst(7)), token) else {
      throw HTTPError(.unauthorized, message: "a valid 'Authorization: Bearer <token>' is required")
    }
  }

  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
  }

  static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
    response(status, contentType: "application/json", bytes: try APIJSON.encode(value))
  }

  static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
    response(status, contentType: "text/html; charset=utf-8", bytes: Array(page.utf8))
  }

  static func response(_ status: HTTPResponse.Status, contentType: String, bytes: [UInt8]) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = contentType
    headers[.cacheControl] = "no-store"
    headers[HTTPField.Name("Content-Security-Policy")!] =
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:"
    headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}

/// Any error that is not already an HTTP answer (a bug, an unexpected failure) becomes a 500 with a JSON body,
/// and is logged: never an empty 500 nobody hears about.
struct UnexpectedErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  var log: DaemonLog

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    do {
      return try await next(request, context)
    } catch let error as any HTTPResponseError {
      throw error
    } catch {
      log.error("\(request.method) \(request.uri.path) failed: \(error)")
      throw HTTPError(.internalServerError, message: "internal error: \(error); the daemon's log has it too")
    }
  }
}
