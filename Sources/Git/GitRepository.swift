import Clibgit2
import RippleCore

/// One open repository. Owns its `git_repository*` (freed in `deinit`); every libgit2 call made through it
/// holds an internal lock, so one instance may be shared between tasks.
///
/// Paths in results are repo-relative, `/`-separated and exactly as stored by git (raw UTF-8, never quoted).
public final class GitRepository: @unchecked Sendable {
  private let handle: OpaquePointer
  private let lock = Locked(())

  /// The work tree: absolute, no trailing slash; nil when the repository is bare.
  public let workdir: String?
  /// The `.git` directory (or the bare repository itself): absolute, no trailing slash.
  public let gitDirectory: String
  public let isBare: Bool

  package init(handle: OpaquePointer) {
    self.handle = handle
    self.workdir = git_repository_workdir(handle).map { withoutTrailingSlash(String(cString: $0)) }
    self.gitDirectory = withoutTrailingSlash(String(cString: git_repository_path(handle)))
    self.isBare = git_repository_is_bare(handle) == 1
  }

  deinit {
    git_repository_free(handle)
  }

  /// Whether the clone is shallow (its history is cut). Read on every call: a fetch may deepen it.
  public var isShallow: Bool {
    lock.withLock { _ in git_repository_is_shallow(handle) == 1 }
  }

  /// The work tree, or the git directory of a bare repository, for messages.
  private var displayPath: String { workdir ?? gitDirectory }

