import Foundation
import Git
import PackageLoading

/// Builds the loader's view of a revision: from git for a commit, from the disk for the working tree.
public enum Snapshots {
  /// A commit's tree, read through libgit2 without a checkout.
  public static func commit(_ commit: ObjectID, in repository: GitRepository) throws -> TreeSnapshot {
    let files = try repository.files(at: commit)
    return TreeSnapshot(
      label: commit.short, rootName: rootName(of: repository), files: files, workingDirectoryRoot: nil
    ) { path in
      try repository.blob(at: commit, path: path)
    }
  }

  /// The checkout folder's name (SwiftPM's name for the root package when a nested manifest reaches it
  /// by path); for a bare repository, its folder's name without `.git`.
  public static func rootName(of repository: GitRepository) -> String {
    if let workdir = repository.workdir {
      return URL(fileURLWithPath: workdir).standardizedFileURL.lastPathComponent
    }
    let name = URL(fileURLWithPath: repository.gitDirectory).standardizedFileURL.lastPathComponent
    return name.hasSuffix(".git") && name.count > 4 ? String(name.dropLast(4)) : name
  }

  /// The working tree as git sees it: tracked files still on disk plus untracked, non-ignored ones.
  public static func workingTree(of repository: GitRepository) throws -> TreeSnapshot {
    guard let root = repository.workdir else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "read the packages")
    }
    let files = try repository.workingTreeFiles()
    return TreeSnapshot(
      label: "worktree", rootName: rootName(of: repository), files: files, workingDirectoryRoot: root
    ) { path in
      guard let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
      return [UInt8](data)
    }
  }
}
