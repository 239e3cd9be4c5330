import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

/// Every `failing` double reports the test that reaches it and throws; none crashes the test binary.
@Suite struct FailingDoubleTests {
  @Test func theTestBinaryExportsTheIssueBridge() {
    #expect(IssueReporter.reachesTests)
  }

  @Test func aFailingProcessRecordsAnIssueEvenWhenTheCallerSwallowsTheError() async {
    await withKnownIssue {
      _ = try? await ProcessClient.failing.run(ProcessRequest("swift", ["build"]))
    } matching: { issue in
      issue.description.contains("swift build")
    }
  }

  @Test func aFailingProcessThrowsTheUnimplementedError() async {
    await withKnownIssue {
      await #expect(throws: UnimplementedClientError.self) {
        try await ProcessClient.failing.run(ProcessRequest("git", ["status"]))
      }
    }
  }

  @Test func theFailingClockReportsAndThrowsOnSleepAndAnswersTheEpochForNow() async {
    await withKnownIssue {
      #expect(ClockClient.failing.now() == Date(timeIntervalSince1970: 0))
    }
    await withKnownIssue {
      await #expect(throws: UnimplementedClientError.self) { try await ClockClient.failing.sleep(.seconds(1)) }
    }
  }

  @Test func theScriptedProcessAnswersByPatternAndRecordsEveryRequest() async throws {
    let process = ScriptedProcess()
      .on(.command("swift", "build"), .exit(0, stdout: "built"))
      .on(.containing("--version"), .exit(0, stdout: "Swift version 6.3.1"))
      .on(.command("xcrun"), .fail(ProcessError.notFound(executable: "xcrun")))
    let built = try await process.client.run(ProcessRequest("/usr/bin/swift", ["build", "--build-tests"]))
    #expect(built.outputString == "built")
    let version = try await process.client.run(ProcessRequest("swift", ["--version"]))
    #expect(version.outputString.contains("6.3.1"))
    await #expect(throws: ProcessError.self) { try await process.client.run(ProcessRequest("xcrun", ["simctl"])) }
    #expect(process.requests.map(\.arguments.first) == ["build", "--version", "simctl"])
    #expect(process.requests(matching: .command("swift", "build")).count == 1)
  }

  @Test func anUnscriptedCommandIsAnIssueAndAnErrorNeverARealProcess() async {
    let process = ScriptedProcess().on(.command("swift", "build"), .exit(0))
    await withKnownIssue {
      await #expect(throws: UnimplementedClientError.self) {
        try await process.client.run(ProcessRequest("/bin/sh", ["-c", "touch /tmp/ripple-scripted-ran"]))
      }
    } matching: { issue in
      issue.description.contains("touch") && issue.description.contains("swift build")
    }
    #expect(!FileManager.default.fileExists(atPath: "/tmp/ripple-scripted-ran"))
  }

  @Test func aScriptingClosureThatDeclinesACommandIsAnIssueAndAnError() async throws {
    let process = ScriptedProcess { request in
      request.arguments.first == "build" ? ScriptedProcess.result(request, stdout: "built") : nil
    }
    #expect(try await process.client.run(ProcessRequest("swift", ["build"])).outputString == "built")
    await withKnownIssue {
      await #expect(throws: UnimplementedClientError.self) {
        try await process.client.run(ProcessRequest("swift", ["test"]))
      }
    } matching: { issue in
      issue.description.contains("swift test")
    }
    #expect(process.requests.map(\.arguments) == [["build"], ["test"]])
  }

  @Test func aDecliningClosureLeavesTheCommandToTheNextRule() async throws {
    let process = ScriptedProcess { _ in nil }.on(.command("git"), .exit(0, stdout: "clean"))
    #expect(try await process.client.run(ProcessRequest("git", ["status"])).outputString == "clean")
  }
}
