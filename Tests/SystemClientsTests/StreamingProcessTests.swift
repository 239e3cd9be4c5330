import Foundation
import TestSupport
import Testing

@testable import SystemClients

/// Collects lines with the time they arrived.
final class LineLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [(OutputLine, ContinuousClock.Instant)] = []
  func append(_ line: OutputLine) {
    lock.lock()
    stored.append((line, .now))
    lock.unlock()
  }
  var entries: [(OutputLine, ContinuousClock.Instant)] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

@Suite struct StreamingProcessTests {
  @Test func deliversLinesWhileTheProcessRunsAndCapturesThemToo() async throws {
    let log = LineLog()
    let request = ProcessRequest("/bin/sh", ["-c", "echo first; echo oops >&2; sleep 1; echo second; exit 3"])
    let result = try await ProcessClient.live.runStreaming(request, log.append)
    let finished = ContinuousClock.now
    #expect(result.exitStatus == 3)
    #expect(result.outputString == "first\nsecond\n")
    #expect(result.errorString == "oops\n")
    let lines = log.entries
    #expect(lines.filter { $0.0.stream == .standardOutput }.map(\.0.text) == ["first", "second"])
    #expect(lines.filter { $0.0.stream == .standardError }.map(\.0.text) == ["oops"])
    let first = try #require(lines.first { $0.0.text == "first" })
    #expect(finished - first.1 > .milliseconds(500), "the first line arrived before the process ended")
  }

  @Test func clientsWithoutStreamingReplayTheOutput() async throws {
    let client = ScriptedProcess().on(.any, .exit(0, stdout: "a\nb\n", stderr: "c")).client
    let log = LineLog()
    _ = try await client.runStreaming(ProcessRequest("x"), log.append)
    #expect(
      log.entries.map(\.0) == [
        OutputLine(.standardOutput, "a"), OutputLine(.standardOutput, "b"), OutputLine(.standardError, "c"),
      ])
  }

  @Test func aMissingExecutableIsNotFound() async throws {
    await #expect(throws: ProcessError.self) {
      try await ProcessClient.live.runStreaming(ProcessRequest("/nonexistent/tool"), { _ in })
    }
  }
}
