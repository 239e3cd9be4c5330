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
  /// `live`, plus `runStreaming` that delivers output lines while the process runs. Same process
  /// group handling, timeout and errors as `live`; the captured output is returned in full as well.
  public static let liveStreaming = ProcessClient(
    run: live.run,
    runStreaming: { request, onLine in
      try await withThrowingTaskGroup(of: ProcessResult?.self) { group in
        group.addTask { try await spawnStreaming(request, onLine: onLine) }
        if let timeout = request.timeout {
          group.addTask {
            try await Task.sleep(for: timeout)
            return nil
          }
        }
        guard let first = try await group.next() else { throw InternalError("process task group was empty") }
        group.cancelAll()
        guard let result = first else {
          throw ProcessError.timedOut(command: request.commandLine, after: request.timeout ?? .zero)
        }
        return result
      }
    })

  private static func spawnStreaming(_ request: ProcessRequest, onLine: @escaping @Sendable (OutputLine) -> Void)
    async throws -> ProcessResult
  {
    var options = PlatformOptions()
    options.processGroupID = 0  // a new group led by the child
    options.teardownSequence = [.gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: .seconds(2))]
    let executable: Executable =
      request.executable.contains("/") ? .path(FilePath(request.executable)) : .name(request.executable)
    var environment = Environment.inherit
    if !request.environment.isEmpty {
      environment = environment.updating(
        Dictionary(uniqueKeysWithValues: request.environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) })
      )
    }
    do {
      let result = try await Subprocess.run(
        executable,
        arguments: Arguments(request.arguments),
        environment: environment,
        workingDirectory: request.workingDirectory.map { FilePath($0) },
        platformOptions: options,
        input: .none,
        output: .sequence,
        error: .sequence
      ) { execution in
        let errorStream = execution.standardError
        let outputStream = execution.standardOutput
        async let errorData = collect(errorStream, as: .standardError, onLine: onLine)
        let outputData = try await collect(outputStream, as: .standardOutput, onLine: onLine)
        return (outputData, try await errorData)
      }
      let status: Int32 =
        switch result.terminationStatus {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
      return ProcessResult(
        request: request, exitStatus: status, standardOutput: result.closureResult.0,
        standardError: result.closureResult.1)
    } catch let error as SubprocessError {
      if error.code == .executableNotFound { throw ProcessError.notFound(executable: request.executable) }
      throw ProcessError.couldNotStart(command: request.commandLine, reason: "\(error)")
    }
  }

  /// Reads a stream line by line, reporting each line and keeping up to `outputLimit` bytes of it.
  private static func collect(
    _ stream: SubprocessOutputSequence, as kind: OutputLine.Stream, onLine: @Sendable (OutputLine) -> Void
  ) async throws -> Data {
    var data = Data()
    for try await line in stream.strings() {
      onLine(OutputLine(kind, line))
      if data.count < outputLimit { data.append(contentsOf: Array(line.utf8) + [0x0A]) }
    }
    return data
  }
}
