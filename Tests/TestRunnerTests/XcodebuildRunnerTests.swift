import Foundation
import RippleConfig
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

/// `runner: xcodebuild` steps, with xcodebuild and xcresulttool stood in by `ScriptedProcess`: nothing
/// here runs a real xcodebuild (it exists only on macOS). The stand-in records every argument list and
/// answers `xcresulttool` with JSON of the shape Xcode 16 writes (see `XCResultParser`).
@Suite struct XcodebuildRunnerTests {
  static let invocation = XcodebuildRunSpec(
    scheme: "MyApp", project: "App/MyApp.xcodeproj", destination: "platform=iOS Simulator,name=iPhone 16",
    configuration: "Debug", arguments: ["-quiet"])
  static let run = TestRunContext(name: "ios", scratchFolder: "ios", xcodebuild: invocation)
  static let selection = TestSelection(packages: [
    PackageSelection(path: "App/MyApp.xcodeproj", testTargets: ["MyAppTests", "CoreTests"], run: run)
  ])

  /// xcresulttool's answer: MyAppTests with a passed, a failed (with its location) and a skipped test, and
  /// CoreTests with a Swift Testing test.
  static let results = """
    {"devices":[],"testPlanConfigurations":[],"testNodes":[{"name":"MyApp","nodeType":"Test Plan","result":"Failed",
    "children":[{"name":"MyAppTests","nodeType":"Unit test bundle","result":"Failed","durationInSeconds":1.5,
    "children":[{"name":"LoginTests","nodeType":"Test Suite","result":"Failed","children":[
    {"name":"testLogin()","nodeIdentifier":"LoginTests/testLogin()","nodeType":"Test Case","result":"Passed","duration":"0.25s"},
    {"name":"testLogout()","nodeIdentifier":"LoginTests/testLogout()","nodeType":"Test Case","result":"Failed","duration":"12ms",
    "children":[{"name":"LoginTests.swift:42: XCTAssertEqual failed: (\\"1\\") is not equal to (\\"2\\")","nodeType":"Failure Message"}]},
    {"name":"testOffline()","nodeIdentifier":"LoginTests/testOffline()","nodeType":"Test Case","result":"Skipped",
    "children":[{"name":"Test skipped - no network","nodeType":"Failure Message"}]}]}]},
    {"name":"CoreTests","nodeType":"Unit test bundle","result":"Passed","children":[
    {"name":"VersionTests","nodeType":"Test Suite","children":[
    {"name":"bumps()","nodeIdentifier":"VersionTests/bumps()","nodeType":"Test Case","result":"Passed","duration":"1m 2s"}]}]}]}]}
    """

  /// The stand-in: build and test succeed unless told otherwise; the test step writes the bundle folder.
  static func standIn(
    build: Int32 = 0, test: Int32 = 0, writeBundle: Bool = true, results: String = results, resultsStatus: Int32 = 0
  ) -> ScriptedProcess {
    ScriptedProcess { request in
      switch (request.executable, request.arguments.first) {
      case ("xcodebuild", "build-for-testing"):
        return ScriptedProcess.result(
          request, status: build,
          stdout: build == 0
            ? "** TEST BUILD SUCCEEDED **\n" : "/repo/App/MyApp/App.swift:3:1: error: cannot find 'x'\n")
      case ("xcodebuild", "test-without-building"):
        if writeBundle, let bundle = request.value(after: "-resultBundlePath") {
          try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        }
        return ScriptedProcess.result(request, status: test, stdout: "** TEST EXECUTE FAILED **\n")
      case ("xcrun", "xcresulttool"):
        return ScriptedProcess.result(request, status: resultsStatus, stdout: results, stderr: "Error: not a bundle")
      default: return nil
      }
    }
  }

