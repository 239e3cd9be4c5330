import DaemonWeb
import Foundation
import Hummingbird

/// The dashboard (`/`) and run pages (`/runs/{id}`): XHTML without scripts.
struct DashboardRoutes {
  var api: APIContext

  var collection: RouteCollection<BasicRequestContext> {
    let routes = RouteCollection(context: BasicRequestContext.self)
    routes.get("/") { _, _ in
      let status = await api.status()
      let runs = try api.read { try api.store.runs(limit: 200) }
      return HTTPAPI.html(Dashboard.index(status: status, runs: runs, now: Date()))
    }
    routes.get("/runs/:id") { _, context in
      let id = try context.parameters.require("id", as: Int64.self)
      guard let detail = try api.read({ try api.store.detail(id) }) else {
        return HTTPAPI.html(Dashboard.notFound("There is no run \(id)."), status: .notFound)
      }
      return HTTPAPI.html(Dashboard.run(detail, now: Date()))
    }
    return routes
  }
}
