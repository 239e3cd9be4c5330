import RippleCore

/// One revision's files, as seen by the loader.
///
/// For a git revision the caller builds it from the commit's tree (file list and blob reader); for the
/// working tree from the index, the untracked files and the disk.
public struct TreeSnapshot: Sendable {
  /// "worktree" or a short sha: used in error messages.
  public var label: String
  /// The name of the checkout's folder. SwiftPM names a `.package(path:)` dependency after its folder, so
  /// a nested manifest with `.package(path: "../")` names the root package by this: a revision's
  /// manifests are evaluated under a scratch folder of the same name, and it is part of the cache key.
  public var rootName: String
  /// Every file in the tree, repo-relative, `/`-separated, sorted.
  public var files: [String]
  /// The contents of a file of this tree (nil if absent).
  public var read: @Sendable (String) throws -> [UInt8]?
  /// The absolute repository root when this snapshot is the on-disk working tree: manifests are then
  /// evaluated in place. Nil for a git revision: manifests are written to a scratch directory.
  public var workingDirectoryRoot: String?

  public init(
    label: String, rootName: String, files: [String], workingDirectoryRoot: String?,
    read: @escaping @Sendable (String) throws -> [UInt8]?
  ) {
    self.label = label
    self.rootName = rootName
    self.files = files
    self.workingDirectoryRoot = workingDirectoryRoot
    self.read = read
  }

  /// Every directory that holds a file of the tree, "." included.
  func directories() -> Set<String> {
    var result: Set<String> = ["."]
    for file in files {
      var directory = RepoPath.parent(file)
      while directory != ".", result.insert(directory).inserted {
        directory = RepoPath.parent(directory)
      }
    }
    return result
  }
}

extension TreeSnapshot {
  /// The contents of `path`, which must exist: a missing or unreadable file is a `PackageGraphError`
  /// naming the path and this revision.
  func readRequired(_ path: String) throws(PackageGraphError) -> [UInt8] {
    let contents: [UInt8]?
    do {
      contents = try read(path)
    } catch {
      throw .unreadableFile(path: path, revision: label, reason: "\(error)")
    }
    guard let contents else { throw .unreadableFile(path: path, revision: label, reason: "the file is missing") }
    return contents
  }
}
