import RippleConfig
import RunModel

/// A followed remote as the routes see it (rippled's `BranchSource`, conformed where the daemon is wired):
/// a webhook or `POST /api/runs` asks it to fetch, or whether its mirror holds a commit.
package protocol RemoteSource: Sendable {
  var settings: RepositorySettings { get }
  /// Wakes the fetch loop (returns at once).
  func requestFetch()
  /// Fetches now and queues what moved.
  func poll() async
  func hasCommit(_ commit: String) -> Bool
  /// Whether one of a webhook's repository URLs names this remote.
  func matchesRemote(_ candidates: [String]) -> Bool
  /// The subjects and authors of `commits` as the mirror holds them (`CommitSummary.unknown` for one it does not
  /// hold; nothing for one it could not read): the pages name commits (CommitNames.swift).
  func commitSummaries(_ commits: [String]) -> [String: CommitSummary]
}

extension RemoteSource {
  /// The remote's URL as configured (credentials included: never shown as is), nil for a local path.
  package var remoteURL: String? {
    guard case .remote(let url) = settings.source else { return nil }
    return url
  }
}

/// A watched working tree as the routes see it (rippled's `WorktreeSource`).
package protocol WorkingTreeSource: Sendable {
  var settings: RepositorySettings { get }
}
