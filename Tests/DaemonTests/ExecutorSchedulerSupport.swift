import Foundation
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import RunStore
import ServiceMetrics
import SystemClients
import TestSupport

@testable import Daemon
@testable import DaemonSupport

/// A daemon's state for in-process runs of `RunExecutor` and `Scheduler`: a real git mirror of a one-package
/// repository, a real SQLite store, and the services bag `.failing` with only the clients a test scripts (a
/// `ScriptedProcess` standing in for the toolchain, a `ManualClock`). No real `swift` ever runs.
final class DaemonRunFixture: Sendable {
  let folder: String
  let repository: GitFixture
  let paths: DaemonPaths
  let store: RunStore
  let process: ScriptedProcess
  let clock = ManualClock()
  let health = HealthBoard()
  /// The daemon log's lines of the fixture's schedulers (info and up).
  let daemonLog = Locked<[String]>([])
  let head: String

  /// `swift test` answers for the run; the default passes. `prepare` adds to the repository before its commit.
  init(
    rippleYML: String? = nil, swiftTest: ScriptedProcess.Response = DaemonRunFixture.passing,
    prepare: (GitFixture) throws -> Void = { _ in }
  ) throws {
    folder = try TemporaryDirectory.make(prefix: "ripple-executor")
    repository = try GitFixture()
    try repository.write("Package.swift", "// swift-tools-version: 6.0\n// scripted: see DaemonRunFixture.manifest\n")
    try repository.write("Sources/Core/Core.swift", "public let core = 1\n")
    try repository.write("Tests/CoreTests/CoreTests.swift", "import Testing\n@Test func adds() {}\n")
    if let rippleYML { try repository.write("ripple.yml", rippleYML) }
    try prepare(repository)
    head = try repository.commitAll("init")
    paths = DaemonPaths(state: folder + "/state", cache: folder + "/cache", logs: folder + "/logs")
    try FileManager.default.createDirectory(atPath: paths.logs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: (paths.mirror("app") as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    _ = try GitFixture.git(["clone", "-q", "--mirror", repository.root, paths.mirror("app")], in: folder)
    store = try RunStore(path: folder + "/runs.sqlite")
    process = ScriptedProcess()
      .on(.command("swift", "--version"), .exit(0, stdout: "Swift version 6.3.1 (swift-6.3.1-RELEASE)\n"))
      .on(.command("swift", "package", "dump-package"), .exit(0, stdout: Self.manifest))
      .on(.command("swift", "build"), .exit(0))
      .on(.command("swift", "test", "list"), .exit(0, stdout: "CoreTests.adds()\n"))
      .on(.command("swift", "test"), swiftTest)
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }

  /// A new commit of `main` that changes the `Core` target, fetched into the mirror as a poll would.
  func commitAndFetch(_ message: String) throws -> String {
    try repository.write("Sources/Core/Core.swift", "public let core = 2  // \(message)\n")
    let head = try repository.commitAll(message)
    _ = try GitFixture.git(
      ["fetch", "-q", "--prune", repository.root, "+refs/heads/*:refs/heads/*"], in: paths.mirror("app"))
    return head
  }

  /// `.failing`, then the toolchain scripted, the clock manual and the caches in the fixture.
  var services: RippleServices {
    var services = RippleServices.failing
    services.process = process.client
    services.clock = clock.client
    services.environment = ["RIPPLE_CACHE_DIR": folder + "/ripple-cache"]
    return services
  }

  var executor: RunExecutor { RunExecutor(paths: paths, store: store, services: services) }

  var settings: RepositorySettings { RepositorySettings(name: "app", source: .remote(url: repository.root)) }

  func scheduler(
    limit: Int = 1, settings: RepositorySettings? = nil, statuses: CommitStatusReporter? = nil,
    notifications: BranchNotifier? = nil, onChange: @escaping @Sendable (String) -> Void = { _ in }
  ) -> Scheduler {
    Scheduler(
      limit: limit, store: store, executor: executor, repositories: [settings ?? self.settings], log: log,
      metrics: DaemonMetrics(repositories: ["app"]), health: health, maxLogBytes: 1 << 20, statuses: statuses,
      notifications: notifications, onChange: onChange)
  }

  /// A daemon log into `daemonLog`.
  var log: DaemonLog {
    DaemonLog(minimum: .info, sink: { [daemonLog] line in daemonLog.withLock { $0.append(line) } })
  }

  /// A queued and started run of `main` at the fixture's head, as the scheduler would hand it over.
  func runningRun() throws -> RunRecord {
    let queued = try store.enqueue(NewRun(repository: "app", branch: "main", head: head, trigger: .api))
    return try store.markRunning(queued.id, logPath: nil)
  }

  /// What `swift package dump-package` prints for the fixture's manifest (the fields ripple reads).
  static let manifest = """
    {"name": "App", "toolsVersion": {"_version": "6.0.0"}, "products": [], "dependencies": [],
     "targets": [{"name": "Core", "type": "regular", "dependencies": []},
                 {"name": "CoreTests", "type": "test", "dependencies": [{"byName": ["Core", null]}]}]}
    """

  /// `swift test` that writes a Swift Testing xunit file with `failures` failing tests of `CoreTests`.
  static func swiftTest(failing failures: Int) -> ScriptedProcess.Response {
    .run { request in try swiftTestResult(request, failing: failures) }
  }

  static func swiftTestResult(_ request: ProcessRequest, failing failures: Int) throws -> ProcessResult {
    if let index = request.arguments.firstIndex(of: "--xunit-output") {
      let path = request.arguments[index + 1]
      let swiftTesting = (path as NSString).deletingPathExtension + "-swift-testing.xml"
      let broken = (0..<failures).map {
        #"<testcase classname="CoreTests" name="broken\#($0)()" time="0.01">"#
          + #"<failure message="Expectation failed: 1 == 2"/></testcase>"#
      }
      let cases = broken + [#"<testcase classname="CoreTests" name="adds()" time="0.01"/>"#]
      let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="TestResults" errors="0" tests="\(cases.count)" failures="\(failures)" \
        skipped="0" time="0.02">
        \(cases.joined(separator: "\n"))
        </testsuite></testsuites>
        """
      try FileManager.default.createDirectory(
        atPath: (swiftTesting as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(xml.utf8).write(to: URL(fileURLWithPath: swiftTesting))
    }
    return ProcessResult(
      request: request, exitStatus: failures == 0 ? 0 : 1, standardOutput: Data(), standardError: Data())
  }

  static let passing = swiftTest(failing: 0)

  /// Waits (a bounded poll) until `condition` holds: true then, false when it never does (callers `#expect` it).
  static func waitFor(_ what: String, timeout: Duration = .seconds(60), _ condition: () async throws -> Bool)
    async rethrows -> Bool
  {
    try await poll(timeout: timeout, until: condition)
  }
}

/// A `swift test` that blocks until the test releases it (or its task is cancelled, as a killed process would
/// end): for runs that must still be running while the test acts.
final class HeldProcess: Sendable {
  private let started = Locked(0)
  private let stopped = Locked(0)
  private let gate = Latch()

  var startedCount: Int { started.withLock { $0 } }
  /// Held commands that were stopped (their task cancelled, as `ProcessClient` then stops the process group)
  /// rather than released.
  var stoppedCount: Int { stopped.withLock { $0 } }

  func release() { gate.open() }

  var response: ScriptedProcess.Response {
    .run { request in
      self.started.withLock { $0 += 1 }
      guard await self.gate.wait() else {
        self.stopped.withLock { $0 += 1 }
        throw CancellationError()
      }
      return try DaemonRunFixture.swiftTestResult(request, failing: 0)
    }
  }
}
