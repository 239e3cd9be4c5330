import Foundation
import TestSupport
import Testing

@testable import SystemClients

/// Collects the lines a process streams, in the order they arrived.
final class LineLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [OutputLine] = []
  func append(_ line: OutputLine) {
    lock.lock()
    stored.append(line)
    lock.unlock()
  }
  var lines: [OutputLine] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

@Suite struct StreamingProcessTests {
  /// The child waits until the test has seen its first line (the handler creates a marker file) before it writes the
  /// second one and ends: without streaming, the first line would arrive only after the end and the child would give
  /// up waiting (exit 9). A signal, not a clock: a loaded machine may delay the line, never reorder it.
  @Test func deliversLinesWhileTheProcessRunsAndCapturesThemToo() async throws {
    let folder = try TemporaryDirectory(prefix: "ripple-streaming")
    let marker = folder.child("first-seen")
    let log = LineLog()
    let script = """
      echo first; echo oops >&2
      i=0; while [ ! -e "$1" ]; do i=$((i+1)); [ $i -gt 1200 ] && exit 9; sleep 0.05; done
      echo second; exit 3
      """
    let request = ProcessRequest("/bin/sh", ["-c", script, "sh", marker])
    let result = try await ProcessClient.live.runStreaming(request) { line in
      log.append(line)
      if line.text == "first" { _ = FileManager.default.createFile(atPath: marker, contents: nil) }
    }
    #expect(result.exitStatus == 3, "3: the child saw the marker, so the first line arrived while it ran")
    #expect(result.outputString == "first\nsecond\n")
    #expect(result.errorString == "oops\n")
    let lines = log.lines
    #expect(lines.filter { $0.stream == .standardOutput }.map(\.text) == ["first", "second"])
    #expect(lines.filter { $0.stream == .standardError }.map(\.text) == ["oops"])
  }

  @Test func clientsWithoutStreamingReplayTheOutput() async throws {
    let client = ScriptedProcess().on(.any, .exit(0, stdout: "a\nb\n", stderr: "c")).client
    let log = LineLog()
    _ = try await client.runStreaming(ProcessRequest("x"), log.append)
    #expect(
      log.lines == [
        OutputLine(.standardOutput, "a"), OutputLine(.standardOutput, "b"), OutputLine(.standardError, "c"),
      ])
  }

  @Test func aMissingExecutableIsNotFound() async throws {
    await #expect(throws: ProcessError.self) {
      try await ProcessClient.live.runStreaming(ProcessRequest("/nonexistent/tool"), { _ in })
    }
  }
}
