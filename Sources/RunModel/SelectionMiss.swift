import Foundation

/// A test target that a selective run left out although it was broken: found by a canary (a full run) that saw
/// it fail (docs/DESIGN.md, "Canary runs and selection misses").
public struct SelectionMiss: Codable, Sendable, Hashable {
  /// The canary run that saw the target fail.
  public var canaryID: Int64
  /// The test target, `package:name` (`RunTarget.key`).
  public var target: String
  /// The selective run that left the target out and passed.
  public var runID: Int64
  /// That run's head: the change that was under-selected.
  public var commit: String
  /// When the canary ended.
  public var foundAt: Date

  public init(canaryID: Int64, target: String, runID: Int64, commit: String, foundAt: Date) {
    self.canaryID = canaryID
    self.target = target
    self.runID = runID
    self.commit = commit
    self.foundAt = foundAt
  }
}

/// The miss rule, pure: which selective runs since the previous canary under-selected a target the canary saw fail.
public enum MissRule {
  /// A run of the window with the test targets it ran (selected), by key.
  public struct WindowRun: Sendable, Hashable {
    public var run: RunRecord
    public var ranTestTargets: Set<String>

    public init(run: RunRecord, ranTestTargets: Set<String>) {
      self.run = run
      self.ranTestTargets = ranTestTargets
    }
  }

  /// - Parameters:
  ///   - canary: the finished canary run.
  ///   - failing: the test targets that failed in it (keys).
  ///   - window: the runs of the canary's repository and branch after the previous canary and before this one,
  ///     any order; runs still live or not passed or failed are ignored.
  ///   - isAncestorOrEqual: whether a commit is the canary's head or one of its ancestors.
  /// - Returns: for each failing target, the passed runs that left it out, each at a commit the canary contains,
  ///   after the last run of the window that ran the target. If that last run saw the target fail, the break was
  ///   caught: no miss for it. Oldest run first, then target.
  public static func misses(
    canary: RunRecord, failing: Set<String>, window: [WindowRun], isAncestorOrEqual: (String) -> Bool
  ) -> [SelectionMiss] {
    let considered =
      window
      .filter { ($0.run.state == .passed || $0.run.state == .failed) && $0.run.id < canary.id }
      .filter { isAncestorOrEqual($0.run.head) }
      .sorted { $0.run.id < $1.run.id }
    let foundAt = canary.finishedAt ?? canary.queuedAt
    var misses: [SelectionMiss] = []
    for target in failing.sorted() {
      var candidates = considered
      if let last = considered.lastIndex(where: { $0.ranTestTargets.contains(target) }) {
        // The last run that ran it: if it failed there, the selection did its job.
        if considered[last].run.state == .failed { continue }
        candidates = Array(considered[(last + 1)...])
      }
      for entry in candidates where entry.run.state == .passed && !entry.ranTestTargets.contains(target) {
        misses.append(
          SelectionMiss(
            canaryID: canary.id, target: target, runID: entry.run.id, commit: entry.run.head, foundAt: foundAt))
      }
    }
    return misses.sorted { ($0.runID, $0.target) < ($1.runID, $1.target) }
  }
}
