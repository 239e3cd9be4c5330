import Foundation
import Hummingbird
import RunModel
import ServiceMetrics

/// `/healthz` (the process answers), `/readyz` (ready and healthy, else 503 with the problems), `/metrics`.
struct HealthRoutes {
  var api: APIContext

  var collection: RouteCollection<RippledRequestContext> {
    let routes = RouteCollection(context: RippledRequestContext.self)
    routes.get("/healthz") { _, _ in "ok\n" }
    routes.get("/readyz") { _, _ in
      let status = await api.status()
      let ready = status.ready && status.healthy
      return try HTTPAPI.json(
        ReadyAnswer(ready: status.ready, healthy: status.healthy, problems: status.problems),
        status: ready ? .ok : .serviceUnavailable)
    }
    routes.get("/metrics") { _, _ in
      let runsByState = (try? api.read { try api.store.countsByState() }) ?? [:]
      let status = await api.status()
      let now = Date()
      let savings = status.repositories.map(\.name).compactMap { name in
        try? api.read {
          let saved = try DashboardHistory.savedPerDay(api.store, repository: name, now: now)
          var full: Double?
          if case .measured(let seconds, _, _) = saved.basis { full = seconds }
          return DaemonMetrics.Savings(
            repository: name, savedSeconds: saved.days.reduce(0) { $0 + $1.seconds }, fullSuiteSeconds: full)
        }
      }
      let repositories = status.repositories.map(\.name)
      let lineCoverage =
        (try? api.read { try DashboardHistory.lineCoverage(api.store, repositories: repositories) }) ?? [:]
      let text = api.metrics.render(
        runsByState: runsByState, queueLength: status.queueLength, running: status.running.count,
        ready: status.ready, healthy: status.healthy, savings: savings, lineCoverage: lineCoverage)
      return HTTPAPI.response(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", bytes: Array(text.utf8))
    }
    return routes
  }

  struct ReadyAnswer: Codable {
    var ready: Bool
    var healthy: Bool
    var problems: [String]
  }
}
