import DaemonWeb
import Foundation
import Hummingbird
import RunModel

/// The dashboard (`/`) and run pages (`/runs/{id}`, with the log so far and, for a logged-in browser, its buttons).
struct DashboardRoutes {
  var api: APIContext

  var collection: RouteCollection<RippledRequestContext> {
    let routes = RouteCollection(context: RippledRequestContext.self)
    routes.get("/") { request, _ in
      let status = await api.status()
      let now = Date()
      var query: [String: String] = [:]
      for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
      let filter: RunFilter?
      do throws(RunFilter.Problem) {
        filter = try RunFilter.parse(query)
      } catch {
        return HTTPAPI.html(
          Dashboard.error(title: "Bad request", message: error.description), status: .badRequest)
      }
      if let filter { return try Self.runList(filter, status: status, now: now, api: api) }
      let since = now.addingTimeInterval(-Double(Dashboard.missPanelDays) * 86_400)
      let (runsRead, misses) = try api.read {
        (try api.store.runs(limit: 200), try api.store.misses(since: since))
      }
      let runs = CommitNames.named(runsRead, api: api)
      let names = status.repositories.map(\.name) + runs.map(\.repository)
      let (flaky, history) = try api.read {
        (
          try FlakyPanelData.load(
            api.store, repositories: names, now: now, remotes: CommitNames.remotes(api),
            trustedKeys: api.records.trustedKeys),
          try DashboardHistory.load(api.store, repositories: names, now: now, coverageOn: api.coverageRepositories)
        )
      }
      return HTTPAPI.html(
        Dashboard.index(
          status: status, runs: runs, now: now, misses: misses, flaky: flaky, history: history,
          remotes: CommitNames.remotes(api)))
    }
    routes.get("/runs/:id") { request, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard var detail = try api.read({ try api.store.detail(id) }) else {
        return HTTPAPI.html(Dashboard.notFound("There is no run \(id)."), status: .notFound)
      }
      detail.run = CommitNames.named([detail.run], api: api)[0]
      let options = RunPageOptions(
        loggedIn: WebAuth.isLoggedIn(request, sessions: api.sessions),
        log: detail.run.logPath.flatMap { Self.logTail(path: $0) },
        misses: try api.read { try api.store.misses(run: id) },
        tests: try api.read { try api.store.testOutcomes(run: id) },
        remote: CommitNames.remotes(api)[detail.run.repository])
      return HTTPAPI.html(Dashboard.run(detail, now: Date(), options: options))
    }
    routes.get("/repositories/:name/targets/:key") { _, context in
      let name = Self.decoded(try context.parameters.require("name"))
      let key = Self.decoded(try context.parameters.require("key"))
      guard let colon = key.lastIndex(of: ":"), colon != key.startIndex, key.index(after: colon) != key.endIndex
      else {
        return HTTPAPI.html(
          Dashboard.error(
            title: "Bad request", message: "A target is named package:target, such as .:AppTests (not '\(key)')."),
          status: .badRequest)
      }
      let package = String(key[..<colon])
      let target = String(key[key.index(after: colon)...])
      let runs = try api.read {
        try api.store.targetHistory(
          repository: name, package: package, name: target, limit: Dashboard.targetHistoryRuns)
      }
      let named = CommitNames.named(runs.map(\.run), api: api)
      let entries = zip(runs, named).map { TargetRun(run: $1, target: $0.target) }
      return HTTPAPI.html(
        Dashboard.targetHistory(
          repository: name, package: package, name: target, runs: entries, now: Date(),
          remote: CommitNames.remotes(api)[name]))
    }
    return routes
  }

  /// A path parameter with its percent-encoding removed (a package folder's slashes arrive as `%2F`).
  static func decoded(_ text: String) -> String {
    text.contains("%") ? (text.removingPercentEncoding ?? text) : text
  }

  /// A filtered page of runs (`RunFilter`): one more run is read than shown, to know whether older ones match.
  static func runList(_ filter: RunFilter, status: DaemonStatus, now: Date, api: APIContext) throws -> Response {
    let read = try api.read {
      try api.store.runs(
        repository: filter.repository, branch: filter.branch,
        states: filter.states.isEmpty ? nil : Set(filter.states), limit: RunFilter.pageSize + 1,
        before: filter.before)
    }
    let runs = CommitNames.named(Array(read.prefix(RunFilter.pageSize)), api: api)
    let names = Set(status.repositories.map(\.name)).union(runs.map(\.repository)).sorted()
    return HTTPAPI.html(
      Dashboard.runList(
        filter: filter, runs: runs, hasOlder: read.count > RunFilter.pageSize, repositories: names, now: now,
        remotes: CommitNames.remotes(api)))
  }

  /// The last `limit` bytes of a run's log, for its page; nil when there is no log file (yet). The text may start
  /// inside a character: it is decoded with replacement, the offset stays the byte count.
  static func logTail(path: String, limit: Int = 64 << 10) -> LogTail? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd() else { return nil }
    let start = size > UInt64(limit) ? size - UInt64(limit) : 0
    guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.read(upToCount: Int(size - start))
    else { return LogTail(text: "", omittedBytes: Int(start), endOffset: Int(start)) }
    return LogTail(
      text: String(decoding: data, as: UTF8.self), omittedBytes: Int(start), endOffset: Int(start) + data.count)
  }
}
