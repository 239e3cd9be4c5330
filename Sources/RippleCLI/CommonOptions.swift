import ArgumentParser
import Foundation
import RippleKit

/// `-C DIR` and `--config PATH`, shared by every command that reads a repository.
struct RepositoryOptions: ParsableArguments {
  @Option(name: .customShort("C"), help: ArgumentHelp("Run as if started in DIR.", valueName: "DIR"))
  var directory: String?

  @Option(help: ArgumentHelp("Config file (default: ripple.yml, .ripple.yml or Config/ripple.yml).", valueName: "PATH"))
  var config: String?

  var resolvedDirectory: String {
    let cwd = FileManager.default.currentDirectoryPath
    guard let directory else { return cwd }
    return directory.hasPrefix("/") ? directory : cwd + "/" + directory
  }

  /// The workspace every command works on: the repository holding `-C DIR`, with its config.
  func openWorkspace(services: RippleServices = .live) throws -> Workspace {
    try Workspace.open(directory: resolvedDirectory, configPath: config, services: services)
  }
}

/// Which two states to compare (docs/DESIGN.md, rule 1).
struct RevisionOptions: ParsableArguments {
  @Option(
    help: """
      Base revision (default: merge-base of HEAD with origin/HEAD, main or master). `auto`: the newest commit of \
      the base branch whose run passed, from the result store (affected and test).
      """)
  var base: String?

  @Option(help: "Head revision (default: the working tree, with staged, unstaged and untracked files).")
  var head: String?

  @Flag(help: "Compare from --base itself instead of the merge-base of base and head.")
  var noMergeBase = false

  @Option(
    help: ArgumentHelp(
      "The changed paths, one per line, from a file or - (stdin), instead of git's diff (a forge's API, a hook).",
      valueName: "FILE"))
  var changedFiles: String?

  /// The request, with `--changed-files` read (relative to `directory`, the repository's root for paths).
  func request(repositoryRoot: String) throws -> ChangeRequest {
    var request = ChangeRequest(base: base, head: head, noMergeBase: noMergeBase)
    if let changedFiles {
      let data: Data
      if changedFiles == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
      } else {
        guard let contents = FileManager.default.contents(atPath: changedFiles) else {
          throw ChangeListError.unreadable(source: changedFiles, reason: "no such file, or it cannot be read")
        }
        data = contents
      }
      request.changedFiles = try ChangedFileList.parse(
        data, source: changedFiles == "-" ? "(stdin)" : changedFiles, repositoryRoot: repositoryRoot)
    }
    return request
  }
}

enum Fallback: String, ExpressibleByArgument, CaseIterable {
  case error
  case all
}

/// Options that decide which targets are selected; shared by `affected` and `test`.
struct SelectionOptions: ParsableArguments {
  @OptionGroup var repository: RepositoryOptions
  @OptionGroup var revisions: RevisionOptions

  @Flag(help: "Only direct dependents of changed targets, not the transitive closure.")
  var direct = false

  @Option(help: "When something cannot be known (a manifest fails to evaluate): error, or select all tests.")
  var fallback: Fallback = .error

  func request(repositoryRoot: String) throws -> AffectedRequest {
    AffectedRequest(
      changes: try revisions.request(repositoryRoot: repositoryRoot), directOnly: direct, fallbackAll: fallback == .all)
  }
}
