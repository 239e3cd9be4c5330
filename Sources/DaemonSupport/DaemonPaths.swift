import Foundation
import RippleConfig
import RippleCore

/// Where the daemon keeps things. State (the runs database) must survive; the cache (mirrors, work trees,
/// build folders, manifest cache) can be deleted at any time; logs are capped and pruned.
public struct DaemonPaths: Sendable {
  public var state: String
  public var cache: String
  public var logs: String

  /// The one lane of a watched working tree (its runs' branch name; beside the branches' lanes on disk).
  package static let workingTreeLane = "worktree"

  /// Config first, then systemd's `$STATE_DIRECTORY`/`$CACHE_DIRECTORY`/`$LOGS_DIRECTORY` (set by the unit's
  /// StateDirectory= etc.), then the XDG locations of the user.
  public static func resolve(_ config: DaemonConfiguration, environment: [String: String]) -> DaemonPaths {
    func first(_ values: String?...) -> String? { values.compactMap { $0 }.first { !$0.isEmpty } }
    let home = environment["HOME"] ?? NSHomeDirectory()
    // systemd may pass several colon-separated directories; the first is ours.
    func systemd(_ key: String) -> String? { environment[key]?.split(separator: ":").first.map(String.init) }
    let state =
      first(
        config.stateDirectory, systemd("STATE_DIRECTORY"), environment["XDG_STATE_HOME"].map { $0 + "/rippled" })
      ?? home + "/.local/state/rippled"
    let cache =
      first(
        config.cacheDirectory, systemd("CACHE_DIRECTORY"), environment["XDG_CACHE_HOME"].map { $0 + "/rippled" })
      ?? home + "/.cache/rippled"
    let logs = first(config.logsDirectory, systemd("LOGS_DIRECTORY")) ?? state + "/logs"
    return DaemonPaths(state: state, cache: cache, logs: logs)
  }

  package var database: String { state + "/rippled.sqlite" }
  package var lockFile: String { state + "/rippled.lock" }
  /// The port the HTTP server listens on, written once it does (tests and scripts read it with port 0).
  package var portFile: String { state + "/http-port" }
  /// `swift package dump-package` results (RIPPLE_CACHE_DIR for the RippleKit jobs).
  package var rippleCache: String { cache + "/ripple" }

  /// Each run's private TMPDIR lives under here (what SwiftPM and the tests leave there goes with the run).
  package var runTemporaryRoot: String { cache + "/tmp" }
  /// The TMPDIR of a lane's runs. A lane is `SchedulerCore`'s (repository and branch; a watched working tree's
  /// runs have the branch `workingTreeLane`) and runs one run at a time. The folder is created empty when a run
  /// starts and removed when it ends (`RunTemporaryDirectory`), and is the same path in every run of the lane:
  /// SwiftPM's manifest cache key holds the environment, TMPDIR included, so with a new path per run every
  /// `swift build` compiled each manifest again. Both names are escaped, and `__` never occurs in an escaped name,
  /// so no two lanes meet.
  package func temporaryDirectory(_ repository: String, lane: String) -> String {
    runTemporaryRoot + "/run-\(PathComponent.escaped(repository))__\(PathComponent.escaped(lane))"
  }

  package func mirror(_ repository: String) -> String { cache + "/mirrors/\(repository).git" }
  /// One branch's folder: its work tree (named like a clone of the repository, see `checkoutName`) and
  /// what the daemon keeps beside it.
  package func lane(_ repository: String, lane: String) -> String {
    cache + "/work/\(repository)/\(PathComponent.escaped(lane))"
  }
  package func worktree(_ repository: String, lane: String, checkoutName: String) -> String {
    self.lane(repository, lane: lane) + "/" + checkoutName
  }
  package func scratch(_ repository: String, lane: String) -> String {
    cache + "/scratch/\(repository)/\(PathComponent.escaped(lane))"
  }
  package func timings(_ repository: String) -> String { cache + "/timings/\(repository).json" }
  package func log(run id: Int64) -> String { logs + "/run-\(id).log" }

  /// The folder name a clone of `source` gets (`git clone URL` names it after the URL's last component):
  /// SwiftPM names a `.package(path: "../")` dependency after its folder, so a nested package that
  /// reaches the root by path only evaluates in a folder with the repository's own name. Falls back to
  /// `repository` (the configured name) when the source has no usable name.
  package static func checkoutName(of source: RepositorySettings.Source, repository: String) -> String {
    let location: String
    switch source {
    case .remote(let url): location = url
    case .workingTree(let path): location = path
    }
    // The remote's path without `.git` and trailing slashes, as webhooks match it; its last component.
    let name = RemoteURL.normalized(location).split(separator: "/").last.map(String.init) ?? ""
    let usable = !name.isEmpty && !name.hasPrefix(".") && !name.contains("%") && !name.contains(":")
    return usable ? name : repository
  }
}
