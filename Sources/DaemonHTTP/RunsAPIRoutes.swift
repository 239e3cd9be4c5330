import DaemonSupport
import DaemonWeb
import Foundation
import Hummingbird
import RunModel

/// `/api/status`, `/api/runs` (list, one run, its log, followed live) for anyone who can reach the port;
/// queuing, cancelling and re-running runs (`POST /api/runs`, `DELETE /api/runs/{id}`,
/// `POST /api/runs/{id}/cancel`, `POST /api/runs/{id}/rerun`) behind the bearer token.
package struct RunsAPIRoutes {
  var api: APIContext

  var collection: RouteCollection<RippledRequestContext> {
    let routes = RouteCollection(context: RippledRequestContext.self)
    routes.get("status") { _, _ in try HTTPAPI.json(await api.status()) }
    routes.get("runs") { request, _ in
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
      return try HTTPAPI.json(runs)
    }
    routes.get("runs/:id") { _, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard let detail = try api.read({ try api.store.detail(id) }) else {
        throw HTTPError(.notFound, message: "no run \(id)")
      }
      return try HTTPAPI.json(detail)
    }
    routes.get("runs/:id/log") { request, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard let run = try api.read({ try api.store.run(id) }) else {
        throw HTTPError(.notFound, message: "no run \(id)")
      }
      let query = request.uri.queryParameters
      let offsetText = query["offset"].map(String.init) ?? "0"
      let follow = ["1", "true"].contains(query["follow"].map(String.init) ?? "")
      guard let offset = Int(offsetText), offset >= 0 else {
        throw HTTPError(.badRequest, message: "'offset' must be a whole number, 0 or more (not '\(offsetText)')")
      }
      guard let path = run.logPath, follow || FileManager.default.fileExists(atPath: path) else {
        throw HTTPError(.notFound, message: "run \(id) has no log")
      }
      // Each follower holds a connection for as long as the run goes on: their number is capped.
      guard !follow || api.followers.take() else {
        throw HTTPError(
          .serviceUnavailable, headers: [.retryAfter: "5"],
          message: "too many logs are followed at once (http.maxLogFollowers: \(api.followers.limit))")
      }
      let store = api.store
      return RunLogStream.response(path: path, offset: offset, follow: follow, slots: follow ? api.followers : nil) {
        guard let state = (try? store.run(id))??.state else { return false }
        return state == .queued || state == .running
      }
    }
    let changes = routes.group().add(middleware: api.authMiddleware)
    changes.post("runs") { request, _ in
      let body = try await request.body.collect(upTo: HTTPAPI.maxBody)
      let trigger = try TriggerRequest.decode(Data(buffer: body))
      return try await Self.triggerRun(trigger, api)
    }
    changes.delete("runs/:id") { _, context in
      try await Self.cancel(try context.parameters.require("id", as: Int64.self), api)
    }
    changes.post("runs/:id/cancel") { _, context in
      try await Self.cancel(try context.parameters.require("id", as: Int64.self), api)
    }
    changes.post("runs/:id/rerun") { request, context in
      let body = try await request.body.collect(upTo: HTTPAPI.maxBody)
      let rerun = try RerunRequest.decode(Data(buffer: body))
      return try await Self.rerun(try context.parameters.require("id", as: Int64.self), fresh: rerun.fresh, api)
    }
    return routes
  }

  /// `POST /api/runs`: `{"repository": "name", "branch": "main", "commit": "<sha>"}`. Without a commit, a
  /// remote repository is fetched first and the branch's new head (if any) runs; a working tree is checked.
  struct TriggerRequest: Codable {
    var repository: String
    var branch: String?
    var commit: String?
    /// A canary now: every test target of the branch's last known head (or `commit`), then its selection misses.
    var canary: Bool?

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

  static func cancel(_ id: Int64, _ api: APIContext) async throws -> Response {
    guard await api.runs.cancel(id) else {
      throw HTTPError(.conflict, message: "run \(id) is not queued or running")
    }
    return try HTTPAPI.json(["cancelled": id], status: .accepted)
  }

  /// `POST /api/runs/{id}/rerun`'s optional body: `{"fresh": true}` reads no pass record.
  struct RerunRequest: Codable {
    var fresh: Bool?

    /// An empty body is `{}`; anything else that is not this object is a 400 naming what is wrong.
    static func decode(_ body: Data) throws -> RerunRequest {
      guard !body.isEmpty else { return RerunRequest() }
      do {
        return try JSONDecoder().decode(RerunRequest.self, from: body)
      } catch {
        throw HTTPError(
          .badRequest,
          message: #"the body must be empty or a JSON object such as {"fresh": true} ('fresh' a boolean)"#)
      }
    }
  }

  /// The same commit of the same branch again, as a new run; a run still queued or running is a 409.
  static func rerun(_ id: Int64, fresh: Bool?, _ api: APIContext) async throws -> Response {
    try HTTPAPI.json(try await submitRerun(id, fresh: fresh, api), status: .accepted)
  }

  /// The new run of a re-run, or the HTTP error naming why there is none (also for the run page's button).
  /// `fresh` (nil: a re-run of a run that did not pass is fresh, of one that passed is not) reads no pass
  /// record, so a target that passed before at this content runs again.
  static func submitRerun(_ id: Int64, fresh: Bool?, _ api: APIContext) async throws -> RunRecord {
    guard let run = try api.read({ try api.store.run(id) }) else {
      throw HTTPError(.notFound, message: "no run \(id)")
    }
    guard run.state != .queued && run.state != .running else {
      throw HTTPError(.conflict, message: "run \(id) is still \(run.state.rawValue); cancel it first or wait for it")
    }
    // A re-run shares its branch's lane: queued now, it would supersede the branch's pending run (a newer head
    // never tested) or, with `cancelRunning`, stop the running one.
    if let active = try api.read({ try api.store.activeRun(repository: run.repository, branch: run.branch) }) {
      throw HTTPError(
        .conflict,
        message: "\(run.branch) of \(run.repository) has run \(active.id) \(active.state.rawValue); "
          + "re-run run \(id) when it has ended")
    }
    guard
      let new = await api.runs.submit(
        NewRun(
          repository: run.repository, branch: run.branch, head: run.head, trigger: .api, retryOf: id,
          fresh: fresh ?? (run.state != .passed)))
    else { throw HTTPError(.serviceUnavailable, message: "the runs database is failing; see /readyz") }
    return new
  }

  /// `{"repository": "app", "branch": "main", "canary": true}`: a full run now, measured for selection misses
  /// like a scheduled one (docs/DESIGN.md, "Canary runs and selection misses").
  static func triggerCanary(_ trigger: TriggerRequest, _ api: APIContext) async throws -> Response {
    guard api.branchSources.contains(where: { $0.settings.name == trigger.repository }) else {
      if api.worktreeSources.contains(where: { $0.settings.name == trigger.repository }) {
        throw HTTPError(.badRequest, message: "a canary runs a branch of a remote repository, not a working tree")
      }
      throw HTTPError(.notFound, message: "no repository named '\(trigger.repository)' is configured")
    }
    let new = try canaryRun(trigger) { branch in
      try api.read { try api.store.lastHead(repository: trigger.repository, branch: branch) }
    }
    guard let run = await api.runs.submit(new) else {
      throw HTTPError(.serviceUnavailable, message: "the runs database is failing; see /readyz")
    }
    return try HTTPAPI.json(run, status: .accepted)
  }

  /// The canary a request asks for: its branch (required) at `commit`, else at the branch's last known head.
  static func canaryRun(_ trigger: TriggerRequest, lastHead: (String) throws -> String?) throws -> NewRun {
    guard let branch = trigger.branch else {
      throw HTTPError(.badRequest, message: "'branch' is required for a canary")
    }
    let head: String
    if let commit = trigger.commit {
      guard isFullCommitID(commit) else {
        throw HTTPError(.badRequest, message: "'commit' must be a full 40-character sha")
      }
      head = commit.lowercased()
    } else {
      guard let last = try lastHead(branch) else {
        throw HTTPError(
          .conflict, message: "\(trigger.repository)/\(branch) has no run yet: give a 'commit' for the canary")
      }
      head = last
    }
    return NewRun(repository: trigger.repository, branch: branch, head: head, trigger: .canary)
  }

  static func triggerRun(_ trigger: TriggerRequest, _ api: APIContext) async throws -> Response {
    if trigger.canary == true { return try await triggerCanary(trigger, api) }
    if api.worktreeSources.contains(where: { $0.settings.name == trigger.repository }) {
      guard
        let run = await api.runs.submit(
          NewRun(repository: trigger.repository, branch: DaemonPaths.workingTreeLane, head: "worktree", trigger: .api))
      else { throw HTTPError(.serviceUnavailable, message: "the runs database is failing; see /readyz") }
      return try HTTPAPI.json(run, status: .accepted)
    }
    guard let source = api.branchSources.first(where: { $0.settings.name == trigger.repository }) else {
      throw HTTPError(.notFound, message: "no repository named '\(trigger.repository)' is configured")
    }
    guard let branch = trigger.branch else {
      throw HTTPError(.badRequest, message: "'branch' is required for a remote repository")
    }
    guard let commit = trigger.commit else {
      source.requestFetch()
      return try HTTPAPI.json(["queued": "fetch of \(trigger.repository)"], status: .accepted)
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
        return try HTTPAPI.json(live, status: .accepted)
      }
    }
    guard
      let run = await api.runs.submit(
        NewRun(repository: trigger.repository, branch: branch, head: commit.lowercased(), trigger: .api))
    else { throw HTTPError(.serviceUnavailable, message: "the runs database is failing; see /readyz") }
    return try HTTPAPI.json(run, status: .accepted)
  }
}
