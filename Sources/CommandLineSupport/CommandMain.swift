import ArgumentParser
import Foundation
import RippleCore

/// How both executables end: the one mapping from what a command threw to an exit code and a message
/// (docs/DESIGN.md, "Exit codes").
///
/// - A `RippleError` prints its description and exits with its category's code (1 to 4).
/// - ArgumentParser's own outcomes keep their meaning: help and `--version` print to stdout and exit 0,
///   a thrown `ExitCode` (a command that already printed what it had to say) exits with that code, and
///   a usage error (ArgumentParser's 64, EX_USAGE) becomes 2.
/// - Anything else is a bug in Ripple: 4.
public enum CommandMain {
  /// What to print, where, and the code to exit with.
  public struct Outcome: Equatable, Sendable {
    public var code: Int32
    /// Nil: print nothing.
    public var message: String?
    /// Help and version text go to stdout; errors to stderr.
    public var toStandardOutput: Bool

    public init(code: Int32, message: String?, toStandardOutput: Bool) {
      self.code = code
      self.message = message
      self.toStandardOutput = toStandardOutput
    }
  }

  /// The outcome of `error`, thrown while parsing or running a command of `command`'s tree.
  /// `errorPrefix` starts a `RippleError`'s line ("error: ", or a journald priority for the service).
  public static func outcome(
    of error: any Error, in command: any ParsableCommand.Type, errorPrefix: String
  ) -> Outcome {
    if let error = error as? any RippleError {
      return Outcome(code: error.category.exitCode, message: errorPrefix + error.description, toStandardOutput: false)
    }
    let code = command.exitCode(for: error).rawValue
    let message = command.fullMessage(for: error)
    let text = message.isEmpty ? nil : message
    if code == 0 { return Outcome(code: 0, message: text, toStandardOutput: true) }
    if error is ExitCode { return Outcome(code: code, message: text, toStandardOutput: false) }
    let mapped = code == ExitCode.validationFailure.rawValue ? ErrorCategory.usage : ErrorCategory.internal
    return Outcome(code: mapped.exitCode, message: text, toStandardOutput: false)
  }

  /// Parses `arguments` into a command of `root`'s tree, runs it, and exits with the mapped code.
  /// `writeError` receives every line meant for stderr (with its newline).
  /// `beforeExit` runs right before the process exits, whichever way.
  public static func run(
    _ root: any ParsableCommand.Type, arguments: [String], errorPrefix: String,
    beforeExit: @Sendable () -> Void = {}, writeError: @Sendable (String) -> Void
  ) async -> Never {
    do {
      var command = try root.parseAsRoot(arguments)
      if var async = command as? any AsyncParsableCommand {
        try await async.run()
      } else {
        try command.run()
      }
      beforeExit()
      exit(0)
    } catch {
      let outcome = outcome(of: error, in: root, errorPrefix: errorPrefix)
      if let message = outcome.message {
        if outcome.toStandardOutput { print(message) } else { writeError(message + "\n") }
      }
      beforeExit()
      exit(outcome.code)
    }
  }

  /// Whether `arguments` only ask for help or the version (nothing that opens a repository).
  public static func asksForHelpOrVersion(_ arguments: [String]) -> Bool {
    arguments.isEmpty || arguments.first == "help"
      || arguments.contains { ["-h", "--help", "--version", "--help-hidden", "--experimental-dump-help"].contains($0) }
  }
}

extension CommandMain {
  /// Keeps `value` until the process exits: a command's last result (a test plan holding every closure
  /// target's files) is then freed by the exit rather than object by object after its output is written
  /// (10 ms at 4,000 files, 32 ms at 100,000; issue 50), as compilers skip freeing before they exit.
  public static func keepUntilExit(_ value: some Any) {
    _ = Unmanaged.passRetained(KeptUntilExit(value))
  }

  private final class KeptUntilExit {
    let value: Any
    init(_ value: Any) { self.value = value }
  }
}
