import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

@Suite struct RunnerTests {
  static let listing = Fixtures.listing

  static let retryConsole = """
    Test Case 'MathTests.testFails' started at 2026-11-22 13:26:17.386
    Test Case 'MathTests.testFails' passed (0.002 seconds)
    ✘ Test failsToo() recorded an issue at STests.swift:5:27: Expectation failed: again
    ✘ Test failsToo() failed after 0.001 seconds with 1 issue.
    """
  static let retryXunit = """
    <testsuites><testsuite name="TestResults">
    <testcase classname="STests.AddSuite" name="failsToo()" time="0.001"><failure message="again"/></testcase>
    </testsuite></testsuites>
    """

  /// Answers build/list/test for the sample package; retries pass `testFails` and fail `failsToo()`.
  static func samplePackage() -> ScriptedProcess {
    ScriptedProcess { request in
      switch request.subcommand {
      case "build": return ScriptedProcess.result(request)
      case "list": return ScriptedProcess.result(request, stdout: listing)
      default:
        let xunit = SwiftPMTests.swiftTestingPath(try #require(request.value(after: "--xunit-output")))
        let isRetry = request.value(after: "--filter")?.hasSuffix("(/|$)") == true
        try Data((isRetry ? retryXunit : Fixtures.swiftTestingXunit).utf8).write(to: URL(fileURLWithPath: xunit))
        return ScriptedProcess.result(request, status: 1, stdout: isRetry ? retryConsole : Fixtures.console)
      }
    }
  }

  @Test func runsAndAttributesResults() async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.samplePackage()
      let events = EventLog()
      let runner = TestRunner(process: process.client, onEvent: events.append)
      let result = try await runner.run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["XTests", "STests"])]),
        options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      #expect(process.requests.map(\.subcommand) == ["build", "list", "test"])
      let package = try #require(result.packages.first)
      #expect(package.status == .failed)
      #expect(package.targets.map(\.name) == ["STests", "XTests"])
      #expect(result.totals.tests == 8)
      #expect(result.totals.failed == 2)
      #expect(throws: TestRunnerError.testsFailed(count: 2, packages: ["."])) { try result.check() }
      #expect(events.events.filter { if case .testFinished = $0 { true } else { false } }.count == 8)
      #expect(events.events.last == .finished(result))
    }
  }

  @Test func retriesOnlyFailingTestsAndReportsFlakyOnes() async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.samplePackage()
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["XTests", "STests"])]),
        options: TestRunOptions(repositoryRoot: "/repo", retryFailed: 2, workDirectory: dir))
      let filters = process.requests.filter { $0.subcommand == "test" }.compactMap { $0.value(after: "--filter") }
      #expect(
        filters == [
          #"^(STests|XTests)\."#, #"^(STests\.AddSuite/failsToo\(\)|XTests\.MathTests/testFails)(/|$)"#,
          #"^(STests\.AddSuite/failsToo\(\))(/|$)"#,
        ])
      let tests = result.packages[0].targets.flatMap(\.tests)
      let flaky = try #require(tests.first { $0.name == "testFails" })
      #expect(flaky.status == .passed && flaky.flaky && flaky.attempts == 2)
      #expect(flaky.failures.first?.line == 5)
      let stillFailing = try #require(tests.first { $0.name == "failsToo()" })
      #expect(stillFailing.status == .failed && !stillFailing.flaky && stillFailing.attempts == 3)
      #expect(stillFailing.failures.first?.message == "Expectation failed: again")
      #expect(result.totals.flaky == 1)
      #expect(result.jsonReport().contains("\"flaky\" : true"))
      #expect(JUnitRenderer.render(result).contains("<property name=\"flaky\" value=\"true\"/>"))
      #expect(SummaryRenderer.render(result).contains("~ XTests.MathTests/testFails passed on attempt 2"))
    }
  }

  @Test func oneSelectedTargetIsListedTooForTheTestsItExpects() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        switch request.subcommand {
        case "build": return ScriptedProcess.result(request)
        case "list": return ScriptedProcess.result(request, stdout: "BTests.BT/testB\n")
        default: return ScriptedProcess.result(request, stdout: "Test Case 'BT.testB' passed (0.010 seconds)\n")
        }
      }
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["BTests"])]),
        options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      #expect(process.requests.map(\.subcommand) == ["build", "list", "test"])
      #expect(result.packages.first?.targets.map(\.name) == ["BTests"])
      #expect(result.packages.first?.targets.first?.tests.map(\.name) == ["testB"])
    }
  }

  @Test func aFilterThatMatchesNothingIsAnError() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        switch request.subcommand {
        case "build", "list": return ScriptedProcess.result(request)
        default:
          return ScriptedProcess.result(
            request,
            stdout: "\t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds\n"
              + "✔ Test run with 0 tests in 0 suites passed after 0.003 seconds.\n",
            stderr: "warning: No matching test cases were run\n")
        }
      }
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["Nope"])]),
        options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      #expect(result.packages[0].status == .noTestsRan)
      #expect(!result.succeeded)
      #expect(throws: TestRunnerError.noTestsRan(package: ".", filter: #"^(Nope)\."#)) { try result.check() }
    }
  }

  @Test func aBuildFailureIsReportedAndOtherPackagesStillRun() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        let broken = request.packagePath == "/repo/A"
        switch request.subcommand {
        case "build":
          return ScriptedProcess.result(request, status: broken ? 1 : 0, stdout: broken ? Fixtures.buildFailure : "")
        case "list": return broken ? nil : ScriptedProcess.result(request, stdout: "BTests.BT/testB\n")
        default:
          return broken
            ? nil
            : ScriptedProcess.result(request, stdout: "Test Case 'BT.testB' passed (0.010 seconds)\n")
        }
      }
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [
          PackageSelection(path: "A", testTargets: ["ATests"]), PackageSelection(path: "B", testTargets: ["BTests"]),
        ]),
        options: TestRunOptions(repositoryRoot: "/repo", jobs: 2, workDirectory: dir))
      #expect(result.packages.map(\.status) == [.buildFailed, .passed])
      #expect(
        result.packages[0].buildErrors.first == "/tmp/pkg/Sources/Lib/Lib.swift:1:52: error: cannot find 'c' in scope")
      #expect(result.packages[0].message?.contains("swift build --build-tests --package-path /repo/A") == true)
      #expect(result.packages[1].targets.first?.tests.first?.name == "testB")
      #expect(throws: TestRunnerError.buildFailed(packages: ["A"])) { try result.check() }
      #expect(SummaryRenderer.render(result).contains("Build failed: package A"))
    }
  }

  @Test func theBuildsLinesGoOutAsTheyComeAndOnlyItsEndIsKept() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        switch request.subcommand {
        case "build":
          return ScriptedProcess.result(request, status: 1, stdout: "Compiling A\n" + Fixtures.buildFailure)
        default: return nil
        }
      }
      let events = EventLog()
      let result = try await TestRunner(process: process.client, onEvent: events.append).run(
        TestSelection(packages: [PackageSelection(path: "A", testTargets: ["ATests"])]),
        options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      #expect(process.requests.first?.retainedOutput == TestRunner.retainedBuildOutput)
      let lines = events.events.compactMap { event -> String? in
        if case .output(let package, let line) = event { "\(package): \(line.text)" } else { nil }
      }
      #expect(lines.first == "A: Compiling A")
      #expect(lines.contains { $0.contains("error: cannot find 'c' in scope") })
      #expect(result.packages.first?.buildErrors.first?.hasSuffix("error: cannot find 'c' in scope") == true)
    }
  }

  @Test func aCrashWithoutAFailedTestLineIsStillAFailure() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        switch request.subcommand {
        case "build", "list": return ScriptedProcess.result(request)
        default:
          return ScriptedProcess.result(
            request, status: 132,
            stdout: "Test Case 'C.testA' passed (0.001 seconds)\nTest Case 'C.testCrash' started at 2026-11-22\n",
            stderr: "Fatal error: boom\n")
        }
      }
      let result = try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["T"])]),
        options: TestRunOptions(repositoryRoot: "/repo", retryFailed: 1, workDirectory: dir))
      #expect(result.packages[0].status == .failed)
      let failure = try #require(result.packages[0].targets[0].tests.first { $0.status == .failed })
      #expect(failure.failures[0].message.contains("Fatal error: boom"))
      #expect(
        process.requests.filter { $0.subcommand == "test" }.count == 1, "a crash without a test name is not retried")
    }
  }

  @Test func aMissingSwiftIsAnEnvironmentError() async throws {
    let process = ScriptedProcess { _ in throw ProcessError.notFound(executable: "/nonexistent/swift") }
    await #expect {
      try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["T"])]),
        options: TestRunOptions(repositoryRoot: "/repo", swiftExecutable: "/nonexistent/swift"))
    } throws: { error in
      guard let error = error as? TestRunnerError else { return false }
      return error == .swiftNotFound(executable: "/nonexistent/swift") && error.category == .environment
        && error.description.contains("install a Swift toolchain")
    }
  }

  @Test func nothingSelectedRunsNothing() async throws {
    let process = ScriptedProcess { _ in nil }
    let result = try await TestRunner(process: process.client).run(
      TestSelection(packages: [PackageSelection(path: ".", testTargets: [])]),
      options: TestRunOptions(repositoryRoot: "/repo"))
    #expect(result.nothingAffected)
    #expect(process.requests.isEmpty)
    #expect(throws: Never.self) { try result.check() }
  }

  @Test func cancellingStopsTheRunAndKeepsWhatFinished() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        switch request.subcommand {
        case "build", "list": return ScriptedProcess.result(request)
        default:
          try await Task.sleep(for: .seconds(30))
          return ScriptedProcess.result(request)
        }
      }
      let task = Task {
        try await TestRunner(process: process.client).run(
          TestSelection(packages: [
            PackageSelection(path: "A", testTargets: ["ATests"]), PackageSelection(path: "B", testTargets: ["BTests"]),
          ]),
          options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      }
      try #require(await waitUntil { process.requests.contains { $0.subcommand == "test" } }, "swift test started")
      task.cancel()
      let result = try await task.value
      #expect(result.cancelled)
      #expect(result.packages.map(\.status) == [.cancelled, .cancelled])
      #expect(!process.requests.contains { $0.packagePath == "/repo/B" }, "B never started")
      #expect(throws: TestRunnerError.cancelled) { try result.check() }
    }
  }

  @Test func shardsRunOnlyTheirTargets() throws {
    var history = TimingHistory()
    history.record(10, for: TestUnit(package: ".", target: "Big"))
    history.record(1, for: TestUnit(package: ".", target: "Small1"))  // Small2: the median, 5.5
    let selection = TestSelection(packages: [PackageSelection(path: ".", testTargets: ["Big", "Small1", "Small2"])])
    let first = TestRunner.plan(
      selection, options: TestRunOptions(repositoryRoot: "/r", shard: try Shard(index: 1, count: 2)), history: history)
    let second = TestRunner.plan(
      selection, options: TestRunOptions(repositoryRoot: "/r", shard: try Shard(index: 2, count: 2)), history: history)
    #expect(first.packages.map(\.testTargets) == [["Big"]])
    #expect(second.packages.map(\.testTargets) == [["Small1", "Small2"]])
  }
}

@Suite struct TimingStoreTests {
  @Test func roundTripsAndRecordsRuns() async throws {
    try await withTemporaryDirectory { dir in
      let store = TimingStore(path: dir + "/nested/timings.json")
      #expect(store.load().history == TimingHistory())
      var history = TimingHistory()
      history.record(sampleResult())
      #expect(history.duration(of: TestUnit(package: ".", target: "CoreTests")) == 0.85)
      #expect(history.duration(of: TestUnit(package: "Packages/UI", target: "UITests")) == nil)
      try store.save(history)
      let loaded = store.load()
      #expect(loaded.history == history)
      #expect(loaded.warning == nil)
    }
  }

  @Test func aCorruptFileIsIgnoredWithAWarning() async throws {
    try await withTemporaryDirectory { dir in
      let path = dir + "/timings.json"
      try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
      let loaded = TimingStore(path: path).load()
      #expect(loaded.history == TimingHistory())
      #expect(loaded.warning?.contains("ignoring unreadable timing history") == true)
    }
  }
}
