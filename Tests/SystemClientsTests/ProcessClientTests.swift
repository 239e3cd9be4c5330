import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

@Suite struct ProcessClientTests {
  @Test func capturesBothStreamsAndTheExitStatus() async throws {
    let result = try await ProcessClient.live.run(
      ProcessRequest("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"]))
    #expect(result.outputString == "out")
    #expect(result.errorString == "err")
    #expect(result.exitStatus == 3)
    #expect(!result.succeeded)
  }

  @Test func passesArgumentsVerbatimWithoutAShell() async throws {
    let tricky = "a b; echo $HOME 'q' \"dq\" \\(x)"
    let result = try await ProcessClient.live.run(ProcessRequest("/usr/bin/printf", ["%s", tricky]))
    #expect(result.outputString == tricky)
  }

  @Test func setsWorkingDirectoryAndEnvironment() async throws {
    let dir = FileManager.default.temporaryDirectory.path
    let result = try await ProcessClient.live.run(
      ProcessRequest(
        "/bin/sh", ["-c", "pwd; echo \"$RIPPLE_TEST_VAR\""], workingDirectory: dir,
        environment: ["RIPPLE_TEST_VAR": "set here"]))
    let lines = result.outputString.split(separator: "\n").map(String.init)
    #expect(
      URL(fileURLWithPath: lines[0]).resolvingSymlinksInPath().path
        == URL(fileURLWithPath: dir).resolvingSymlinksInPath().path)
    #expect(lines[1] == "set here")
  }

  @Test func missingExecutableIsAnEnvironmentError() async throws {
    let error = await #expect(throws: ProcessError.self) {
      _ = try await ProcessClient.live.run(ProcessRequest("ripple-no-such-tool-xyz"))
    }
    #expect(error?.category == .environment)
    #expect(error?.description.contains("ripple-no-such-tool-xyz") == true)
  }

  @Test func runCheckedShowsCommandStatusAndStderrTail() async throws {
    let error = await #expect(throws: ProcessError.self) {
      _ = try await ProcessClient.live.runChecked(
        ProcessRequest("/bin/sh", ["-c", "echo first >&2; echo 'the real problem' >&2; exit 7"]))
    }
    let text = error?.description ?? ""
    #expect(text.contains("/bin/sh -c"))
    #expect(text.contains("status 7"))
    #expect(text.contains("the real problem"))
  }

  /// The child and the grandchild it started are both stopped: the whole process group is killed. The timeout
  /// leaves a loaded machine 5 s to start the shell and have it write the grandchild's pid.
  @Test func timeoutStopsTheWholeProcessGroup() async throws {
    let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-pg-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    let started = ContinuousClock.now
    let error = await #expect(throws: ProcessError.self) {
      _ = try await ProcessClient.live.run(
        ProcessRequest("/bin/sh", ["-c", "sleep 600 & echo $! > '\(pidFile)'; wait"], timeout: .seconds(5)))
    }
    #expect(error?.description.contains("did not finish") == true)
    // Not the 600 s the sleep would take: stopped at the timeout (and its SIGTERM/SIGKILL steps, slower when loaded).
    #expect(ContinuousClock.now - started < .seconds(300))
    let grandchild = try #require(
      Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    let ended = await poll(every: .milliseconds(100), timeout: .seconds(5)) { processHasEnded(grandchild) }
    #expect(ended, "the background sleep should have been killed with its process group")
  }

  @Test func shellQuoteOnlyQuotesWhenNeeded() {
    #expect(ShellQuote.quote("swift") == "swift")
    #expect(ShellQuote.quote("a b") == "'a b'")
    #expect(ShellQuote.quote("it's") == "'it'\\''s'")
    #expect(ShellQuote.quote("") == "''")
  }
}
