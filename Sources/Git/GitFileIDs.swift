import Clibgit2
import Foundation

/// The content of a whole state, file by file, as pass-record keys need it (docs/DESIGN.md, "Pass records").
extension GitRepository {
  /// Every file of the working tree as git sees it (path → blob id): the files of HEAD, then, for the paths
  /// that differ from HEAD (staged, unstaged, untracked and not ignored), what is on disk now. Only the
  /// changed files are read; the rest are HEAD's blob ids. Directories named in `skipping` are not entered.
  public func workingTreeFileIDs(skipping: Set<String> = [".build"]) throws -> [String: String] {
    let head = try headCommit()
    var ids: [String: String] = [:]
    for file in try blobs(at: head, named: { _ in true }, prefix: "", skipping: skipping) {
      ids[file.path] = file.id.hex
    }
    for change in try changesToWorkingTree(from: head) {
      if let old = change.oldPath { ids[old] = nil }
      ids[change.path] = try workingTreeBlobID(change.path)?.hex
    }
    return ids
  }

  /// The short name of the branch HEAD is on; nil when HEAD is detached (CI checkouts often are).
  public func currentBranch() throws -> String? {
    try withRepository { repo in
      var reference: OpaquePointer?
      guard git_repository_head(&reference, repo) == 0 else { return nil }
      defer { git_reference_free(reference) }
      guard git_reference_is_branch(reference) == 1, let name = git_reference_shorthand(reference) else { return nil }
      return String(cString: name)
    }
  }
}

extension GitRepository {
  /// The URL of remote `name` as configured; nil when there is no such remote.
  public func remoteURL(_ name: String = "origin") throws -> String? {
    try withRepository { repo in
      var remote: OpaquePointer?
      guard git_remote_lookup(&remote, repo, name) == 0 else { return nil }
      defer { git_remote_free(remote) }
      return git_remote_url(remote).map { String(cString: $0) }
    }
  }

  /// Whether `ancestor` is `commit` or one of its ancestors (rippled's bases, `--base auto`).
  public func isAncestor(_ ancestor: ObjectID, of commit: ObjectID) throws -> Bool {
    if ancestor == commit { return true }
    return try withRepository { repo in
      var a = try oid(commit)
      var b = try oid(ancestor)
      let code = git_graph_descendant_of(repo, &a, &b)
      try check(code, "compare \(ancestor.short) with \(commit.short)")
      return code == 1
    }
  }
}

extension GitRepository {
  /// `commit` and its first-parent ancestors, newest first, at most `limit` of them; fewer where history ends (a
  /// root commit, a shallow clone's boundary).
  public func firstParentLine(from commit: ObjectID, limit: Int) throws -> [ObjectID] {
    try withRepository { repo in
      var line: [ObjectID] = []
      var current: ObjectID? = commit
      while let id = current, line.count < limit {
        let object: OpaquePointer?
        do { object = try lookupCommit(id, repo) } catch GitError.shallowMissingCommit { break }
        defer { git_commit_free(object) }
        line.append(id)
        current = git_commit_parentcount(object) > 0 ? git_commit_parent_id(object, 0).map { ObjectID($0) } : nil
      }
      return line
    }
  }
}
