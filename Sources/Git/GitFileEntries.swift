import Clibgit2
import Foundation

/// A submodule of the working tree as a key needs it: the commit it has checked out, or that it has none.
public struct SubmoduleState: Sendable, Hashable {
  public var path: String
  /// The commit checked out in its working tree; nil when it is not checked out (not initialised).
  public var checkedOut: String?
  /// Edited, staged or untracked files inside it: its content is not any commit's.
  public var dirty: Bool

  public init(path: String, checkedOut: String?, dirty: Bool) {
    self.path = path
    self.checkedOut = checkedOut
    self.dirty = dirty
  }
}

/// Submodules as keys need them (docs/DESIGN.md, "Pass records").
extension GitRepository {
  /// The state of the submodule at `path` (repo-relative); nil when there is none.
  public func submoduleState(_ path: String) throws -> SubmoduleState? {
    try withRepository { repo in
      var submodule: OpaquePointer?
      guard git_submodule_lookup(&submodule, repo, path) == 0 else { return nil }
      defer { git_submodule_free(submodule) }
      var flags: UInt32 = 0
      let name = git_submodule_name(submodule)
      try check(git_submodule_status(&flags, repo, name, GIT_SUBMODULE_IGNORE_NONE), "read submodule '\(path)'")
      let inWorkdir = flags & GIT_SUBMODULE_STATUS_IN_WD.rawValue != 0
      let uninitialised = flags & GIT_SUBMODULE_STATUS_WD_UNINITIALIZED.rawValue != 0
      let dirtyFlags =
        GIT_SUBMODULE_STATUS_WD_INDEX_MODIFIED.rawValue | GIT_SUBMODULE_STATUS_WD_WD_MODIFIED.rawValue
        | GIT_SUBMODULE_STATUS_WD_UNTRACKED.rawValue
      var checkedOut: String?
      if inWorkdir, !uninitialised, let id = git_submodule_wd_id(submodule) { checkedOut = ObjectID(id).hex }
      return SubmoduleState(path: path, checkedOut: checkedOut, dirty: flags & dirtyFlags != 0)
    }
  }
}

/// One entry of a tree object: a file, link, gitlink or folder.
public struct GitTreeChild: Sendable, Hashable {
  public var name: String
  public var mode: UInt32
  public var id: ObjectID

  public var isTree: Bool { mode == 0o040000 }
}

/// Trees by id, for digests cached by tree id (docs/DESIGN.md, "Pass records": a folder whose tree id is
/// unchanged is not read again).
extension GitRepository {
  /// The entries of the tree `id`, in git's order. Throws when the tree is not in the repository (a partial
  /// clone without it).
  public func treeChildren(_ id: ObjectID) throws -> [GitTreeChild] {
    try withRepository { repo in
      var oid = git_oid()
      try check(git_oid_fromstr(&oid, id.hex), "parse object id '\(id.hex)'")
      var tree: OpaquePointer?
      try check(git_tree_lookup(&tree, repo, &oid), "read the tree \(id.short)")
      defer { git_tree_free(tree) }
      var children: [GitTreeChild] = []
      for index in 0..<git_tree_entrycount(tree) {
        guard let entry = git_tree_entry_byindex(tree, index) else { continue }
        children.append(
          GitTreeChild(
            name: String(cString: git_tree_entry_name(entry)), mode: git_tree_entry_filemode(entry).rawValue,
            id: ObjectID(git_tree_entry_id(entry))))
      }
      return children
    }
  }
}

extension GitRepository {
  /// `mode:id` of the file, link or gitlink at `path` in the tree of `commit`; nil when there is none (or a
  /// folder).
  public func blobEntry(at commit: ObjectID, path: String) throws -> String? {
    try withRepository { repo in
      let root = try tree(of: commit, repo)
      defer { git_tree_free(root) }
      var entry: OpaquePointer?
      let code = git_tree_entry_bypath(&entry, root, path)
      if case GIT_ENOTFOUND = code { return nil }
      try check(code, "find '\(path)' in \(commit.short)")
      defer { git_tree_entry_free(entry) }
      guard git_tree_entry_type(entry) != GIT_OBJECT_TREE else { return nil }
      return String(git_tree_entry_filemode(entry).rawValue, radix: 8) + ":" + ObjectID(git_tree_entry_id(entry)).hex
    }
  }
}
