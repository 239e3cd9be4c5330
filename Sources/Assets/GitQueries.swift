import Foundation
import SystemClients

/// The git questions bootstrap asks, through the git CLI (argv, no shell).
struct GitQueries: Sendable {
  var process: ProcessClient
  var repositoryRoot: String

  /// Repo-relative paths of tracked files under `paths` (empty outside a git repository).
  func trackedFiles(under paths: [String]) async throws -> Set<String> {
    guard !paths.isEmpty else { return [] }
    let result = try await process.run(
      ProcessRequest(
        "git", ["-c", "core.quotepath=off", "ls-files", "-z", "--"] + paths, workingDirectory: repositoryRoot))
    guard result.succeeded else {
      if result.errorString.contains("not a git repository") { return [] }
      throw ProcessError.failed(result)
    }
    return Set(result.outputString.split(separator: "\0").map(String.init))
  }

  /// Whether git ignores `path` (and it is not tracked: a tracked file is never "ignored").
  func isIgnored(_ path: String) async throws -> Bool {
    let result = try await process.run(
      ProcessRequest("git", ["check-ignore", "-q", "--", path], workingDirectory: repositoryRoot))
    switch result.exitStatus {
    case 0: return true
    case 1: return false
    default: throw ProcessError.failed(result)
    }
  }

  /// The git dir, the common dir and the hooks folder (`core.hooksPath` included), as git resolves
  /// them; none outside a git repository.
  func gitFolders() async throws -> [ProtectedFolder] {
    let result = try await process.run(
      ProcessRequest(
        "git", ["rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--git-path", "hooks"],
        workingDirectory: repositoryRoot))
    guard result.succeeded else {
      if result.errorString.contains("not a git repository") { return [] }
      throw ProcessError.failed(result)
    }
    let paths = result.outputString.split(separator: "\n").map(String.init)
    return zip(paths, ["git's folder", "git's common folder", "git's hooks folder"]).map {
      ProtectedFolder(path: $0, what: $1)
    }
  }
}
