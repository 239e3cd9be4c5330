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
  public static let live = ProcessClient(
    run: { request in try await withTimeout(request) { try await spawn(request) } },
    runStreaming: { request, onLine in
      try await withTimeout(request) { try await spawnStreaming(request, onLine: onLine) }
    })

  /// Runs `body`, and stops it (cancelling the task tears the process group down) when the request's
  /// timeout passes first.
  static func withTimeout(
    _ request: ProcessRequest, _ body: @escaping @Sendable () async throws -> ProcessResult
  ) async throws -> ProcessResult {
    try await withThrowingTaskGroup(of: ProcessResult?.self) { group in
      group.addTask { try await body() }
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
    try DescriptorHeadroom.check(command: request.commandLine)
    do {
      let result = try await ProcessGroupReaper.reaping { reaper in
        try await Subprocess.run(
          try configuration(for: request), input: .none, output: .bytes(limit: outputLimit),
          error: .bytes(limit: outputLimit)
        ) { execution in reaper.started(execution.processIdentifier.value) }
      }
      return ProcessResult(
        request: request, exitStatus: exitStatus(result.terminationStatus),
        standardOutput: Data(result.standardOutput), standardError: Data(result.standardError))
    } catch let error as SubprocessError {
      throw processError(error, request)
    }
  }

  /// The child leads a session (so a process group) of its own, without a controlling terminal.
  /// Cancellation sends SIGINT to the whole group first, as Ctrl-C would: SwiftPM then stops the
  /// processes it started in groups of their own (the test runner); SIGTERM follows after three seconds,
  /// SIGKILL two seconds later. `ProcessGroupReaper` sends the same to the groups in the child's session.
  static func configuration(for request: ProcessRequest) throws -> Subprocess.Configuration {
    var options = PlatformOptions()
    options.createSession = true  // setsid(): the child leads a new session and a new group
    options.teardownSequence = [
      .send(signal: .interrupt, toProcessGroup: true, allowedDurationToNextStep: .seconds(3)),
      .gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: .seconds(2)),
    ]
    let executable = try resolvedExecutable(request)
    var environment = Environment.inherit
    if !request.environment.isEmpty {
      environment = environment.updating(
        Dictionary(uniqueKeysWithValues: request.environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) })
      )
    }
    return Subprocess.Configuration(
      executable: executable, arguments: Arguments(request.arguments), environment: environment,
      workingDirectory: request.workingDirectory.map { FilePath($0) }, platformOptions: options)
  }

  /// A path as given; a name looked up (`ExecutableLookup`) on the PATH the child gets (the request's own
  /// PATH, else this process's), so swift-subprocess does not try each PATH entry by spawning it. A name
  /// on no PATH entry is `ProcessError.notFound`, as swift-subprocess reports it.
  static func resolvedExecutable(_ request: ProcessRequest, lookup: ExecutableLookup = .shared) throws -> Executable {
    let name = request.executable
    if name.contains("/") { return .path(FilePath(name)) }
    let path: String? =
      if case .some(.some(let overridden)) = request.environment["PATH"] { overridden } else { ProcessInfo.path }
    // No PATH at all: swift-subprocess's default search list.
    guard let path else { return .name(name) }
    guard !name.isEmpty, let resolved = lookup.resolve(name, path: path) else {
      throw ProcessError.notFound(executable: name)
    }
    return .path(FilePath(resolved))
  }

  /// The exit status, or 128 + the signal number, as a shell reports it.
  static func exitStatus(_ status: TerminationStatus) -> Int32 {
    switch status {
    case .exited(let code): Int32(code)
    case .signaled(let signal): 128 + Int32(signal)
    }
  }

  static func processError(_ error: SubprocessError, _ request: ProcessRequest) -> ProcessError {
    if error.code == .executableNotFound { return .notFound(executable: request.executable) }
    return .couldNotStart(command: request.commandLine, reason: "\(error)")
  }
}
