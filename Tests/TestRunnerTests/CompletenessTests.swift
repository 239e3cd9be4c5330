import Foundation
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

/// Every test `swift test list` names ends with an outcome: crashes, `exit(0)` and kills never hide tests,
/// and no quarantine contains them. Outputs below are as a real `swift test` printed them (Swift 6.3.1,
/// Linux) for a package whose `BTests` ends its process in the second of three tests.
@Suite struct CompletenessTests {
  static let listing = """
    BTests.BCase/testFirst
    BTests.BCase/testLeaves
    BTests.BCase/testLast
    ATests.ACase/testOk
    ATests.ACase/testKnownBug
    CTests.Outer/Inner/shown()
    CTests.free()

    """

  /// XCTest ran `BCase` first and died in `testLeaves`; Swift Testing then ran as usual.
  static let crashConsole = """
    Test Suite 'All tests' started at 2026-11-28 08:47:12.735
    Test Suite 'BCase' started at 2026-11-28 08:47:12.876
    Test Case 'BCase.testFirst' started at 2026-11-28 08:47:12.876
    Test Case 'BCase.testFirst' passed (0.002 seconds)
    Test Case 'BCase.testLeaves' started at 2026-11-28 08:47:12.878
    BTests/B.swift:6: Fatal error: boom

    *** Signal 4: Backtracing from 0x7f3b352f9361... done ***
    ◇ Test run started.
    ◇ Test free() started.
    ◇ Test shown() started.
    ✔ Test free() passed after 0.001 seconds.
    ✔ Test shown() passed after 0.001 seconds.
    ✔ Test run with 2 tests in 1 suite passed after 0.001 seconds.
    """
  static let crashError =
    "error: Process '/p/.build/debug/PPackageTests.xctest' exited with unexpected signal code 4\n"
  static let xunit = """
    <testsuites><testsuite name="TestResults">
    <testcase classname="CTests" name="free()" time="0.001"/>
    <testcase classname="CTests.Outer.Inner" name="shown()" time="0.001"/>
    </testsuite></testsuites>
    """

