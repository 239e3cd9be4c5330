import Clibgit2
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Single files of the working tree, as git would see them: for callers that already know which paths
/// changed (rippled's watcher) and must not scan the tree to learn it (docs/ARCHITECTURE.md, section 2).
extension GitRepository {
  /// The blob id git would give the file at `path` (relative to the work tree) if it were added now: the
  /// content after the repository's filters (line endings), or the link text of a symbolic link. Nil when
  /// nothing is there, or a directory is.
  public func workingTreeBlobID(_ path: String) throws -> ObjectID? {
    guard let workdir else {
      throw GitError.bareRepository(path: gitDirectory, operation: "hash a file of the working tree")
    }
    let absolute = workdir + "/" + path
    var status = stat()
    guard lstat(absolute, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFLNK:
      let target = try FileManager.default.destinationOfSymbolicLink(atPath: absolute)
      var id = git_oid()
      let bytes = Array(target.utf8)
      try check(git_odb_hash(&id, bytes, bytes.count, GIT_OBJECT_BLOB), "hash the link '\(path)'")
      return withUnsafePointer(to: &id) { ObjectID($0) }
    case S_IFREG:
      return try withRepository { repo in
        var id = git_oid()
        let code = git_repository_hashfile(&id, repo, absolute, GIT_OBJECT_BLOB, path)
        // Deleted between the lstat and the read: nothing there.
        if code < 0, lstat(absolute, &status) != 0 { return nil }
        try check(code, "hash '\(path)'")
        return withUnsafePointer(to: &id) { ObjectID($0) }
      }
    default:
      return nil
    }
  }

  /// Every file under `directory` (a path relative to the work tree) that is not ignored, relative paths;
  /// empty when `directory` is not a directory. For a directory that appeared as a whole.
  public func workingTreeFiles(under directory: String) -> [String] {
    guard let workdir else { return [] }
    var found: [String] = []
    var pending = [directory]
    while let current = pending.popLast() {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: workdir + "/" + current) else { continue }
      for name in names where name != ".git" {
        let path = current + "/" + name
        var status = stat()
        guard lstat(workdir + "/" + path, &status) == 0 else { continue }
        let isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
        if isIgnored(isDirectory ? path + "/" : path) { continue }
        if isDirectory { pending.append(path) } else { found.append(path) }
      }
    }
    return found.sorted()
  }

  /// Whether `path` (relative to the work tree) is ignored by the repository's ignore rules.
  public func isIgnored(_ path: String) -> Bool {
    withRepository { repo in
      var ignored: Int32 = 0
      return git_ignore_path_is_ignored(&ignored, repo, path) >= 0 && ignored == 1
    }
  }
}
