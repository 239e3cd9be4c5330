import Clibgit2
import Foundation

/// One file of a state as a build sees it: git's mode (`100644`, `100755`, `120000`, `160000`) and its
/// id (a blob's, or a submodule's commit).
public struct GitFileEntry: Sendable, Hashable {
  public var mode: UInt32
  public var id: String

  public init(mode: UInt32, id: String) {
    self.mode = mode
    self.id = id
  }

  public static let regular: UInt32 = 0o100644
  public static let executable: UInt32 = 0o100755
  public static let link: UInt32 = 0o120000
  public static let gitlink: UInt32 = 0o160000

  public var isGitlink: Bool { mode == Self.gitlink }

  /// `100755:<id>`: what a key holds for it.
  public var keyValue: String { String(mode, radix: 8) + ":" + id }
}

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

/// The content of a whole state with modes and gitlinks, as pass-record keys need it (docs/DESIGN.md,
/// "Pass records").
extension GitRepository {
  /// Every file of the working tree as git sees it (path → mode and id): the files and gitlinks of HEAD,
  /// then, for the paths that differ from HEAD (staged, unstaged, untracked and not ignored), what is on
  /// disk now (a moved submodule: the commit it has checked out). Only changed files are read.
  /// Directories named in `skipping` are not entered.
  public func workingTreeEntries(skipping: Set<String> = [".build"]) throws -> [String: GitFileEntry] {
    let head = try headCommit()
    var entries = try withRepository { repo in
      let tree = try tree(of: head, repo)
      defer { git_tree_free(tree) }
      let walk = EntryWalk(skipping: skipping.map { Array($0.utf8) })
      let code = Self.walk(tree, walk)
      try check(code, "list the files of \(head.short)")
      return walk.found
    }
    for change in try changesToWorkingTree(from: head) {
      if let old = change.oldPath { entries[old] = nil }
      entries[change.path] = try workingTreeEntry(change.path, recorded: entries[change.path])
    }
    return entries
  }

  /// What is at `path` on disk now, as git would record it; nil when nothing is there.
  func workingTreeEntry(_ path: String, recorded: GitFileEntry?) throws -> GitFileEntry? {
    guard let workdir else { return nil }
    var status = stat()
    guard lstat(workdir + "/" + path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      // A submodule whose checked-out commit moved (the diff names a directory only then).
      guard let state = try submoduleState(path) else { return nil }
      return GitFileEntry(mode: GitFileEntry.gitlink, id: state.checkedOut ?? "not-checked-out")
    case S_IFLNK:
      return try workingTreeBlobID(path).map { GitFileEntry(mode: GitFileEntry.link, id: $0.hex) }
    default:
      let executable = status.st_mode & 0o111 != 0
      return try workingTreeBlobID(path).map {
        GitFileEntry(mode: executable ? GitFileEntry.executable : GitFileEntry.regular, id: $0.hex)
      }
    }
  }

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

/// Collects every blob (with its mode) and gitlink of a tree walk.
private final class EntryWalk: TreeVisitor {
  let skipping: [[UInt8]]
  var found: [String: GitFileEntry] = [:]

  init(skipping: [[UInt8]]) { self.skipping = skipping }

  /// 0 to go on, 1 to skip a directory (pre-order walk).
  func visit(root: UnsafePointer<CChar>, entry: OpaquePointer) -> Int32 {
    let name = git_tree_entry_name(entry)!
    let type = git_tree_entry_type(entry)
    if type == GIT_OBJECT_TREE { return GitRepository.isSkipped(name, skipping) ? 1 : 0 }
    guard type == GIT_OBJECT_BLOB || type == GIT_OBJECT_COMMIT else { return 0 }
    let path = String(cString: root) + String(cString: name)
    found[path] = GitFileEntry(
      mode: git_tree_entry_filemode(entry).rawValue, id: ObjectID(git_tree_entry_id(entry)).hex)
    return 0
  }
}
