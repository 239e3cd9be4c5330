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
    /// The repo-relative manifest to evaluate alone (another Swift version's choice), nil for the
    /// installed SwiftPM's own choice among the package's manifests.
    var manifestAlone: String? = nil
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
      if let named = Self.rootNamedByAnotherName(errorOutput: result.errorString, root: root) {
        throw PackageGraphError.rootFolderNameMismatch(
          packagePath: job.packagePath, revision: revision, packageName: named,
          folderName: URL(fileURLWithPath: root).lastPathComponent)
      }
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

  /// The package name a manifest used for the root package, when SwiftPM refused it because the root's
  /// folder has another name: "unknown package 'server-kit' in dependencies of target 'B'; valid
  /// packages are: 'repo-123' (at '/ci/repo-123')", where that path is `root`.
  static func rootNamedByAnotherName(errorOutput: String, root: String) -> String? {
    func canonical(_ path: String) -> String {
      URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
    let rootPath = canonical(root)
    for line in errorOutput.split(separator: "\n") {
      guard let unknown = line.firstMatch(of: /unknown package '([^']+)' in dependencies of target/),
        let valid = line.range(of: "valid packages are: ")
      else { continue }
      let roots = line[valid.upperBound...].matches(of: /'[^']+' \(at '([^']+)'\)/)
        .filter { canonical(String($0.output.1)) == rootPath }
      if !roots.isEmpty { return String(unknown.output.1) }
    }
    return nil
  }

  /// The last non-empty lines of SwiftPM's error output, indented.
  static func tail(_ text: String, lines: Int = 20) -> String {
    text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.suffix(lines)
      .map { "    " + $0 }.joined(separator: "\n")
  }
}
