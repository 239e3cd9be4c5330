import Assets
import Git
import RippleCore

/// Which two states of the repository to compare (docs/DESIGN.md, rule 1).
public struct ChangeRequest: Sendable, Hashable {
  /// A revision spec; nil means the default branch (origin/HEAD, then main, then master).
  public var base: String?
  /// A revision spec; nil means the working tree (commits since the base, staged, unstaged, untracked).
  public var head: String?
  /// Compare `base` itself instead of the merge-base of base and head.
  public var noMergeBase: Bool
  /// The changes from `base` to the working tree when the caller already knows them (rippled keeps them
  /// current from its file watcher): used instead of git's status scan. Only with `head` nil and
  /// `noMergeBase`.
  public var knownChanges: [ChangedFile]?

  public init(
    base: String? = nil, head: String? = nil, noMergeBase: Bool = false, knownChanges: [ChangedFile]? = nil
  ) {
    self.base = base
    self.head = head
    self.noMergeBase = noMergeBase
    self.knownChanges = knownChanges
  }
}

/// The answer to a `ChangeRequest`: the two sides and every changed path between them.
public struct ChangeSet: Sendable, Hashable {
  /// The commit the base spec resolved to.
  public var base: ObjectID
  /// The commit changes are measured from: the merge-base unless `noMergeBase`.
  public var from: ObjectID
  /// The merge-base, when one was computed.
  public var mergeBase: ObjectID?
  /// The head commit, or nil for the working tree.
  public var head: ObjectID?
  public var changes: [ChangedFile]
  /// Untracked files `ripple bootstrap` installed that still hold the bytes its receipts record: left out of
  /// `changes` (working tree only), listed apart by `ripple changes`. Sorted.
  public var installedByBootstrap: [String] = []

  public var headLabel: String { head?.hex ?? "worktree" }
}

public enum ChangeDetection {
  /// Resolves the request against `repository` and lists the changed paths, sorted.
  ///
  /// A shallow clone whose merge-base is missing throws (from `GitRepository.mergeBase`): never an
  /// empty answer because history is missing.
  /// `ripple changes`: the request answered in the repository holding `directory`, without reading its config.
  public static func detect(_ request: ChangeRequest, directory: String) throws -> ChangeSet {
    try detect(request, in: GitRepository.discover(from: directory))
  }

  public static func detect(_ request: ChangeRequest, in repository: GitRepository) throws -> ChangeSet {
    let head = try request.head.map { try repository.resolveCommit($0) }
    let base: ObjectID
    if let spec = request.base {
      base = try repository.resolveCommit(spec)
    } else {
      base = try repository.defaultBranch().commit
    }
    var mergeBase: ObjectID?
    if !request.noMergeBase {
      mergeBase = try repository.mergeBase(base, head ?? repository.headCommit())
    }
    let from = mergeBase ?? base
    var changes: [ChangedFile]
    var installed: [String] = []
    if let head {
      changes = try repository.changes(from: from, to: head)
    } else {
      if let known = request.knownChanges, request.noMergeBase {
        changes = known
      } else {
        changes = try repository.changesToWorkingTree(from: from)
      }
      if let root = repository.workdir {
        (changes, installed) = setApartInstalled(changes, repositoryRoot: root)
      }
    }
    var changeSet = ChangeSet(base: base, from: from, mergeBase: mergeBase, head: head, changes: changes.sorted())
    changeSet.installedByBootstrap = installed.sorted()
    return changeSet
  }

  /// Files bootstrap installed into a folder git does not ignore are untracked, but no one's change: with the
  /// bytes its receipts record they are set apart; edited, they stay changes.
  static func setApartInstalled(_ changes: [ChangedFile], repositoryRoot root: String) -> (
    changes: [ChangedFile], installed: [String]
  ) {
    guard changes.contains(where: { $0.status == .added }) else { return (changes, []) }
    let installedFiles = InstalledFiles.load(repositoryRoot: root)
    guard !installedFiles.recorded.isEmpty else { return (changes, []) }
    return installedFiles.split(changes) { InstalledFiles.measure($0, repositoryRoot: root) }
  }
}
