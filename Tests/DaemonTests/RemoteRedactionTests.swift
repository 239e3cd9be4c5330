import DaemonSources
import Foundation
import RippleConfig
import RippleCore
import RunStore
import ServiceMetrics
import SystemClients
import TestSupport
import Testing

@testable import DaemonSupport

/// The dashboard shows a remote's status and its last fetch error: a remote with the token CI puts in it
/// (`https://x-access-token:…@`) is shown without it (issue 39, item 11).
@Suite struct RemoteRedactionTests {
  @Test func aRemotesTokenIsNeitherInItsStatusNorInItsFetchError() async throws {
    let folder = try TemporaryDirectory.make(prefix: "ripple-remote")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let remote = "https://x-access-token:ghs_S3CRET@github.com/o/r.git"
    let process = ScriptedProcess()
      .on(
        .command("ripple-fetcher"),
        .exit(1, stderr: "fatal: unable to access '\(remote)/': The requested URL returned error: 403\n"))
    let settings = RepositorySettings(name: "app", source: .remote(url: remote))
    let source = BranchSource(
      settings: settings, url: remote,
      paths: DaemonPaths(state: folder + "/state", cache: folder + "/cache", logs: folder + "/logs"),
      store: try RunStore(path: folder + "/runs.sqlite"), scheduler: .failing, process: process.client,
      fetcherExecutable: "/usr/libexec/ripple-fetcher", log: DaemonLog(minimum: .info, sink: { _ in }),
      metrics: DaemonMetrics(repositories: ["app"]), health: HealthBoard())
    await source.poll()
    let status = source.status
    let error = try #require(status.lastError)
    #expect(error.contains("'https://github.com/o/r.git/'"), "\(error)")
    for shown in [error, status.source] {
      #expect(!shown.contains("ghs_S3CRET") && !shown.contains("x-access-token"), "\(shown)")
    }
  }
}
