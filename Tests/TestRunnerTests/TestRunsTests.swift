import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

/// Steps of declared test runs (`test.runs`): their environment, build folders, order, and how a target
/// no run here can test shows in the outputs.
@Suite struct TestRunsTests {
  static let server = TestRunContext(name: "server", environment: ["TEST_SERVER": "1"])
  static let client = TestRunContext(name: "client", environment: ["TEST_SERVER": nil], scratchFolder: "client")
  static let selection = TestSelection(packages: [
    PackageSelection(path: ".", testTargets: ["ServerTests"], run: server),
    PackageSelection(path: ".", testTargets: ["ClientTests"], run: client),
  ])

  @Test func eachRunBuildsWithItsEnvironmentInAFolderOfItsOwn() throws {
    let plan = TestPlan.make(
      selection: Self.selection, options: TestRunOptions(repositoryRoot: "/repo"), xunitDirectory: "/x",
      temporaryDirectory: "/tmp/run")
    #expect(plan.packages.map { $0.run?.name } == ["server", "client"], "a package's runs stay in run order")
    let (server, client) = (plan.packages[0], plan.packages[1])
    #expect(server.build.environment == ["TEST_SERVER": "1", "TMPDIR": "/tmp/run"])
    #expect(!server.build.arguments.contains("--scratch-path"), "the first run uses the package's .build")
    #expect(client.build.environment["TEST_SERVER"] == .some(nil), "removed, not inherited from the shell")
    #expect(client.test.environment["TEST_SERVER"] == .some(nil))
    #expect(client.build.arguments.contains("/repo/.build/ripple/runs/client/_root"))
    #expect(try server.swiftPM.xunitPath != client.swiftPM.xunitPath)
    #expect(plan.rendered.contains("  TEST_SERVER=1 swift build --build-tests"))
    #expect(plan.rendered.contains("root package (run client): ClientTests"))
  }

  @Test func aScratchBaseHoldsEveryRunsFolder() {
    let plan = TestPlan.make(
      selection: Self.selection, options: TestRunOptions(repositoryRoot: "/repo", scratchPath: "/scratch"),
      xunitDirectory: "/x")
    #expect(plan.packages[0].build.arguments.contains("/scratch/_root"))
    #expect(plan.packages[1].build.arguments.contains("/scratch/client/_root"))
  }

  @Test func runsOfOnePackageRunOneAfterTheOtherEvenWithSeveralJobs() async throws {
    // Two jobs, and a second package: a runner that started the root package's two runs side by side would
    // fill both jobs with them, and `Other` could not start. So every command of the root package waits (a
    // bounded poll) until `Other` has started: that proves the second job went to `Other` while a root run
    // was going, and no two root commands may overlap meanwhile.
    let log = Locked<[String]>([])
    let rootRunning = Locked(0)
    let overlaps = Locked(0)
    let otherStarted = Locked(false)
    let process = ScriptedProcess { request in
      if request.packagePath.hasSuffix("/Other") {
        otherStarted.withLock { $0 = true }
        return ScriptedProcess.result(request)
      }
      let run = request.environment["TEST_SERVER"].map { $0 == nil ? "client" : "server" } ?? "?"
      if rootRunning.withLock({ running in
        running += 1
        return running
      }) > 1 {
        overlaps.withLock { $0 += 1 }
      }
      log.withLock { $0.append("start \(run) \(request.arguments[0])") }
      let other = await waitUntil { otherStarted.withLock { $0 } }
      log.withLock { $0.append("end \(run) \(request.arguments[0])") }
      rootRunning.withLock { $0 -= 1 }
      return other ? ScriptedProcess.result(request) : nil
    }
    var selection = Self.selection
    selection.packages.append(PackageSelection(path: "Other", testTargets: ["OtherTests"]))
    let result = try await TestRunner(process: process.client).run(
      selection, options: TestRunOptions(repositoryRoot: "/repo", jobs: 2))
    #expect(result.packages.filter { $0.path == "." }.map(\.run) == ["server", "client"])
    #expect(overlaps.withLock { $0 } == 0, "\(log.withLock { $0 })")
    let events = log.withLock { $0 }
    let lastServer = try #require(events.lastIndex { $0.hasPrefix("end server") })
    let firstClient = try #require(events.firstIndex { $0.hasPrefix("start client") })
    #expect(lastServer < firstClient, "\(events)")
  }

  @Test func shardsSplitTargetsOfSeveralRunsAndKeepEachTargetsRun() throws {
    let history = TimingHistory(packages: [".": ["ServerTests": 10, "ClientTests": 9]])
    let first = TestSharding.select(Self.selection, shard: try Shard(parsing: "1/2"), history: history)
    let second = TestSharding.select(Self.selection, shard: try Shard(parsing: "2/2"), history: history)
    #expect(
      first.packages.map(\.testTargets) + second.packages.map(\.testTargets) == [["ServerTests"], ["ClientTests"]])
    #expect(first.packages.first?.run == Self.server)
    #expect(second.packages.first?.run == Self.client)
  }

  @Test func theEstimateAddsRecordedTimesAndWeighsTheUnknownAtTheMedian() {
    let history = TimingHistory(packages: [".": ["A": 10, "B": 20, "C": 60]])
    let units = ["A", "B", "C", "New"].map { TestUnit(package: ".", target: $0) }
    #expect(history.estimate(units) == 110)
    #expect(history.estimate([TestUnit(package: "Other", target: "X")]) == nil)
  }

  static let notRunHere = [
    NotRunTarget(
      package: ".", name: "ClientTests", reason: "exists only in run `client`, platforms: macos", platform: "linux")
  ]

  @Test func aTargetNotRunHereIsASkippedCaseInJUnitAndALineInTheSummary() {
    var result = TestRunResult(
      packages: [
        PackageResult(
          path: ".", run: "server", status: .passed,
          targets: [
            TargetResult(
              name: "ServerTests", tests: [TestCaseResult(suite: "S", name: "t", framework: .xctest, status: .passed)])
          ])
      ])
    result.notRunHere = Self.notRunHere
    let junit = JUnitRenderer.render(result)
    #expect(junit.contains(#"tests="2""#) && junit.contains(#"skipped="1""#))
    #expect(
      junit.contains(
        #"<skipped message="not run on linux: ClientTests (exists only in run `client`, platforms: macos)"/>"#))
    let summary = SummaryRenderer.render(result)
    #expect(summary.contains(". (server)"))
    #expect(summary.contains("not run on linux: ClientTests (exists only in run `client`, platforms: macos)"))
    let json = result.jsonReport()
    #expect(json.contains(#""notRunHere" : ["#) && json.contains(#""run" : "server""#))
    let decoded = try? JSONDecoder().decode(TestRunResult.self, from: Data(json.utf8))
    #expect(decoded?.notRunHere == Self.notRunHere)
  }

  @Test func onlyRequireAllMakesATargetNotRunHereAFailure() throws {
    var result = TestRunResult(packages: [PackageResult(path: ".", status: .passed)])
    result.notRunHere = Self.notRunHere
    try result.check()
    result.requireAll = true
    #expect(throws: TestRunnerError.notRunHere(Self.notRunHere)) { try result.check() }
    #expect(TestRunnerError.notRunHere(Self.notRunHere).category.exitCode == 1)
  }

  @Test func nothingRunnableHereStillNamesWhatWasSelected() {
    var result = TestRunResult(packages: [], nothingAffected: true)
    result.notRunHere = Self.notRunHere
    #expect(SummaryRenderer.render(result).contains("not run on linux: ClientTests"))
  }
}