  static func crashingPackage(status: Int32 = 1, stderr: String = crashError, retryPasses: Bool = false)
    -> ScriptedProcess
  {
    ScriptedProcess { request in
      switch request.subcommand {
      case "build": return ScriptedProcess.result(request)
      case "list": return ScriptedProcess.result(request, stdout: listing)
      default:
        let xunitPath = SwiftPMTests.swiftTestingPath(try #require(request.value(after: "--xunit-output")))
        let isRetry = request.value(after: "--filter")?.hasSuffix("(/|$)") == true
        if isRetry {
          let console =
            retryPasses
            ? """
            Test Case 'ACase.testOk' passed (0.001 seconds)
            Test Case 'ACase.testKnownBug' failed (0.001 seconds)
            Test Case 'BCase.testLeaves' passed (0.001 seconds)
            Test Case 'BCase.testLast' passed (0.001 seconds)
            """
            : "Test Case 'BCase.testLeaves' started at 2026-11-28 08:47:13.000\n"
          return ScriptedProcess.result(
            request, status: retryPasses ? 1 : status, stdout: console, stderr: retryPasses ? "" : stderr)
        }
        try Data(xunit.utf8).write(to: URL(fileURLWithPath: xunitPath))
        return ScriptedProcess.result(request, status: status, stdout: crashConsole, stderr: stderr)
      }
    }
  }

  static func run(_ process: ScriptedProcess, retries: Int = 0) async throws -> TestRunResult {
    try await withTemporaryDirectory { dir in
      try await TestRunner(process: process.client).run(
        TestSelection(packages: [PackageSelection(path: ".", testTargets: ["ATests", "BTests", "CTests"])]),
        options: TestRunOptions(repositoryRoot: "/repo", retryFailed: retries, workDirectory: dir))
    }
  }

  static func test(_ result: TestRunResult, _ id: String) -> TestCaseResult? {
    for target in result.packages.flatMap(\.targets) {
      for test in target.tests where test.identifier(target: target.name) == id { return test }
    }
    return nil
  }

  @Test func aCrashFailsTheRunningTestAndEveryTestAfterItInTheirOwnTargets() async throws {
    let result = try await Self.run(Self.crashingPackage())
    let crashed = try #require(Self.test(result, "BTests.BCase/testLeaves"))
    #expect(crashed.status == .failed && crashed.unreported == .crashed)
    #expect(
      crashed.failures.first?.message == """
        crashed: the test process ended with signal 4 while this test ran: BTests/B.swift:6: Fatal error: boom
        the test process printed last:
            BTests/B.swift:6: Fatal error: boom
            *** Signal 4: Backtracing from 0x7f3b352f9361... done ***
        """)
    let hidden = try #require(Self.test(result, "BTests.BCase/testLast"))
    #expect(hidden.unreported == .didNotRun)
    #expect(
      hidden.failures.first?.message
        == "did not run: the test process ended with signal 4 during BTests.BCase/testLeaves")
    #expect(Self.test(result, "ATests.ACase/testOk")?.unreported == .didNotRun)
    #expect(Self.test(result, "CTests.Outer.Inner/shown()")?.status == .passed)
    #expect(Self.test(result, "BTests.BCase/testFirst")?.status == .passed)
    #expect(result.totals.tests == 7)
    #expect(result.totals.failed == 4)
    #expect(!result.packages.flatMap(\.targets).flatMap(\.tests).contains { $0.name == "(test process)" })
    #expect(throws: TestRunnerError.testsFailed(count: 4, packages: ["."])) { try result.check() }
  }

  @Test func aQuarantineNeverContainsACrashOrATestThatDidNotRun() async throws {
    let result = try await Self.run(Self.crashingPackage())
    let rules = [
      QuarantineRule(pattern: "ATests", reason: "whole target", origin: "ripple.yml:3"),
      QuarantineRule(pattern: "BTests/BCase/testLeaves", reason: "named", origin: "ripple.yml:5"),
    ]
    let contained = Quarantine.apply(rules, to: result, today: "2026-11-28")
    #expect(contained.totals.quarantined == 0)
    #expect(contained.totals.failed == 4)
    #expect(!contained.succeeded)
  }

  @Test func anExitZeroMidRunStillFailsTheTestsItNeverReported() async throws {
    let result = try await Self.run(Self.crashingPackage(status: 0, stderr: ""))
    let left = try #require(Self.test(result, "BTests.BCase/testLeaves"))
    #expect(
      left.failures.first?.message.hasPrefix("crashed: the test process exited with status 0 while this test ran")
        == true)
    #expect(
      Self.test(result, "BTests.BCase/testLast")?.failures.first?.message
        == "did not run: the test process exited with status 0 during BTests.BCase/testLeaves")
    #expect(result.packages[0].status == .failed)
  }

  @Test func aKilledTestBinaryNamesItsSignal() async throws {
    let killed = "error: Process '/p/.build/debug/PPackageTests.xctest' exited with unexpected signal code 9\n"
    let result = try await Self.run(Self.crashingPackage(stderr: killed))
    #expect(
      Self.test(result, "BTests.BCase/testLeaves")?.failures.first?.message
        .hasPrefix("crashed: the test process ended with signal 9 while this test ran") == true)
  }

  /// The crash's own message (what the process printed last) is in the failure, the JUnit file and the
  /// markdown summary, whose first line is what they show (issue 52).
  @Test func theCrashsOwnMessageIsInTheFailureTheJUnitAndTheSummary() async throws {
    let result = try await Self.run(Self.crashingPackage())
    let message = try #require(Self.test(result, "BTests.BCase/testLeaves")?.failures.first?.message)
    #expect(message.split(separator: "\n").first?.hasSuffix("Fatal error: boom") == true, "\(message)")
    let junit = JUnitRenderer.render(result)
    #expect(junit.contains("message=\"crashed: the test process ended with signal 4 while this test ran: "), "\(junit)")
    #expect(junit.contains("Fatal error: boom"), "\(junit)")
    let markdown = MarkdownSummary.render(result)
    #expect(markdown.contains("Fatal error: boom"), "\(markdown)")
  }

  /// Bounded: the last 20 lines and 4 KiB at most, the crash's own line kept; without one, the last lines.
  @Test func theCrashOutputIsBoundedAndKeepsTheCrashLine() {
    let chatter = (1...100).map { "line \($0)" }.joined(separator: "\n")
    let backtrace = (1...100).map { "frame \($0) " + String(repeating: "x", count: 100) }.joined(separator: "\n")
    let output = CrashOutput(
      standardError: "", standardOutput: chatter + "\nT.swift:3: Fatal error: Division by zero\n" + backtrace)
    #expect(output.crashLine == "T.swift:3: Fatal error: Division by zero")
    #expect(output.lastLines.contains("T.swift:3: Fatal error: Division by zero"))
    #expect(output.lastLines.count <= CrashOutput.maxLines)
    #expect(output.lastLines.joined(separator: "\n").utf8.count <= CrashOutput.maxBytes)
    let plain = CrashOutput(standardError: chatter, standardOutput: "Test Case 'A.b' started\n")
    #expect(plain.crashLine == nil)
    #expect(plain.lastLines == (81...100).map { "line \($0)" })
    let huge = CrashOutput(standardError: "Fatal error: " + String(repeating: "y", count: 10_000), standardOutput: "")
    #expect((huge.crashLine?.utf8.count ?? 0) <= CrashOutput.maxBytes + 3)
    #expect(CrashOutput(standardError: Self.crashError, standardOutput: "").lastLines.isEmpty)
  }

  @Test func aRetryRerunsOnlyWhatDidNotFinish() async throws {
    let process = Self.crashingPackage(retryPasses: true)
    let result = try await Self.run(process, retries: 1)
    let retryFilter = process.requests.filter { $0.subcommand == "test" }.last?.value(after: "--filter")
    #expect(
      retryFilter
        == #"^(ATests\.ACase/testKnownBug|ATests\.ACase/testOk|BTests\.BCase/testLast|BTests\.BCase/testLeaves)(/|$)"#
    )
    let leaves = try #require(Self.test(result, "BTests.BCase/testLeaves"))
    #expect(leaves.status == .passed && leaves.flaky && leaves.unreported == nil)
    let last = try #require(Self.test(result, "BTests.BCase/testLast"))
    #expect(last.status == .passed && !last.flaky && last.failures.isEmpty)
    #expect(Self.test(result, "ATests.ACase/testKnownBug")?.status == .failed)
    #expect(result.totals.flaky == 1)
  }

  @Test func aRetryThatCrashesAgainKeepsTheTestsFailed() async throws {
    let result = try await Self.run(Self.crashingPackage(), retries: 1)
    let last = try #require(Self.test(result, "BTests.BCase/testLast"))
    #expect(last.status == .failed && last.attempts == 2 && last.unreported == .didNotRun)
    #expect(!result.succeeded)
  }

  @Test func aListThatFailsIsAnErrorNeverAPass() async throws {
    let process = ScriptedProcess { request in
      switch request.subcommand {
      case "build": return ScriptedProcess.result(request)
      case "list": return ScriptedProcess.result(request, status: 1, stderr: "error: no tests found; create a target")
      default: return ScriptedProcess.result(request, stdout: "Test Case 'BCase.testFirst' passed (0.001 seconds)\n")
      }
    }
    let result = try await Self.run(process)
    #expect(result.packages[0].status == .error)
    #expect(result.packages[0].message?.contains("could not list the tests of the built product") == true)
    #expect(!result.succeeded)
    #expect(!process.requests.contains { $0.subcommand == "test" })
  }

  @Test func expectedTestsFollowTheCommandsFiltersAndSkips() {
    let listed = Self.listing.split(separator: "\n").map(String.init)
    let filtered = ExpectedTests(
      listed: listed, arguments: ["test", "--filter", #"^(BTests)\."#, "--filter", "free", "--skip", "testLast"])
    #expect(filtered.identifiers == ["BTests.BCase/testFirst", "BTests.BCase/testLeaves", "CTests.free()"])
    #expect(ExpectedTests(listed: listed, arguments: ["test"]).identifiers == listed)
    #expect(ExpectedTests.split("CTests.Outer/Inner/shown()") == ("CTests", "Outer.Inner", "shown()"))
    #expect(ExpectedTests.split("CTests.free()") == ("CTests", "", "free()"))
    // Swift Testing names a test that shares its name with another module's by its source location too.
    #expect(ExpectedTests.split("CoreTests.value()/CoreTests.swift:4:2") == ("CoreTests", "", "value()"))
    #expect(ExpectedTests.split("CoreTests.Suite/value()/Core.swift:4:2") == ("CoreTests", "Suite", "value()"))
  }

  @Test func aSwiftTestingEventAfterANulByteIsStillRead() {
    // Swift Testing stops a message at a NUL byte and writes its next event on the same line.
    let console = """
      ◇ Test nulMessage() started.
      ✘ Test nulMessage() recorded an issue at N.swift:2:27: Expectation failed: Bool(false)
      ↳ a✘ Test nulMessage() failed after 0.001 seconds with 1 issue.
      """
    let tests = ConsoleParser.parse(console)
    #expect(tests.map(\.name) == ["nulMessage()"])
    #expect(tests.first?.status == .failed)
    #expect(ConsoleParser.unfinished(in: console).isEmpty)
  }
}