  package func withRepository<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
    try lock.withLock { _ in try body(handle) }
  }

  // MARK: Opening

  /// Opens the repository holding `path`, which may be any directory inside a work tree, or a bare repository.
  public static func discover(from path: String) throws -> GitRepository {
    try LibGit2.ensureInitialized()
    var repository: OpaquePointer?
    let code = git_repository_open_ext(&repository, path, 0, nil)
    guard code >= 0, let repository else {
      throw openFailure(path: path, code: code, error: lastError(code, "open the repository at '\(path)'"))
    }
    return GitRepository(handle: repository)
  }

  /// Explains why `git_repository_open_ext` failed: no repository, one owned by another user, or something else.
  private static func openFailure(path: String, code: Int32, error: GitError) -> GitError {
    guard case .libgit2(_, _, let message) = error else { return error }
    // git_repository_discover does not validate ownership: it finds the repository the open refused.
    var found = git_buf()
    defer { git_buf_dispose(&found) }
    guard git_repository_discover(&found, path, 0, nil) >= 0, let gitDir = found.ptr.map({ String(cString: $0) })
    else {
      return .notARepository(path: path, detail: message)
    }
    let gitDirectory = withoutTrailingSlash(gitDir)
    let root = gitDirectory.hasSuffix("/.git") ? String(gitDirectory.dropLast(5)) : gitDirectory
    // libgit2 1.5 reports GIT_EOWNER, or (1.5.0/1.5.1, no safe.directory configured) GIT_ENOTFOUND with the
    // message "config value 'safe.directory' was not found".
    let ownership =
      code == GIT_EOWNER.rawValue || message.contains("safe.directory") || message.contains("not owned")
      || (code == GIT_ENOTFOUND.rawValue && isOwnedByAnotherUser(root))
    return ownership ? .notOwnedByCurrentUser(path: root) : error
  }

  // MARK: Revisions

  public func headCommit() throws -> ObjectID {
    try withRepository { repo in
      var reference: OpaquePointer?
      let code = git_repository_head(&reference, repo)
      if case GIT_EUNBORNBRANCH = code { throw GitError.emptyRepository(path: displayPath) }
      try check(code, "read HEAD in '\(displayPath)'")
      defer { git_reference_free(reference) }
      var commit: OpaquePointer?
      try check(git_reference_peel(&commit, reference, GIT_OBJECT_COMMIT), "peel HEAD to a commit")
      defer { git_object_free(commit) }
      return ObjectID(git_object_id(commit))
    }
  }

  /// Resolves any revision git understands ("origin/main", "HEAD~3", a short sha, a tag, annotated too) to a commit.
  public func resolveCommit(_ spec: String) throws -> ObjectID {
    try withRepository { repo in try resolve(spec, repo) }
  }

  private func resolve(_ spec: String, _ repo: OpaquePointer) throws -> ObjectID {
    var object: OpaquePointer?
    let code = git_revparse_single(&object, repo, spec)
    switch code {
    case GIT_ENOTFOUND, GIT_EAMBIGUOUS, GIT_EINVALIDSPEC:
      throw GitError.unknownRevision(
        spec: spec, detail: lastErrorMessage(), shallow: git_repository_is_shallow(repo) == 1)
    case GIT_EUNBORNBRANCH:
      throw GitError.emptyRepository(path: displayPath)
    default:
      try check(code, "resolve revision '\(spec)'")
    }
    defer { git_object_free(object) }
    var commit: OpaquePointer?
    let peeled = git_object_peel(&commit, object, GIT_OBJECT_COMMIT)
    switch peeled {
    case GIT_ENOTFOUND, GIT_EINVALIDSPEC, GIT_EPEEL: throw GitError.notACommit(spec: spec)
    default: try check(peeled, "peel '\(spec)' to a commit")
    }
    defer { git_object_free(commit) }
    return ObjectID(git_object_id(commit))
  }

  public func mergeBase(_ a: ObjectID, _ b: ObjectID) throws -> ObjectID {
    try withRepository { repo in
      // Both commits must exist: a missing one is its own error (and in a shallow clone, a history error).
      git_commit_free(try lookupCommit(a, repo))
      git_commit_free(try lookupCommit(b, repo))
      var oidA = try oid(a)
      var oidB = try oid(b)
      var base = git_oid()
      let code = git_merge_base(&base, repo, &oidA, &oidB)
      if code < 0 {
        let error = lastError(code, "find the merge-base of \(a.short) and \(b.short)")
        // A cut history either hides the common ancestor (GIT_ENOTFOUND) or breaks the walk at a missing parent.
        if git_repository_is_shallow(repo) == 1 { throw GitError.shallowMergeBase(a, b) }
        if case GIT_ENOTFOUND = code { throw GitError.noCommonAncestor(a, b) }
        throw error
      }
      return ObjectID(&base)
    }
  }

  /// The branch to compare against by default: the target of refs/remotes/origin/HEAD, then the local `main`,
  /// then `master`; as a last resort `origin/main`, then `origin/master` (CI checkouts often have no origin/HEAD).
  public func defaultBranch() throws -> (name: String, commit: ObjectID) {
    try withRepository { repo in
      if let target = try symbolicTarget("refs/remotes/origin/HEAD", repo),
        let commit = try commitOfReference(target, repo)
      {
        return (shortName(target), commit)
      }
      for name in ["refs/heads/main", "refs/heads/master", "refs/remotes/origin/main", "refs/remotes/origin/master"] {
        if let commit = try commitOfReference(name, repo) { return (shortName(name), commit) }
      }
      throw GitError.noDefaultBranch
    }
  }

  /// The target of a symbolic reference; nil when the reference is missing or direct.
  private func symbolicTarget(_ name: String, _ repo: OpaquePointer) throws -> String? {
    var reference: OpaquePointer?
    let code = git_reference_lookup(&reference, repo, name)
    if case GIT_ENOTFOUND = code { return nil }
    try check(code, "read reference \(name)")
    defer { git_reference_free(reference) }
    guard git_reference_type(reference) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(reference)
    else { return nil }
    return String(cString: target)
  }

  /// The commit a reference (followed through symbolic links and annotated tags) points at; nil when missing.
  private func commitOfReference(_ name: String, _ repo: OpaquePointer) throws -> ObjectID? {
    var reference: OpaquePointer?
    let code = git_reference_lookup(&reference, repo, name)
    if case GIT_ENOTFOUND = code { return nil }
    try check(code, "read reference \(name)")
    defer { git_reference_free(reference) }
    var commit: OpaquePointer?
    let peeled = git_reference_peel(&commit, reference, GIT_OBJECT_COMMIT)
    if case GIT_ENOTFOUND = peeled { return nil }  // dangling symbolic reference
    try check(peeled, "peel reference \(name) to a commit")
    defer { git_object_free(commit) }
    return ObjectID(git_object_id(commit))
  }

  /// "refs/remotes/origin/main" → "origin/main", "refs/heads/main" → "main".
  private func shortName(_ reference: String) -> String {
    for prefix in ["refs/heads/", "refs/remotes/"] where reference.hasPrefix(prefix) {
      return String(reference.dropFirst(prefix.count))
    }
    return reference
  }

  // MARK: Diffs

  /// What changed from the tree of `base` to the tree of `head`, renames detected, sorted by path.
  public func changes(from base: ObjectID, to head: ObjectID) throws -> [ChangedFile] {
    try withRepository { repo in
      let baseTree = try tree(of: base, repo)
      defer { git_tree_free(baseTree) }
      let headTree = try tree(of: head, repo)
      defer { git_tree_free(headTree) }
      var options = try diffOptions()
      // libgit2 walks both trees whole; the paths that differ (found by descending only into subtrees
      // whose ids differ, GitTrees.swift) limit its walk, so the cost follows the change.
      let paths = try differingPaths(baseTree, headTree, repo)
      if paths.isEmpty { return [] }
      return try withPathList(paths) { list in
        options.pathspec = list
        options.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH.rawValue
        var diff: OpaquePointer?
        try check(
          git_diff_tree_to_tree(&diff, repo, baseTree, headTree, &options), "diff \(base.short) against \(head.short)")
        defer { git_diff_free(diff) }
        return try changedFiles(diff, findFlags: GIT_DIFF_FIND_RENAMES.rawValue)
      }
    }
  }

  /// What changed from the tree of `base` to the working tree as the user sees it: commits since `base`, staged,
  /// unstaged and untracked (non-ignored) files. Renames detected, unstaged ones (deleted + untracked) too.
  /// A moved submodule HEAD counts; changes inside a submodule's working tree do not.
  public func changesToWorkingTree(from base: ObjectID) throws -> [ChangedFile] {
    try withRepository { repo in
      try requireWorkdir("compare against the working tree")
      let baseTree = try tree(of: base, repo)
      defer { git_tree_free(baseTree) }
      var options = try diffOptions()
      options.flags |= GIT_DIFF_INCLUDE_UNTRACKED.rawValue | GIT_DIFF_RECURSE_UNTRACKED_DIRS.rawValue
      var diff: OpaquePointer?
      try check(
        git_diff_tree_to_workdir_with_index(&diff, repo, baseTree, &options),
        "diff \(base.short) against the working tree")
      defer { git_diff_free(diff) }
      return try changedFiles(diff, findFlags: GIT_DIFF_FIND_RENAMES.rawValue | GIT_DIFF_FIND_FOR_UNTRACKED.rawValue)
    }
  }

  private func diffOptions() throws -> git_diff_options {
    var options = git_diff_options()
    try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "initialise diff options")
    options.flags = GIT_DIFF_INCLUDE_TYPECHANGE.rawValue
    // A submodule whose checked-out commit moved is a change; edits inside its working tree are not.
    options.ignore_submodules = GIT_SUBMODULE_IGNORE_DIRTY
    return options
  }

  /// Runs rename detection on `diff`, then maps its deltas to sorted `ChangedFile`s.
  private func changedFiles(_ diff: OpaquePointer?, findFlags: UInt32) throws -> [ChangedFile] {
    var find = git_diff_find_options()
    try check(git_diff_find_options_init(&find, UInt32(GIT_DIFF_FIND_OPTIONS_VERSION)), "initialise rename options")
    find.flags = findFlags
    try check(git_diff_find_similar(diff, &find), "detect renames")
    var files: [ChangedFile] = []
    for index in 0..<git_diff_num_deltas(diff) {
      guard let delta = git_diff_get_delta(diff, index)?.pointee else { continue }
      let newPath = String(cString: delta.new_file.path)
      let oldPath = String(cString: delta.old_file.path)
      switch delta.status {
      case GIT_DELTA_ADDED, GIT_DELTA_UNTRACKED: files.append(ChangedFile(path: newPath, status: .added))
      case GIT_DELTA_DELETED: files.append(ChangedFile(path: oldPath, status: .deleted))
      case GIT_DELTA_RENAMED: files.append(ChangedFile(path: newPath, status: .renamed, oldPath: oldPath))
      case GIT_DELTA_COPIED: files.append(ChangedFile(path: newPath, status: .copied, oldPath: oldPath))
      case GIT_DELTA_TYPECHANGE: files.append(ChangedFile(path: newPath, status: .typeChanged))
      case GIT_DELTA_UNMODIFIED, GIT_DELTA_IGNORED: continue
      // Modified (content, mode or submodule pointer), conflicted, unreadable: something changed there.
      default: files.append(ChangedFile(path: newPath, status: .modified))
      }
    }
    return files.sorted()
  }

  // MARK: Trees and blobs

  /// Every file path (blobs, symlinks, submodule gitlinks) in the tree of `commit`, sorted.
  public func files(at commit: ObjectID) throws -> [String] {
    try withRepository { repo in
      let tree = try tree(of: commit, repo)
      defer { git_tree_free(tree) }
      return try Self.filePaths(in: tree, listing: "the files of \(commit.short)").sorted()
    }
  }

  /// The files of the working tree: index entries still on disk plus untracked, non-ignored files (untracked
  /// directories listed file by file), sorted.
  public func workingTreeFiles() throws -> [String] {
    try withRepository { repo in
      try requireWorkdir("list the working tree")
      var index: OpaquePointer?
      try check(git_repository_index(&index, repo), "open the index")
      defer { git_index_free(index) }
      try check(git_index_read(index, 0), "read the index")
      var paths = Set<String>()
      for position in 0..<git_index_entrycount(index) {
        guard let entry = git_index_get_byindex(index, position) else { continue }
        paths.insert(String(cString: entry.pointee.path))
      }
      var options = try diffOptions()
      options.flags |= GIT_DIFF_INCLUDE_UNTRACKED.rawValue | GIT_DIFF_RECURSE_UNTRACKED_DIRS.rawValue
      options.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL
      var diff: OpaquePointer?
      try check(git_diff_index_to_workdir(&diff, repo, index, &options), "compare the index with the working tree")
      defer { git_diff_free(diff) }
      for position in 0..<git_diff_num_deltas(diff) {
        guard let delta = git_diff_get_delta(diff, position)?.pointee else { continue }
        switch delta.status {
        case GIT_DELTA_DELETED: paths.remove(String(cString: delta.old_file.path))
        case GIT_DELTA_UNTRACKED: paths.insert(String(cString: delta.new_file.path))
        default: continue
        }
      }
      return paths.sorted()
    }
  }

  /// The content of the file at `path` in the tree of `commit`; nil when there is no file there.
  public func blob(at commit: ObjectID, path: String) throws -> [UInt8]? {
    // A directory or a submodule is not a file: `blobID` answers nil for them.
    guard let id = try blobID(at: commit, path: path) else { return nil }
    return try withRepository { repo in
      var blob: OpaquePointer?
      var oid = try self.oid(id)
      try check(git_blob_lookup(&blob, repo, &oid), "read '\(path)' in \(commit.short)")
      defer { git_blob_free(blob) }
      let size = Int(git_blob_rawsize(blob))
      guard size > 0, let content = git_blob_rawcontent(blob) else { return [] }
      return Array(UnsafeRawBufferPointer(start: content, count: size))
    }
  }

  // MARK: Helpers (called with the lock held)

  private func requireWorkdir(_ operation: String) throws {
    if workdir == nil { throw GitError.bareRepository(path: gitDirectory, operation: operation) }
  }

  package func oid(_ id: ObjectID) throws -> git_oid {
    var oid = git_oid()
    try check(git_oid_fromstr(&oid, id.hex), "parse object id '\(id.hex)'")
    return oid
  }

  /// The commit `id`; throws `missingCommit`, or `shallowMissingCommit` in a shallow clone. Caller frees it.
  package func lookupCommit(_ id: ObjectID, _ repo: OpaquePointer) throws -> OpaquePointer? {
    var oid = try oid(id)
    var commit: OpaquePointer?
    let code = git_commit_lookup(&commit, repo, &oid)
    if case GIT_ENOTFOUND = code {
      throw git_repository_is_shallow(repo) == 1 ? GitError.shallowMissingCommit(id) : GitError.missingCommit(id)
    }
    try check(code, "read commit \(id.short)")
    return commit
  }

  /// The root tree of commit `id`. Caller frees it.
  func tree(of id: ObjectID, _ repo: OpaquePointer) throws -> OpaquePointer? {
    let commit = try lookupCommit(id, repo)
    defer { git_commit_free(commit) }
    var tree: OpaquePointer?
    try check(git_commit_tree(&tree, commit), "read the tree of \(id.short)")
    return tree
  }
}
