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
