import Foundation
import RippleCore
import Subprocess

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

extension ProcessClient {
  /// Spawns real processes through swift-subprocess, each in a process group of its own, so that a
  /// cancelled or timed-out command is stopped together with everything it started.
  public static let live = ProcessClient { request in
    try await withThrowingTaskGroup(of: ProcessResult?.self) { group in
      group.addTask { try await spawn(request) }
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
  }

  /// Standard output and standard error are each capped at this many bytes.
  static let outputLimit = 256 * 1024 * 1024

  private static func spawn(_ request: ProcessRequest) async throws -> ProcessResult {
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
        output: .bytes(limit: outputLimit),
        error: .bytes(limit: outputLimit)
      )
      let status: Int32 =
        switch result.terminationStatus {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
      return ProcessResult(
        request: request, exitStatus: status, standardOutput: Data(result.standardOutput),
        standardError: Data(result.standardError))
    } catch let error as SubprocessError {
      if error.code == .executableNotFound { throw ProcessError.notFound(executable: request.executable) }
      throw ProcessError.couldNotStart(command: request.commandLine, reason: "\(error)")
    }
  }
}
