import Foundation
import RippleCore
import Subprocess

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// One line a running process wrote, without its line break.
public struct OutputLine: Sendable, Hashable {
  public enum Stream: Sendable, Hashable { case standardOutput, standardError }

  public var stream: Stream
  public var text: String

  public init(_ stream: Stream, _ text: String) {
    self.stream = stream
    self.text = text
  }

  /// Hands over the lines of a finished process: standard output first, then standard error.
  public static func replay(_ result: ProcessResult, to onLine: @Sendable (OutputLine) -> Void) {
    for (stream, text) in [(Stream.standardOutput, result.outputString), (.standardError, result.errorString)] {
      var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      if lines.last == "" { lines.removeLast() }
      for line in lines { onLine(OutputLine(stream, String(line))) }
    }
  }
}

extension ProcessClient {
  /// Like `spawn`, delivering output lines while the process runs; the full output is returned too.
  static func spawnStreaming(_ request: ProcessRequest, onLine: @escaping @Sendable (OutputLine) -> Void)
    async throws -> ProcessResult
  {
    try DescriptorHeadroom.check(command: request.commandLine)
    do {
      let result = try await ProcessGroupReaper.reaping { reaper in
        try await Subprocess.run(
          try configuration(for: request), input: .none, output: .sequence, error: .sequence
        ) { execution in
          reaper.started(execution.processIdentifier.value)
          let errorStream = execution.standardError
          let outputStream = execution.standardOutput
          let limit = request.retainedOutput ?? outputLimit
          async let errorData = collect(errorStream, as: .standardError, limit: limit, onLine: onLine)
          let outputData = try await collect(outputStream, as: .standardOutput, limit: limit, onLine: onLine)
          return (outputData, try await errorData)
        }
      }
      return ProcessResult(
        request: request, exitStatus: exitStatus(result.terminationStatus),
        standardOutput: result.closureResult.0, standardError: result.closureResult.1)
    } catch let error as SubprocessError {
      throw processError(error, request)
    }
  }

  /// Reads a stream line by line (over-long lines cut, never fatal: `LineSplitter`), reporting each line and
  /// keeping the last `request.retainedOutput` bytes (default `outputLimit`).
  private static func collect(
    _ stream: SubprocessOutputSequence, as kind: OutputLine.Stream, limit: Int,
    onLine: @Sendable (OutputLine) -> Void
  ) async throws -> Data {
    var splitter = LineSplitter()
    var tail = OutputTail(limit: limit)
    for try await buffer in stream {
      let lines = buffer.withUnsafeBytes { splitter.feed($0) }
      for line in lines {
        onLine(OutputLine(kind, line))
        tail.append(line)
      }
    }
    if let last = splitter.finish() {
      onLine(OutputLine(kind, last))
      tail.append(last)
    }
    return Data(tail.bytes)
  }
}
