import Foundation
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

@Suite("a run's sandbox and cache layer")
struct RunIsolationTests {
  static func run(_ branch: String, id: Int64 = 7) -> RunRecord {
    RunRecord(id: id, repository: "app", branch: branch, trigger: .fetch, head: "abc", queuedAt: Date())
  }

  static let settings = RepositorySettings(
    name: "app", source: .remote(url: "https://git.example/acme/app.git"),
    branches: [BranchRule(pattern: "main"), BranchRule(pattern: "feature/*")])

  final class Folders: @unchecked Sendable {
    let root: String
    let paths: DaemonPaths
    init() throws {
      root =
        URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
        + "/ripple-isolation-\(UUID().uuidString.prefix(8))"
      paths = DaemonPaths(state: root + "/state", cache: root + "/cache", logs: root + "/logs")
      for folder in [
        paths.state, paths.logs, paths.mirror("app"),
        paths.worktree("app", lane: "main", checkoutName: "app") + "/.git",
      ] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      try Data("t\n".utf8).write(to: URL(fileURLWithPath: root + "/token"))
    }
    deinit { try? FileManager.default.removeItem(atPath: root) }
  }

  @Test func theRunSeesItsWorkTreeAndNothingOfTheDaemon() throws {
    let folders = try Folders()
    let paths = folders.paths
    var isolation = RunIsolation(bwrap: "bwrap", paths: paths)
    isolation.secretFiles = [folders.root + "/token", folders.root + "/missing-token"]
    let policy = isolation.policy(run: Self.run("main"), settings: Self.settings)
    let worktree = paths.worktree("app", lane: "main", checkoutName: "app")
    #expect(policy.hiddenDirectories == [paths.state, paths.cache, paths.logs])
    #expect(policy.hiddenFiles == [folders.root + "/token"], "a file that does not exist is not mounted over")
    #expect(policy.readOnly == [worktree + "/.git", paths.mirror("app")])
    #expect(
      policy.writable == [worktree, paths.scratch("app", lane: "main"), paths.temporaryDirectory("app", lane: "main")])
  }

  @Test func protectedBranchesWriteTheSharedLayerOthersTheirOwn() {
    let isolation = RunIsolation.unsandboxed(DaemonPaths(state: "/s", cache: "/c", logs: "/l"))
    #expect(isolation.overlay(run: Self.run("main"), settings: Self.settings) == nil, "the primary branch")
    #expect(
      isolation.overlay(run: Self.run("feature/x"), settings: Self.settings)
        == "/c/ripple/branches/app/feature_2Fx")
    var configured = Self.settings
    configured.protectedBranches = ["release/*"]
    #expect(isolation.overlay(run: Self.run("release/1.0"), settings: configured) == nil)
    #expect(isolation.overlay(run: Self.run("main"), settings: configured) != nil, "the configured list replaces it")
    let watched = RepositorySettings(name: "app", source: .workingTree(path: "/src/app"))
    #expect(isolation.overlay(run: Self.run("worktree"), settings: watched) == "/c/ripple/branches/app/worktree")
  }

  @Test func theRunsServicesCarryTheLayerAndTheSandbox() async throws {
    let recording = ScriptedProcess().on(.command("/usr/bin/bwrap"), .exit(0))
    let isolation = RunIsolation(bwrap: "/usr/bin/bwrap", paths: DaemonPaths(state: "/s", cache: "/c", logs: "/l"))
    let services = isolation.apply(
      to: RippleServices(process: recording.client, environment: ["RIPPLE_CACHE_DIR": "/c/ripple"]),
      run: Self.run("feature/x"), settings: Self.settings)
    #expect(services.manifestCache.directory == "/c/ripple/manifests")
    #expect(services.manifestCache.overlay == "/c/ripple/branches/app/feature_2Fx")
    let result = try await services.process.run(ProcessRequest("swift", ["build"]))
    #expect(result.request.executable == "swift", "results name the command")
    #expect(recording.requests.first?.executable == "/usr/bin/bwrap")
    #expect(recording.requests.first.map { Array($0.arguments.suffix(3)) } == ["--", "swift", "build"])
  }

  /// The service's HOME is its state folder and XDG_CACHE_HOME is under its cache: both hidden and read-only in
  /// the sandbox, where clang's module cache and SwiftPM's caches could not be made (every run failed at
  /// manifest evaluation). A sandboxed run's processes get a home of their lane's own, in its build folder.
  @Test func sandboxedProcessesHaveAWritableHomeOfTheirLanesOwn() async throws {
    let recording = ScriptedProcess().on(.command("bwrap"), .exit(0))
    let paths = DaemonPaths(state: "/s", cache: "/c", logs: "/l")
    let isolation = RunIsolation(bwrap: "bwrap", paths: paths)
    for branch in ["main", "feature/x"] {
      let services = isolation.apply(
        to: RippleServices(process: recording.client, environment: [:]), run: Self.run(branch), settings: Self.settings)
      _ = try await services.process.run(ProcessRequest("swift", ["build"]))
    }
    let homes = recording.requests.map { $0.environment["HOME"] ?? nil }
    #expect(
      homes == [paths.scratch("app", lane: "main") + "/.home", paths.scratch("app", lane: "feature/x") + "/.home"])
    let caches = recording.requests.map { $0.environment["XDG_CACHE_HOME"] ?? nil }
    #expect(caches == homes.map { $0.map { $0 + "/.cache" } })
    #expect(
      isolation.policy(run: Self.run("main"), settings: Self.settings).writable.contains(
        paths.scratch("app", lane: "main")),
      "the home is in a folder the run may write")

    let unsandboxed = RunIsolation.unsandboxed(paths).apply(
      to: RippleServices(process: recording.client, environment: [:]), run: Self.run("main"), settings: Self.settings)
    _ = try await unsandboxed.process.run(ProcessRequest("bwrap", []))
    #expect(recording.requests.last.map { $0.environment["HOME"] == nil } == true, "unsandboxed: the service's own")
  }

  @Test func requiredWithoutBubblewrapRefusesToStart() async throws {
    let missing = ScriptedProcess().on(.any, .run { throw ProcessError.notFound(executable: $0.executable) }).client
    var configuration = DaemonConfiguration()
    configuration.sandbox = .required
    let lines = Locked<[String]>([])
    let log = DaemonLog(minimum: .debug) { line in lines.withLock { $0.append(line) } }
    let error = await #expect(throws: DaemonError.self) {
      _ = try await RunIsolation.make(
        configuration, paths: DaemonPaths(state: "/s", cache: "/c", logs: "/l"), environment: [:], process: missing,
        log: log)
    }
    #expect(error?.category == .environment, "exit code 3")
    #expect(error?.description.contains("runs.sandbox is `required` and the sandbox is unavailable") == true)
    #expect(error?.description.contains("apt-get install bubblewrap") == true)
    await #expect(throws: DaemonError.self) { _ = try await Rippled.sandboxSummary(configuration, process: missing) }

    // auto: a warning saying what it means, and unsandboxed runs.
    configuration.sandbox = .auto
    let auto = try await RunIsolation.make(
      configuration, paths: DaemonPaths(state: "/s", cache: "/c", logs: "/l"), environment: [:], process: missing,
      log: log)
    #expect(auto.bwrap == nil)
    #expect(
      lines.withLock {
        $0.contains { $0.contains("no sandbox for runs") && $0.contains("can write the daemon's state") }
      })
    let summary = try await Rippled.sandboxSummary(configuration, process: missing)
    #expect(summary.hasPrefix("sandbox: auto: unavailable: bubblewrap (`bwrap`) is not installed"), "\(summary)")
  }
}
