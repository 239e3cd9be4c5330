import Foundation
import SystemClients

/// Runs `swift package dump-package` for one manifest under one environment and normalises its output.
struct ManifestEvaluator: Sendable {
  var process: ProcessClient
  /// The resolved `swift` executable.
  var swift: String
  /// The children's TMPDIR (see `EvaluationDirectory`).
  var temporaryDirectory: String

  /// One evaluation to run.
  struct Job: Sendable {
    /// Repo-relative package directory.
    var packagePath: String
    /// Variables to set (and to remove, as nil) on top of the inherited environment.
    var environment: [String: String?]
    /// The user's environment entry, for error messages.
    var declaredEnvironment: [String: String]
  }

  /// Evaluates `job` in `<root>/<packagePath>`, where `root` is the repository (working tree) or the
  /// scratch directory holding the revision's manifests at the same relative locations.
  func evaluate(_ job: Job, root: String, revision: String) async throws -> JSONValue {
    let directory = job.packagePath == "." ? root : root + "/" + job.packagePath
    var environment = job.environment
    environment["TMPDIR"] = temporaryDirectory
    let request = ProcessRequest(
      swift, ["package", "dump-package", "--package-path", directory], environment: environment,
      timeout: .seconds(600))
    let result: ProcessResult
    do {
      result = try await process.run(request)
    } catch ProcessError.notFound {
      throw PackageGraphError.swiftNotFound(executable: swift)
    }
    guard result.succeeded else {
      throw PackageGraphError.manifestFailed(
        packagePath: job.packagePath, revision: revision, environment: job.declaredEnvironment,
        message: Self.tail(result.errorString.isEmpty ? result.outputString : result.errorString))
    }
    let document: JSONValue
    do {
      document = try JSONValue.parse(Array(result.standardOutput))
    } catch {
      throw PackageGraphError.unexpectedManifestOutput(
        packagePath: job.packagePath, revision: revision, reason: "the output is not JSON: \(error)")
    }
    let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    return PathNormalizer(roots: realRoot == root ? [root] : [root, realRoot]).normalize(document)
  }

  /// The last non-empty lines of SwiftPM's error output, indented.
  static func tail(_ text: String, lines: Int = 20) -> String {
    text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.suffix(lines)
      .map { "    " + $0 }.joined(separator: "\n")
  }
}
