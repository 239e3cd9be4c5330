import Foundation
import RippleConfig
import RippleCore
import SystemClients

/// `test.requires`: what the tests need but Ripple does not start (a database, a simulator), checked
/// before anything is built so a missing prerequisite is one clear error, not a hundred failing tests.
public enum TestRequirements {
  /// Runs each check's command at the repository root; the first that is missing or fails throws.
  public static func check(
    _ requirements: [TestRequirement], in root: String, process: ProcessClient,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws {
    for requirement in requirements {
      let executable = requirement.command[0]
      let found =
        executable.contains("/")
        ? FileManager.default.isExecutableFile(atPath: executable.hasPrefix("/") ? executable : root + "/" + executable)
        : AssetChecks.which(executable, environment: environment) != nil
      guard found else {
        throw requirement.location.error(
          "the check `\(requirement.name)` runs `\(executable)`, which was not found",
          hint: executable.contains("/") ? "check the path" : "install it or add its folder to PATH")
      }
      let request = ProcessRequest(
        executable, Array(requirement.command.dropFirst()), workingDirectory: root, timeout: .seconds(120))
      let result = try await process.run(request)
      guard result.succeeded else { throw TestRequirementFailed(requirement: requirement, result: result) }
    }
  }
}

/// A `test.requires` check that ran and did not pass: the environment is not ready for the tests.
public struct TestRequirementFailed: RippleError {
  public var requirement: TestRequirement
  public var result: ProcessResult

  public var category: ErrorCategory { .environment }
  public var description: String {
    "the check `\(requirement.name)` (test.requires in \(requirement.location.file)) failed before building: "
      + ProcessError.failed(result).description
      + "\nstart or install what it checks, then run again"
  }
}
