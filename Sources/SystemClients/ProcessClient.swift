import Foundation
import RippleCore

/// A command to run: an argv array, never a shell string.
public struct ProcessRequest: Sendable, Hashable {
  /// A name looked up on PATH, or a path.
  public var executable: String
  public var arguments: [String]
  public var workingDirectory: String?
  /// Variables to set on top of the inherited environment (a nil value removes the variable).
  public var environment: [String: String?]
  /// Killed (its whole process group) when it runs longer than this.
  public var timeout: Duration?
  /// With `runStreaming`: the bytes of each stream kept in the result (its end); nil: `ProcessClient.outputLimit`.
  /// Every line is still handed to the caller as it comes.
  public var retainedOutput: Int? = nil

  public init(
    _ executable: String, _ arguments: [String] = [], workingDirectory: String? = nil,
    environment: [String: String?] = [:], timeout: Duration? = nil
  ) {
    self.executable = executable
    self.arguments = arguments
    self.workingDirectory = workingDirectory
    self.environment = environment
    self.timeout = timeout
  }

  /// The command line for messages, shell-quoted for copy and paste.
  public var commandLine: String {
    ([executable] + arguments).map(ShellQuote.quote).joined(separator: " ")
  }
}

public struct ProcessResult: Sendable, Hashable {
  public var request: ProcessRequest
  /// The exit status, or 128 + signal number when killed by a signal.
  public var exitStatus: Int32
  public var standardOutput: Data
  public var standardError: Data

  public init(request: ProcessRequest, exitStatus: Int32, standardOutput: Data, standardError: Data) {
    self.request = request
    self.exitStatus = exitStatus
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  public var succeeded: Bool { exitStatus == 0 }
  public var outputString: String { String(decoding: standardOutput, as: UTF8.self) }
  public var errorString: String { String(decoding: standardError, as: UTF8.self) }
}

/// Runs child processes. `live` spawns real ones in their own process group; tests inject their own.
public struct ProcessClient: Sendable {
  /// Runs to completion and captures both streams. Throws `ProcessError` only when it cannot start or
  /// times out; a non-zero exit is a result (see `ProcessResult.succeeded`, `ProcessError.failed`).
  public var run: @Sendable (ProcessRequest) async throws -> ProcessResult

  /// Like `run`, and also hands over each line of output (without its line break) while the process
  /// runs, for live progress. Clients made with `init(run:)` replay the lines after the process ends;
  /// `live` delivers them as they come.
  public var runStreaming: @Sendable (ProcessRequest, _ onLine: @escaping LineHandler) async throws -> ProcessResult

  /// Receives one line of a running process's output.
  public typealias LineHandler = @Sendable (OutputLine) -> Void

  public init(run: @escaping @Sendable (ProcessRequest) async throws -> ProcessResult) {
    self.run = run
    self.runStreaming = { request, onLine in
      let result = try await run(request)
      OutputLine.replay(result, to: onLine)
      return result
    }
  }

  public init(
    run: @escaping @Sendable (ProcessRequest) async throws -> ProcessResult,
    runStreaming: @escaping @Sendable (ProcessRequest, _ onLine: @escaping LineHandler) async throws -> ProcessResult
  ) {
    self.run = run
    self.runStreaming = runStreaming
  }

  /// Runs and throws `ProcessError.failed` unless the exit status is 0.
  public func runChecked(_ request: ProcessRequest) async throws -> ProcessResult {
    let result = try await run(request)
    guard result.succeeded else { throw ProcessError.failed(result) }
    return result
  }
}

public enum ProcessError: RippleError {
  case notFound(executable: String)
  case couldNotStart(command: String, reason: String)
  case timedOut(command: String, after: Duration)
  case failed(ProcessResult)

  public var category: ErrorCategory {
    switch self {
    case .notFound: .environment
    case .couldNotStart, .timedOut, .failed: .environment
    }
  }

  public var description: String {
    switch self {
    case .notFound(let name):
      "`\(name)` was not found on PATH; install it or add its directory to PATH"
    case .couldNotStart(let command, let reason):
      "could not start `\(command)`: \(reason)"
    case .timedOut(let command, let after):
      "`\(command)` did not finish within \(after) and was stopped"
    case .failed(let result):
      // git and git-lfs quote remotes (`https://x-access-token:…@github.com/…`) in argv and in their errors.
      Redaction.text(
        "`\(result.request.commandLine)` exited with status \(result.exitStatus)"
          + Self.tail(result.errorString.isEmpty ? result.outputString : result.errorString))
    }
  }

  /// The last lines of a stream, indented, for error messages.
  static func tail(_ text: String, lines: Int = 20) -> String {
    let all = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let kept = all.reversed().drop(while: { $0.trimmingCharacters(in: .whitespaces).isEmpty }).prefix(lines).reversed()
    guard !kept.isEmpty else { return "" }
    return ":\n" + kept.map { "    " + $0 }.joined(separator: "\n")
  }
}

public enum ShellQuote {
  /// Quotes a word for a POSIX shell only when it needs it.
  public static func quote(_ word: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
    if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// Told when a child of `ProcessClient.live` starts leading a process group, and when that child ends, so
/// a service can record the groups in flight and stop them after a crash. The default (nil) does nothing.
public struct ProcessGroupObserver: Sendable {
  public var started: @Sendable (pid_t) -> Void
  public var ended: @Sendable (pid_t) -> Void

  public init(started: @escaping @Sendable (pid_t) -> Void, ended: @escaping @Sendable (pid_t) -> Void) {
    self.started = started
    self.ended = ended
  }
}

extension ProcessClient {
  /// The observer for processes `live` starts in this task and its child tasks
  /// (`ProcessClient.$groupObserver.withValue(observer) { ... }`).
  @TaskLocal public static var groupObserver: ProcessGroupObserver?
}
