import Foundation
import RippleCore
import SystemClients

/// The one process double of the test suite: answers commands by argv pattern, records every request, and
/// fails loudly on a command no rule scripts (a test issue through `unimplemented`, and a thrown error). It runs
/// nothing by itself; a rule may hand its commands to another client on purpose (`.delegate(to: .live)`, for
/// manifest evaluation by the real toolchain), never as a fall-through.
///
///     let process = ScriptedProcess()
///       .on(.command("swift", "build"), .exit(0))
///       .on(.command("swift", "package", "dump-package"), .delegate(to: .live))
///     … Workspace.open(…, services: RippleServices(process: process.client, …))
///     #expect(process.requests(matching: .command("swift", "build")).count == 1)
///
/// A test whose answers are easier as one `switch` passes a closure instead: nil means "not scripted", an issue
/// and a thrown error as for a command no rule matches.
///
///     let process = ScriptedProcess { request in
///       switch request.arguments.first {
///       case "build": ScriptedProcess.result(request)
///       default: nil
///       }
///     }
public final class ScriptedProcess: Sendable {
  /// Which requests a rule answers.
  public struct Pattern: Sendable, CustomStringConvertible {
    public var description: String
    public var matches: @Sendable (ProcessRequest) -> Bool

    public init(_ description: String, _ matches: @escaping @Sendable (ProcessRequest) -> Bool) {
      self.description = description
      self.matches = matches
    }

    /// `executable` (its name or any path ending in it), its argv starting with `arguments`.
    public static func command(_ executable: String, _ arguments: String...) -> Pattern {
      Pattern(([executable] + arguments).joined(separator: " ") + " …") { request in
        (request.executable == executable || request.executable.hasSuffix("/" + executable))
          && request.arguments.starts(with: arguments)
      }
    }

    /// Any request whose argv holds `argument`.
    public static func containing(_ argument: String) -> Pattern {
      Pattern("… \(argument) …") { $0.arguments.contains(argument) }
    }

    /// Every request.
    public static let any = Pattern("any command") { _ in true }
  }

  /// How a rule answers.
  public enum Response: Sendable {
    /// A result with this status and output.
    case exit(Int32, stdout: String = "", stderr: String = "")
    /// Computed from the request (may write files, sleep on a signal, or throw).
    case run(@Sendable (ProcessRequest) async throws -> ProcessResult)
    /// Like `run`, but nil declines: the next matching rule answers, and without one the command is unscripted.
    case answer(@Sendable (ProcessRequest) async throws -> ProcessResult?)
    /// Handed to another client, on purpose (the real toolchain for manifests).
    case delegate(to: ProcessClient)
    /// Thrown, as a process that cannot start would (`ProcessError.notFound`).
    case fail(any Error)
  }

  private struct Rule: Sendable {
    var pattern: Pattern
    var response: Response
  }

  private let rules = Locked<[Rule]>([])
  private let recorded = Locked<[ProcessRequest]>([])

  public init() {}

  /// One rule for every command, answered by `answer` (nil: not scripted).
  public convenience init(_ answer: @escaping @Sendable (ProcessRequest) async throws -> ProcessResult?) {
    self.init()
    on(.any, .answer(answer))
  }

  /// A result of `request` with this status and output.
  public static func result(_ request: ProcessRequest, status: Int32 = 0, stdout: String = "", stderr: String = "")
    -> ProcessResult
  {
    ProcessResult(
      request: request, exitStatus: status, standardOutput: Data(stdout.utf8), standardError: Data(stderr.utf8))
  }

  /// Adds a rule; the first rule whose pattern matches answers.
  @discardableResult
  public func on(_ pattern: Pattern, _ response: Response) -> ScriptedProcess {
    rules.withLock { $0.append(Rule(pattern: pattern, response: response)) }
    return self
  }

  /// Every request so far, in order (unscripted ones too).
  public var requests: [ProcessRequest] { recorded.withLock { $0 } }

  public func requests(matching pattern: Pattern) -> [ProcessRequest] {
    requests.filter(pattern.matches)
  }

  public var client: ProcessClient {
    ProcessClient { request in try await self.answer(request) }
  }

  private func answer(_ request: ProcessRequest) async throws -> ProcessResult {
    recorded.withLock { $0.append(request) }
    let matching = rules.withLock { rules in rules.filter { $0.pattern.matches(request) } }
    for rule in matching {
      switch rule.response {
      case .exit(let status, let stdout, let stderr):
        return Self.result(request, status: status, stdout: stdout, stderr: stderr)
      case .run(let body): return try await body(request)
      case .answer(let body):
        if let result = try await body(request) { return result }
      case .delegate(let client): return try await client.run(request)
      case .fail(let error): throw error
      }
    }
    let scripted = rules.withLock { $0.map(\.pattern.description) }
    throw unimplemented(
      "ScriptedProcess", "run `\(request.commandLine)` (scripted: \(scripted.joined(separator: "; ")))")
  }
}
