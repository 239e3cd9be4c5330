import Crypto
import Foundation
import RippleConfig
import RippleCore
import RunModel
import RunStore
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

/// The fixture's executor with pass records kept in its own run store, signed (rippled as the team's store).
private func recordingExecutor(_ fixture: DaemonRunFixture) -> RunExecutor {
  let records = DaemonPassRecords(
    signingKey: Curve25519.Signing.PrivateKey().rawRepresentation.base64EncodedString(), maxBytes: 1 << 20)
  var executor = fixture.executor
  executor.passRecords = records
  let client = records.client(fixture.store)
  executor.services.makeResultStore = { _, _, _ in client }
  return executor
}

/// Runs reported exactly (issue 49): a canary and a fresh re-run never read a pass record, and a repository's
/// `retryFailed` finds flaky tests.
@Suite struct FreshRunTests {

  private func run(_ fixture: DaemonRunFixture, trigger: RunTrigger, fresh: Bool = false) throws -> RunRecord {
    let queued = try fixture.store.enqueue(
      NewRun(repository: "app", branch: "main", head: fixture.head, trigger: trigger, fresh: fresh))
    return try fixture.store.markRunning(queued.id, logPath: nil)
  }

  private func status(_ fixture: DaemonRunFixture, _ id: Int64) throws -> TargetStatus? {
    try fixture.store.detail(id)?.analysis?.targets.first { $0.name == "CoreTests" }?.status
  }

  @Test func aCanaryAndAFreshRerunRunWhatARecordWouldSkip() async throws {
    let fixture = try DaemonRunFixture()
    let executor = recordingExecutor(fixture)
    let first = try run(fixture, trigger: .api)
    #expect(await executor.execute(first, settings: fixture.settings, logFile: nil) == .passed(nil))
    _ = try fixture.store.finish(first.id, state: .failed, reason: "no base: every run tests everything")

    // The same content again reads CoreTests' record: nothing is built.
    let cached = try run(fixture, trigger: .api)
    #expect(await executor.execute(cached, settings: fixture.settings, logFile: nil) == .passed(nil))
    _ = try fixture.store.finish(cached.id, state: .failed, reason: "no base")
    #expect(try status(fixture, cached.id) == .cached)
    let builds = fixture.process.requests(matching: .command("swift", "build")).count
    #expect(builds == 1)

    // A canary measures the whole suite: it builds and runs CoreTests, and its log says why.
    let canaryLog = fixture.folder + "/canary.log"
    let canary = try run(fixture, trigger: .canary)
    let logFile = try RunLogFile(path: canaryLog, limit: 1 << 20) { _ in }
    #expect(await executor.execute(canary, settings: fixture.settings, logFile: logFile) == .passed(nil))
    _ = try fixture.store.finish(canary.id, state: .failed, reason: "no base")
    #expect(try status(fixture, canary.id) == .passed)
    #expect(fixture.process.requests(matching: .command("swift", "build")).count == builds + 1)
    #expect(try String(contentsOfFile: canaryLog, encoding: .utf8).contains("canary: no pass record is read"))

    // A fresh re-run likewise.
    let fresh = try run(fixture, trigger: .api, fresh: true)
    #expect(fresh.fresh && !fresh.readsPassRecords)
    #expect(await executor.execute(fresh, settings: fixture.settings, logFile: nil) == .passed(nil))
    #expect(try status(fixture, fresh.id) == .passed)
    #expect(fixture.process.requests(matching: .command("swift", "build")).count == builds + 2)
  }

  /// `retryFailed: 1`: a test that fails, then passes on its retry, is flaky (the panel and /metrics count it);
  /// one that fails every retry fails the run.
  @Test(arguments: [true, false]) func aRepositorysRetryFindsAFlakyTestAndAFailureStaysOne(passesOnRetry: Bool)
    async throws
  {
    let retries = Locked(0)
    let fixture = try DaemonRunFixture(
      swiftTest: .run { request in
        let retry = request.arguments.contains { $0.contains("broken0") }
        guard retry else { return try DaemonRunFixture.swiftTestResult(request, failing: 1) }
        retries.withLock { $0 += 1 }
        return try Self.retryResult(request, passes: passesOnRetry)
      })
    var settings = fixture.settings
    settings.retryFailed = 1
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: settings, logFile: nil)
    #expect(retries.withLock { $0 } == 1, "one retry of the failed test")
    if passesOnRetry {
      #expect(outcome == .passed(nil), "\(outcome)")
      #expect(try fixture.store.flakyTestCount(run: run.id) == 1)
    } else {
      #expect(outcome != .passed(nil))
      #expect(try fixture.store.flakyTestCount(run: run.id) == 0)
    }
  }

  /// The retry of `broken0()` alone: its Swift Testing xunit file, passing or failing again.
  static func retryResult(_ request: ProcessRequest, passes: Bool) throws -> ProcessResult {
    let index = try #require(request.arguments.firstIndex(of: "--xunit-output"))
    let path = (request.arguments[index + 1] as NSString).deletingPathExtension + "-swift-testing.xml"
    let failure = passes ? "" : #"<failure message="Expectation failed: 1 == 2"/>"#
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites><testsuite name="TestResults" errors="0" tests="1" failures="\(passes ? 0 : 1)" skipped="0" \
      time="0.01"><testcase classname="CoreTests" name="broken0()" time="0.01">\(failure)</testcase>
      </testsuite></testsuites>
      """
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    return ProcessResult(request: request, exitStatus: passes ? 0 : 1, standardOutput: Data(), standardError: Data())
  }
}

/// Test-level selection in rippled: the operator's `granularity: test` makes a canary (which runs every target
/// whole) the run that maps each test target; without it, no canary builds with coverage for maps.
@Suite struct CanaryMapsTests {

  private func coverageBuilds(_ fixture: DaemonRunFixture) -> [ProcessRequest] {
    fixture.process.requests(matching: .command("swift", "build")).filter {
      $0.arguments.contains("--enable-code-coverage") && $0.arguments.contains("--build-tests")
    }
  }

  @Test(arguments: [TestGranularity.test, nil]) func aCanaryMapsTheTestTargetsWhenTheOperatorTurnsItOn(
    granularity: TestGranularity?
  ) async throws {
    let fixture = try DaemonRunFixture()
    var executor = recordingExecutor(fixture)
    // The toolchain's llvm-profdata and llvm-cov are found beside the real `swift`; every command stays scripted.
    executor.services.environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
    var settings = fixture.settings
    settings.granularity = granularity
    let queued = try fixture.store.enqueue(
      NewRun(repository: "app", branch: "main", head: fixture.head, trigger: .canary, fresh: false))
    let canary = try fixture.store.markRunning(queued.id, logPath: nil)
    let log = fixture.folder + "/canary.log"
    let logFile = try RunLogFile(path: log, limit: 1 << 20) { _ in }
    #expect(await executor.execute(canary, settings: settings, logFile: logFile) == .passed(nil))
    let builds = coverageBuilds(fixture)
    if granularity == .test {
      // The mapping build has a folder of its own beside the run's: the run's build stays warm.
      #expect(builds.count == 1, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
      #expect(builds.first?.arguments.contains { $0.hasSuffix("/maps/_2E") } == true, "\(builds)")
      // The scripted build leaves no test binary: the map is not made, and the log says so.
      #expect(try String(contentsOfFile: log, encoding: .utf8).contains("no coverage map is made for"))
    } else {
      #expect(builds.isEmpty)
    }
  }
}
