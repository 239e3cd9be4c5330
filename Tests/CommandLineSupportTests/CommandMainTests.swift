import ArgumentParser
import CommandLineSupport
import RippleCore
import Testing

/// The one exit-code mapping both executables use.
@Suite struct CommandMainTests {
  struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tool", version: "1.2.3")
    @Option var count: Int = 1
    func run() throws {}
    func validate() throws {
      guard count > 0 else { throw ValidationError("--count must be positive") }
    }
  }

  struct Failure: RippleError {
    var category: ErrorCategory
    var description: String { "it failed in ripple.yml:3" }
  }

  struct Unexpected: Error {}

  func outcome(_ error: any Error) -> CommandMain.Outcome {
    CommandMain.outcome(of: error, in: Tool.self, errorPrefix: "error: ")
  }

  /// What parsing and running `arguments` throws, as `CommandMain.run` sees it (`--help` parses into a
  /// help command whose run throws).
  func parseError(_ arguments: [String]) -> any Error {
    do {
      var command = try Tool.parseAsRoot(arguments)
      try command.run()
      return Unexpected()
    } catch {
      return error
    }
  }

  @Test(arguments: [ErrorCategory.checkFailed, .usage, .environment, .internal])
  func aRippleErrorExitsWithItsCategory(category: ErrorCategory) {
    #expect(
      outcome(Failure(category: category))
        == .init(code: category.rawValue, message: "error: it failed in ripple.yml:3", toStandardOutput: false))
  }

  @Test func usageErrorsAreTwoWithArgumentParsersMessage() {
    for arguments in [["--count", "0"], ["--nope"], ["--count", "x"]] {
      let result = outcome(parseError(arguments))
      #expect(result.code == 2, "\(arguments)")
      #expect(result.toStandardOutput == false)
      #expect(result.message?.isEmpty == false)
    }
  }

  @Test func helpAndVersionGoToStandardOutputWithZero() {
    let help = outcome(parseError(["--help"]))
    #expect(help.code == 0)
    #expect(help.toStandardOutput)
    #expect(help.message?.contains("--count") == true)
    #expect(outcome(parseError(["--version"])) == .init(code: 0, message: "1.2.3", toStandardOutput: true))
  }

  @Test func aThrownExitCodeIsKeptAndPrintsNothing() {
    #expect(outcome(ExitCode.failure) == .init(code: 1, message: nil, toStandardOutput: false))
    #expect(outcome(ExitCode(3)) == .init(code: 3, message: nil, toStandardOutput: false))
  }

  @Test func anythingElseIsInternal() {
    #expect(outcome(Unexpected()).code == 4)
  }

  @Test func onlyHelpAndVersionCountAsAskingForThem() {
    for arguments in [[], ["--version"], ["help", "affected"], ["affected", "--help"], ["test", "-h"]] {
      #expect(CommandMain.asksForHelpOrVersion(arguments), "\(arguments)")
    }
    for arguments in [["affected"], ["changes", "--base", "main"], ["test", "--", "--help-me"]] {
      #expect(!CommandMain.asksForHelpOrVersion(arguments), "\(arguments)")
    }
  }
}
