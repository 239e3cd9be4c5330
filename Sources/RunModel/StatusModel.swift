import Foundation

/// `GET /api/status`, and the header of the dashboard.
public struct DaemonStatus: Codable, Sendable, Hashable {
  public var version: String
  public var startedAt: Date
  /// The store is open and the first scan of every source is done.
  public var ready: Bool
  /// False while something needs an operator (log directory unwritable, disk full, store failing).
  public var healthy: Bool
  /// What is wrong, one sentence each (empty when healthy).
  public var problems: [String]
  /// What the daemon is doing right now, as sent in systemd's `STATUS=`.
  public var activity: String
  public var queueLength: Int
  public var running: [Int64]
  public var repositories: [RepositoryStatus]

  public init(
    version: String, startedAt: Date, ready: Bool, healthy: Bool, problems: [String], activity: String,
    queueLength: Int, running: [Int64], repositories: [RepositoryStatus]
  ) {
    self.version = version
    self.startedAt = startedAt
    self.ready = ready
    self.healthy = healthy
    self.problems = problems
    self.activity = activity
    self.queueLength = queueLength
    self.running = running
    self.repositories = repositories
  }
}

public struct RepositoryStatus: Codable, Sendable, Hashable {
  public var name: String
  /// `remote <url>` or `worktree <path>`.
  public var source: String
  public var lastCheck: Date?
  public var lastError: String?
  /// Branch → last seen head.
  public var heads: [String: String]
  /// Working-tree sources: looks finished since the daemon started (a run queued or not), and whether a look waits
  /// for git's `index.lock` now; the signals a test waits on to know a save was looked at. nil elsewhere.
  public var looks: Int?
  public var waitingForIndexLock: Bool?

  public init(name: String, source: String, lastCheck: Date?, lastError: String?, heads: [String: String]) {
    self.name = name
    self.source = source
    self.lastCheck = lastCheck
    self.lastError = lastError
    self.heads = heads
  }
}
