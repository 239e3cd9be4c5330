import DaemonHTTP
import DaemonSupport
import Foundation
import HTTPTypes
import Hummingbird
import RippleCore
import RunModel
import RunStore
import ServiceMetrics

/// A store, a recording run control, and the router over them: for the route tests (DaemonHTTPTests) and the
/// daemon's tests that go through a route (DaemonTests).
package final class RouterFixture: Sendable {
  package let folder: String
  package let store: RunStore
  package let submitted = Locked<[NewRun]>([])
  package let cancelled = Locked<[Int64]>([])
  /// What the routes logged at info level and above.
  package let logged = Locked<[String]>([])
  package let token: [UInt8]? = Array("s3cret".utf8)

  package init() throws {
    folder = NSTemporaryDirectory() + "ripple-router-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    store = try RunStore(path: folder + "/runs.sqlite")
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  /// `runs`: the scheduler as the routes see it; by default one that records what it is asked.
  package func application(
    token: [UInt8]?? = nil, webhookSecret: [UInt8]? = nil, runs: RunControl? = nil,
    sessions: WebSessions = WebSessions(), publicURL: String? = nil, failures: FailureThrottle = FailureThrottle(),
    followers: Slots = Slots(limit: 32), records: RecordsAccess = .off, branchSources: [any RemoteSource] = []
  ) -> some ApplicationProtocol {
    let api = APIContext(
      store: store,
      runs: runs
        ?? RunControl(
          submit: { [submitted, store] new in
            submitted.withLock { $0.append(new) }
            return try? store.enqueue(new)
          },
          cancel: { [cancelled] id in
            cancelled.withLock { $0.append(id) }
            return id == 1
          }),
      metrics: DaemonMetrics(repositories: ["app"]),
      status: {
        DaemonStatus(
          version: "test", startedAt: Date(timeIntervalSince1970: 0), ready: true, healthy: true, problems: [],
          activity: "idle", queueLength: 0, running: [], repositories: [])
      }, branchSources: branchSources, worktreeSources: [], token: token ?? self.token, webhookSecret: webhookSecret,
      log: DaemonLog(minimum: .info, sink: { [logged] line in logged.withLock { $0.append(line) } }),
      health: HealthBoard(), sessions: sessions,
      publicURL: publicURL, hosts: HostPolicy(listenHost: "127.0.0.1", publicURL: publicURL), failures: failures,
      followers: followers, records: records)
    return Application(router: HTTPAPI.router(api))
  }

  package static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
}
