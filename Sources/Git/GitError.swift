import RippleCore

/// Everything the Git module can fail with. Each description says what failed, where, and what to do.
public enum GitError: RippleError, Equatable {
  /// `path` is not inside a git work tree or repository (or does not exist).
  case notARepository(path: String, detail: String)
  /// libgit2 refused to open a repository owned by another user (git's `safe.directory` protection).
  case notOwnedByCurrentUser(path: String)
  /// A revision the user named does not resolve. `shallow` adds a hint that the history may be cut.
  case unknownRevision(spec: String, detail: String, shallow: Bool)
  /// A revision resolves, but not to something that peels to a commit (e.g. a tree or a blob).
  case notACommit(spec: String)
  /// HEAD points at a branch with no commits yet.
  case emptyRepository(path: String)
  /// A commit is not in the object database (and the clone is not shallow).
  case missingCommit(ObjectID)
  /// The clone is shallow and a commit needed for the operation is not in the local history.
  case shallowMissingCommit(ObjectID)
  /// The clone is shallow and the merge-base of the two commits is not in the local history.
  case shallowMergeBase(ObjectID, ObjectID)
  /// The two commits have no common ancestor (full history).
  case noCommonAncestor(ObjectID, ObjectID)
  /// Neither refs/remotes/origin/HEAD nor main nor master (local or on origin) exists.
  case noDefaultBranch
  /// The operation needs a working tree but the repository is bare.
  case bareRepository(path: String, operation: String)
  /// A fetch did not finish within its deadline.
  case fetchTimedOut(url: String, after: Duration)
  /// A fetch failed; `credentialsRequested` when the remote asked for credentials the daemon does not have.
  case fetchFailed(url: String, detail: String, credentialsRequested: Bool)
  /// Any other libgit2 failure: the operation, libgit2's return code and `git_error_last()`'s message.
  case libgit2(operation: String, code: Int32, message: String)

  public var category: ErrorCategory {
    switch self {
    case .notARepository, .notOwnedByCurrentUser, .shallowMissingCommit, .shallowMergeBase, .libgit2,
      .fetchTimedOut, .fetchFailed:
      .environment
    case .unknownRevision, .notACommit, .emptyRepository, .missingCommit, .noCommonAncestor, .noDefaultBranch,
      .bareRepository:
      .usage
    }
  }

  static let shallowFix =
    "fetch more history with `git fetch --unshallow` (or `git fetch --deepen=N` for N more commits); "
    + "in CI, check out the full history (actions/checkout: `fetch-depth: 0`)"

  public var description: String {
    switch self {
    case .notARepository(let path, let detail):
      "'\(path)' is not inside a git repository (\(detail)); run ripple from a git work tree"
    case .notOwnedByCurrentUser(let path):
      "the git repository at '\(path)' is owned by another user, so git refuses to use it (safe.directory); "
        + "if you trust it, run `git config --global --add safe.directory \(path)`"
    case .unknownRevision(let spec, let detail, let shallow):
      "unknown revision '\(spec)' (\(detail)); check the name, or run `git fetch` if it exists on the remote"
        + (shallow ? "; this clone is shallow, so " + Self.shallowFix : "")
    case .notACommit(let spec):
      "revision '\(spec)' does not name a commit; pass a branch, tag or commit"
    case .emptyRepository(let path):
      "the repository at '\(path)' has no commits yet (HEAD is unborn); commit something first"
    case .missingCommit(let id):
      "commit \(id.short) is not in this repository; run `git fetch` or check the revision"
    case .shallowMissingCommit(let id):
      "this is a shallow clone: commit \(id.short) is not in the local history; " + Self.shallowFix
    case .shallowMergeBase(let a, let b):
      "this is a shallow clone: the merge-base of \(a.short) and \(b.short) is not in the local history; "
        + Self.shallowFix
    case .noCommonAncestor(let a, let b):
      "commits \(a.short) and \(b.short) have no common ancestor; pass a base revision that shares history with HEAD"
    case .noDefaultBranch:
      "no default branch found (checked refs/remotes/origin/HEAD, main, master, origin/main, origin/master); "
        + "run `git remote set-head origin --auto`, or pass the base revision explicitly"
    case .bareRepository(let path, let operation):
      "cannot \(operation): the repository at '\(path)' is bare (it has no working tree); "
        + "compare two revisions instead, or run in a checkout"
    case .fetchTimedOut(let url, let after):
      "fetching '\(url)' took longer than \(after) and was abandoned; check the network or raise fetchTimeout"
    case .fetchFailed(let url, let detail, let credentialsRequested):
      "could not fetch '\(url)': \(detail)"
        + (credentialsRequested
          ? "; the remote asked for credentials, which rippled never prompts for: use an ssh URL with a key "
            + "in the service user's ssh agent, or a URL the service can read without credentials"
          : "")
    case .libgit2(let operation, let code, let message):
      "git failed to \(operation): \(message) (libgit2 error \(code))"
    }
  }
}