  @Test func theCommandsAreExactlyXcodebuildsAndXcresulttools() async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.standIn()
      let options = TestRunOptions(repositoryRoot: "/repo", extraArguments: ["-c", "release"], workDirectory: dir)
      _ = try await TestRunner(process: process.client).run(Self.selection, options: options)
      let bundle = dir + "/ios-App_2FMyApp.xcodeproj.xcresult"
      let derived = "/repo/.build/ripple/runs/ios/App_2FMyApp.xcodeproj-DerivedData"
      let common = [
        "-scheme", "MyApp", "-destination", "platform=iOS Simulator,name=iPhone 16", "-project",
        "/repo/App/MyApp.xcodeproj", "-configuration", "Debug", "-derivedDataPath", derived,
      ]
      #expect(
        process.requests.map { [$0.executable] + $0.arguments } == [
          ["xcodebuild", "build-for-testing"] + common + ["-quiet"],
          ["xcodebuild", "test-without-building"] + common + [
            "-resultBundlePath", bundle, "-only-testing:CoreTests", "-only-testing:MyAppTests", "-quiet",
          ],
          ["xcrun", "xcresulttool", "get", "test-results", "tests", "--path", bundle, "--compact"],
        ])
      #expect(process.requests.allSatisfy { $0.workingDirectory == "/repo" })
    }
  }

  @Test func passedFailedAndSkippedTestsAreMappedLikeSwiftTestRuns() async throws {
    try await withTemporaryDirectory { dir in
      let events = EventLog()
      let result = try await TestRunner(process: Self.standIn(test: 65).client, onEvent: events.append).run(
        Self.selection, options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      let package = try #require(result.packages.first)
      #expect(package.path == "App/MyApp.xcodeproj" && package.run == "ios")
      #expect(package.status == .failed)
      #expect(package.targets.map(\.name) == ["CoreTests", "MyAppTests"])
      let app = package.targets[1]
      #expect(app.tests.map(\.name) == ["testLogin()", "testLogout()", "testOffline()"])
      #expect(app.tests.map(\.status) == [.passed, .failed, .skipped])
      #expect(app.tests.map(\.suite) == ["LoginTests", "LoginTests", "LoginTests"])
      #expect(app.tests[0].duration == 0.25)
      #expect(app.tests[1].duration == 0.012)
      #expect(
        app.tests[1].failures == [
          TestFailure(
            message: #"XCTAssertEqual failed: ("1") is not equal to ("2")"#, file: "LoginTests.swift", line: 42)
        ])
      #expect(app.tests[2].skipReason == "Test skipped - no network")
      #expect(app.duration == 1.5)
      #expect(package.targets[0].tests.first?.duration == 62)
      #expect(result.totals.tests == 4 && result.totals.failed == 1 && result.totals.skipped == 1)
      #expect(throws: TestRunnerError.testsFailed(count: 1, packages: ["App/MyApp.xcodeproj"])) { try result.check() }
      // The same outputs as `swift test` runs.
      let junit = JUnitRenderer.render(result)
      #expect(junit.contains("testLogout()") && junit.contains("<skipped"))
      #expect(SummaryRenderer.render(result).contains("testLogout()"))
      #expect(events.events.contains(.building(package: "App/MyApp.xcodeproj (run ios)")))
      #expect(events.events.contains { if case .packageFinished(let p) = $0 { p == package } else { false } })
    }
  }

  @Test func aFailedBuildMakesTheTargetsErrorsWithoutATestStep() async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.standIn(build: 65)
      let result = try await TestRunner(process: process.client).run(
        Self.selection, options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      let package = try #require(result.packages.first)
      #expect(package.status == .buildFailed)
      #expect(package.buildErrors == ["/repo/App/MyApp/App.swift:3:1: error: cannot find 'x'"])
      #expect(process.requests.count == 1, "no test step after a failed build")
      #expect(throws: TestRunnerError.buildFailed(packages: ["App/MyApp.xcodeproj"])) { try result.check() }
    }
  }

  @Test func aMissingResultBundleIsAnErrorNamingIt() async throws {
    try await withTemporaryDirectory { dir in
      let process = Self.standIn(test: 70, writeBundle: false)
      let result = try await TestRunner(process: process.client).run(
        Self.selection, options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      let package = try #require(result.packages.first)
      #expect(package.status == .error)
      let message = try #require(package.message)
      #expect(message.contains("wrote no result bundle at \(dir)/ios-App_2FMyApp.xcodeproj.xcresult"), "\(message)")
      #expect(!process.requests.contains { $0.executable == "xcrun" })
      #expect(throws: TestRunnerError.self) { try result.check() }
    }
  }

  @Test(arguments: [
    ("{\"testNodes\": [", "not JSON"),
    ("{\"tests\": []}", "no `testNodes` list"),
    (
      #"{"testNodes":[{"name":"P","nodeType":"Test Plan","children":[{"name":"t()","nodeType":"Test Case","result":"Passed"}]}]}"#,
      "outside any test bundle"
    ),
    (
      #"{"testNodes":[{"name":"B","nodeType":"Unit test bundle","children":[{"name":"t()","nodeType":"Test Case","result":"Odd"}]}]}"#,
      "unknown result `Odd`"
    ),
  ])
  func malformedResultsAreAnErrorNamingTheBundle(json: String, reason: String) async throws {
    try await withTemporaryDirectory { dir in
      let result = try await TestRunner(process: Self.standIn(results: json).client).run(
        Self.selection, options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      let package = try #require(result.packages.first)
      #expect(package.status == .error)
      let message = try #require(package.message)
      #expect(message.contains("are not readable: "), "\(message)")
      #expect(message.contains(reason), "\(message)")
      #expect(message.contains(dir + "/ios-App_2FMyApp.xcodeproj.xcresult"))
      let error = try #require(throws: TestRunnerError.self) { try result.check() }
      #expect(error.category == .environment)
    }
  }

  @Test func xcresulttoolFailingIsAnErrorWithItsOutput() async throws {
    try await withTemporaryDirectory { dir in
      let result = try await TestRunner(process: Self.standIn(resultsStatus: 1).client).run(
        Self.selection, options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      let message = try #require(result.packages.first?.message)
      #expect(message.contains("xcresulttool could not read the result bundle"), "\(message)")
      #expect(message.contains("not a bundle"), "\(message)")
    }
  }

  @Test func cancellingStopsXcodebuildLikeSwiftTest() async throws {
    try await withTemporaryDirectory { dir in
      let process = ScriptedProcess { request in
        if request.arguments.first == "build-for-testing" { return ScriptedProcess.result(request) }
        try await Task.sleep(for: .seconds(30))
        return ScriptedProcess.result(request)
      }
      let task = Task {
        try await TestRunner(process: process.client).run(
          Self.selection, options: TestRunOptions(repositoryRoot: "/repo", workDirectory: dir))
      }
      try #require(
        await waitUntil { process.requests.contains { $0.arguments.first == "test-without-building" } },
        "xcodebuild test-without-building started")
      task.cancel()
      let result = try await task.value
      #expect(result.cancelled)
      #expect(result.packages.map(\.status) == [.cancelled])
      #expect(!process.requests.contains { $0.executable == "xcrun" })
      #expect(throws: TestRunnerError.cancelled) { try result.check() }
    }
  }

  @Test func theDryRunShowsTheXcodebuildCommands() {
    let plan = TestRunner.plan(Self.selection, options: TestRunOptions(repositoryRoot: "/repo"))
    #expect(plan.commands.count == 2)
    #expect(plan.commands[0].hasPrefix("xcodebuild build-for-testing -scheme MyApp"))
    #expect(plan.commands[1].contains("-only-testing:CoreTests -only-testing:MyAppTests"))
    #expect(plan.rendered.contains("App/MyApp.xcodeproj (run ios): CoreTests, MyAppTests"))
  }

  /// xcresulttool's answer for a retry bundle: the failed test passes this time.
  static let retryResults = """
    {"testNodes":[{"name":"MyApp","nodeType":"Test Plan","children":[{"name":"MyAppTests","nodeType":"Unit test bundle",
    "children":[{"name":"LoginTests","nodeType":"Test Suite","children":[
    {"name":"testLogout()","nodeIdentifier":"LoginTests/testLogout()","nodeType":"Test Case","result":"Passed","duration":"10ms"}
    ]}]}]}]}
    """

  @Test func retryFailedRerunsOnlyTheFailedTestsThroughXcodebuild() async throws {
    try await withTemporaryDirectory { dir in
      // The first attempt fails testLogout(); the retry (its own bundle) passes it.
      let process = ScriptedProcess { request in
        switch (request.executable, request.arguments.first) {
        case ("xcodebuild", "build-for-testing"): return ScriptedProcess.result(request)
        case ("xcodebuild", "test-without-building"):
          let bundle = try #require(request.value(after: "-resultBundlePath"))
          try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
          return ScriptedProcess.result(request, status: bundle.contains("-retry") ? 0 : 65)
        case ("xcrun", "xcresulttool"):
          let bundle = try #require(request.value(after: "--path"))
          return ScriptedProcess.result(request, stdout: bundle.contains("-retry") ? Self.retryResults : Self.results)
        default: return nil
        }
      }
      let events = EventLog()
      let options = TestRunOptions(repositoryRoot: "/repo", retryFailed: 2, workDirectory: dir)
      let result = try await TestRunner(process: process.client, onEvent: events.append).run(
        Self.selection, options: options)

      let tests = process.requests.filter { $0.arguments.first == "test-without-building" }
      #expect(tests.count == 2, "one retry: nothing failed after it")
      let retry = try #require(tests.last)
      let retryBundle = dir + "/ios-App_2FMyApp.xcodeproj-retry2.xcresult"
      #expect(retry.value(after: "-resultBundlePath") == retryBundle)
      #expect(
        retry.arguments.filter { $0.hasPrefix("-only-testing:") } == [
          "-only-testing:MyAppTests/LoginTests/testLogout()"
        ])
      #expect(retry.arguments.last == "-quiet", "the run's own arguments still come last")
      #expect(process.requests.last?.arguments.suffix(3) == ["--path", retryBundle, "--compact"])

      let package = try #require(result.packages.first)
      #expect(package.status == .passed)
      let logout = try #require(package.targets.last?.tests.first { $0.name == "testLogout()" })
      #expect(logout.status == .passed && logout.flaky && logout.attempts == 2)
      #expect(
        events.events.contains(.testing(package: "App/MyApp.xcodeproj (run ios)", targets: ["MyAppTests"], attempt: 2)))
      #expect(throws: Never.self) { try result.check() }
    }
  }

  @Test func aCrashedXcodebuildGetsTheProcessEntrySwiftTestGets() async throws {
    try await withTemporaryDirectory { dir in
      // Every test in the bundle passed, yet xcodebuild failed: the crash block shared with `swift test`.
      let passing = Self.retryResults
      let result = try await TestRunner(process: Self.standIn(test: 65, results: passing).client).run(
        Self.selection, options: TestRunOptions(repositoryRoot: "/repo", retryFailed: 1, workDirectory: dir))
      let package = try #require(result.packages.first)
      #expect(package.status == .failed)
      let crash = try #require(package.targets.first { $0.name == "CoreTests" }?.tests.last)
      #expect(crash.name == "(test process)" && crash.status == .failed)
      #expect(package.message?.contains("xcodebuild test-without-building") == true, "\(package.message ?? "")")
      #expect(package.filter == "-only-testing:CoreTests -only-testing:MyAppTests")
    }
  }
}
