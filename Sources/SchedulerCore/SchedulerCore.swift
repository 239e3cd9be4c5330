/// The scheduling rules, as a pure state machine (no clocks, no I/O): per branch at most one running and
/// one pending run; a newer run supersedes the pending one and, when the branch's policy says so, cancels the
/// running one; at most `limit` runs at once across all branches, started oldest first.
package struct SchedulerCore: Sendable, Equatable {
  /// A branch of a repository (or a watched working tree): the unit of "one running, one pending".
  package struct Lane: Hashable, Sendable, Comparable {
    var repository: String
    var branch: String

    package init(repository: String, branch: String) {
      self.repository = repository
      self.branch = branch
    }

    package static func < (a: Lane, b: Lane) -> Bool { (a.repository, a.branch) < (b.repository, b.branch) }
  }

  package enum Action: Equatable, Sendable {
    /// Start this queued run now.
    case start(Int64)
    /// This queued run will never start: `by` replaces it.
    case supersedePending(Int64, by: Int64)
    /// Stop this running run (record it superseded by `by`).
    case cancelRunning(Int64, by: Int64)
  }

  private(set) var limit: Int
  private(set) var running: [Lane: Int64] = [:]
  private(set) var pending: [Lane: Int64] = [:]
  /// Set once shutdown begins: nothing new starts.
  private(set) var draining = false
  /// Runs being cancelled: they still hold their lane until `finished` is called.
  private(set) var cancelling: Set<Int64> = []

  package init(limit: Int) {
    precondition(limit >= 1, "the concurrency limit is at least 1")
    self.limit = limit
  }

  package var queueLength: Int { pending.count }
  package var runningIDs: [Int64] { running.values.sorted() }
  package var pendingIDs: [Int64] { pending.values.sorted() }

  /// A new run for `lane`. Run ids grow with time, so a smaller id is older.
  package mutating func submit(_ id: Int64, lane: Lane, cancelRunning: Bool) -> [Action] {
    var actions: [Action] = []
    if let older = pending[lane] {
      if older > id {
        // A late arrival (e.g. re-queued after restart) older than what is pending: it loses.
        return [.supersedePending(id, by: older)]
      }
      actions.append(.supersedePending(older, by: id))
    }
    pending[lane] = id
    if cancelRunning, let current = running[lane], current < id, !cancelling.contains(current) {
      cancelling.insert(current)
      actions.append(.cancelRunning(current, by: id))
    }
    return actions + dispatch()
  }

  /// A run ended (any way): its lane frees up and the next runs may start.
  package mutating func finished(_ id: Int64) -> [Action] {
    cancelling.remove(id)
    if let lane = running.first(where: { $0.value == id })?.key { running[lane] = nil }
    return dispatch()
  }

  /// A pending run was cancelled before it started.
  package mutating func withdraw(_ id: Int64) -> [Action] {
    if let lane = pending.first(where: { $0.value == id })?.key { pending[lane] = nil }
    return dispatch()
  }

  /// Shutdown: nothing new starts; pending runs stay queued (in the store) for the next start.
  package mutating func drain() { draining = true }

  /// Starts the oldest pending runs whose lane is free, up to the limit.
  private mutating func dispatch() -> [Action] {
    guard !draining else { return [] }
    var actions: [Action] = []
    while running.count < limit {
      guard let (lane, id) = pending.filter({ running[$0.key] == nil }).min(by: { $0.value < $1.value }) else { break }
      pending[lane] = nil
      running[lane] = id
      actions.append(.start(id))
    }
    return actions
  }
}
