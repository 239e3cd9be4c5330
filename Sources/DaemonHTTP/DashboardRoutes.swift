import DaemonWeb
import Foundation
import Hummingbird

/// The dashboard (`/`) and run pages (`/runs/{id}`, with the log so far and, for a logged-in browser, its buttons).
struct DashboardRoutes {
  var api: APIContext

  var collection: RouteCollection<RippledRequestContext> {
    let routes = RouteCollection(context: RippledRequestContext.self)
    routes.get("/") { _, _ in
      let status = await api.status()
      let now = Date()
      let since = now.addingTimeInterval(-Double(Dashboard.missPanelDays) * 86_400)
      let (runs, misses) = try api.read {
        (try api.store.runs(limit: 200), try api.store.misses(since: since))
      }
      let names = status.repositories.map(\.name) + runs.map(\.repository)
      let (flaky, history) = try api.read {
        (
          try FlakyPanelData.load(api.store, repositories: names, now: now),
          try DashboardHistory.load(api.store, repositories: names, now: now)
        )
      }
      return HTTPAPI.html(
        Dashboard.index(status: status, runs: runs, now: now, misses: misses, flaky: flaky, history: history))
    }
    routes.get("/runs/:id") { request, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard let detail = try api.read({ try api.store.detail(id) }) else {
        return HTTPAPI.html(Dashboard.notFound("There is no run \(id)."), status: .notFound)
      }
      let options = RunPageOptions(
        loggedIn: WebAuth.isLoggedIn(request, sessions: api.sessions),
        log: detail.run.logPath.flatMap { Self.logTail(path: $0) },
        misses: try api.read { try api.store.misses(run: id) },
        tests: try api.read { try api.store.testOutcomes(run: id) })
      return HTTPAPI.html(Dashboard.run(detail, now: Date(), options: options))
    }
    return routes
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
