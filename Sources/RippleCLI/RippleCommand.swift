import ArgumentParser
import Foundation
import RippleCore

/// The `ripple` command tree. Subcommands parse, call RippleKit, and print; nothing else.
public struct RippleCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "ripple",
    abstract: "Find what a change touches, test only that, and bootstrap private assets.",
    discussion: """
      Exit codes: 0 success, 1 tests or a check failed, 2 usage or config error, \
      3 environment error (missing tool, unreadable repository), 4 internal error.
      """,
    version: RippleVersion.current,
    subcommands: [
      AffectedCommand.self, TestCommand.self, BootstrapCommand.self, ChangesCommand.self, GraphCommand.self,
      DoctorCommand.self,
    ]
  )
  public init() {}

  /// Runs the command line and exits with the code of its error category (docs/DESIGN.md, "Exit codes").
  public static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
    do {
      var command = try parseAsRoot(arguments)
      if var async = command as? AsyncParsableCommand {
        try await async.run()
      } else {
        try command.run()
      }
      Foundation.exit(0)
    } catch {
      Foundation.exit(report(error))
    }
  }

  /// Prints `error` to stderr and returns its exit code.
  static func report(_ error: Error) -> Int32 {
    switch error {
    case let error as ExitWith:
      return error.code
    case let error as RippleError:
      Terminal.standardError.write("error: \(error.description)\n")
      return error.category.exitCode
    default:
      let code = exitCode(for: error).rawValue
      let message = fullMessage(for: error)
      if code == 0 {
        print(message)
        return 0
      }
      if !message.isEmpty { Terminal.standardError.write(message + "\n") }
      // ArgumentParser reports usage errors as 64 (EX_USAGE); Ripple's contract is 2.
      return code == ExitCode.validationFailure.rawValue
        ? ErrorCategory.usage.exitCode : ErrorCategory.internal.exitCode
    }
  }
}

/// Thrown by a command that already printed what it had to say and wants a specific exit code.
struct ExitWith: Error {
  var code: Int32
}

public enum RippleVersion {
  public static let current = "0.1.0"
}
