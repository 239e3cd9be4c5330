import DaemonWeb
import Foundation
import RunModel
import RunStore

/// The names of the runs' head commits (subject, author) for the pages, and where the forge shows them.
///
/// A commit is read from its repository's mirror (`RemoteSource.commitSummaries`) the first time a page shows a run
/// of it, and recorded on every run of that commit (`RunStore.nameCommit`): later pages read it with the run, so
/// rendering asks git nothing. A commit the mirror does not hold is recorded as unknown (empty), a working tree's
/// runs have no commit to name.
enum CommitNames {
  /// `runs` with their head commits named where a source could read them.
  static func named(_ runs: [RunRecord], api: APIContext) -> [RunRecord] {
    var wanted: [String: Set<String>] = [:]
    for run in runs where run.subject == nil { wanted[run.repository, default: []].insert(run.head) }
    guard !wanted.isEmpty else { return runs }
    var found: [String: [String: CommitSummary]] = [:]
    for (repository, commits) in wanted {
      guard let source = api.branchSources.first(where: { $0.settings.name == repository }) else { continue }
      let summaries = source.commitSummaries(commits.sorted())
      // One transaction for the page; the names are shown even when they cannot be kept (read again next time).
      _ = try? api.store.nameCommits(repository: repository, summaries)
      found[repository] = summaries
    }
    return runs.map { run in
      guard run.subject == nil, let summary = found[run.repository]?[run.head] else { return run }
      var named = run
      named.subject = summary.subject
      named.author = summary.author
      return named
    }
  }

  /// Repository name → its remote's URL (for the forge links the pages build; `ForgeLink`).
  static func remotes(_ api: APIContext) -> [String: String] {
    var remotes: [String: String] = [:]
    for source in api.branchSources {
      if let url = source.remoteURL { remotes[source.settings.name] = url }
    }
    return remotes
  }
}
