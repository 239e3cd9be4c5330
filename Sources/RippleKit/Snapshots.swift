import Foundation
import Git
import PackageLoading
import RippleCore

/// Builds the loader's view of a revision: from git for a commit, from the disk for the working tree.
///
/// Every view answers from what changed and what is cached (docs/ARCHITECTURE.md, section 2): a commit's
/// manifests are cached by its tree id, and a tree not seen yet is described as the other side plus the
/// changes between them, like the working tree. Only a commit without such a reference (the first run
/// on a new base) walks its whole tree, once.
public enum Snapshots {
  /// The two sides of `changeSet`: its `from` commit, and its head commit or the working tree, the head
  /// described as `from` plus the changes.
  public static func sides(
    of changeSet: ChangeSet, in repository: GitRepository, cache: ManifestCache
  ) throws -> (base: TreeSnapshot, head: TreeSnapshot) {
    let base = try commit(changeSet.from, in: repository, cache: cache)
    let reference = Reference(
      snapshot: base, commit: changeSet.from, overlay: TreeOverlay(changes: changeSet.changes),
      notLinks: changeSet.notLinks)
    let head =
      try changeSet.head.map { try commit($0, in: repository, cache: cache, reference: reference) }
      ?? workingTree(of: repository, over: reference)
    return (base, head)
  }

  /// A tree and the changes from it to another.
  struct Reference: Sendable {
    var snapshot: TreeSnapshot
    var commit: ObjectID
    var overlay: TreeOverlay
    /// Changed paths known to be no link on disk (`ChangeSet.notLinks`).
    var notLinks: Set<String> = []
  }

  /// A commit's tree, read through libgit2 without a checkout. Its manifests come from the cache by tree
  /// id, else from `reference` and the changes, else from one walk of the tree; then they are cached.
  public static func commit(
    _ commit: ObjectID, in repository: GitRepository, cache: ManifestCache = ManifestCache(directory: nil)
  ) throws -> TreeSnapshot {
    try self.commit(commit, in: repository, cache: cache, reference: nil)
  }

  static func commit(
    _ commit: ObjectID, in repository: GitRepository, cache: ManifestCache, reference: Reference?
  ) throws -> TreeSnapshot {
    let manifests = Memo<[ManifestFile]>()
    let markers = Memo<[String]>()
    var snapshot = TreeSnapshot(
      label: commit.short, rootName: rootName(of: repository), workingDirectoryRoot: nil,
      manifestFiles: {
        try manifests.value {
          let tree = try repository.treeID(of: commit).hex
          if let cached = cache.manifests(ofTree: tree) { return cached }
          let found: [ManifestFile]
          if let reference {
            found = try reference.overlay.manifests(over: reference.snapshot.manifestFiles()) { path in
              try repository.blobID(at: commit, path: path).map { ManifestFile(path: path, blobID: $0.hex) }
            }
          } else {
            found = try repository.blobs(
              at: commit, named: ManifestSelection.isManifestName, prefix: "Package", skipping: [".build"]
            ).map { ManifestFile(path: $0.path, blobID: $0.id.hex) }
          }
          cache.storeManifests(found, ofTree: tree)
          return found
        }
      },
      subdirectories: { directory in try repository.subdirectories(at: commit, of: directory) },
      xcodeMarkers: {
        try markers.value {
          let tree = try repository.treeID(of: commit).hex
          if let cached = cache.xcodeMarkers(ofTree: tree) { return cached }
          let found: [String]
          if let reference {
            found = try reference.overlay.xcodeMarkers(over: reference.snapshot.xcodeMarkers()) { path in
              try repository.blobID(at: commit, path: path) != nil
            }
          } else {
            found = try xcodeMarkerPaths(at: commit, in: repository)
          }
          cache.storeXcodeMarkers(found, ofTree: tree)
          return found
        }
      },
      files: { try repository.files(at: commit) },
      read: { path in try repository.blob(at: commit, path: path) })
    snapshot.blobID = { path in try repository.blobID(at: commit, path: path)?.hex }
    snapshot.filesUnder = { directory in try repository.files(at: commit, under: directory) }
    let links = Memo<[SymbolicLink]>()
    snapshot.symbolicLinks = {
      try links.value {
        let tree = try repository.treeID(of: commit).hex
        if let cached = cache.symbolicLinks(ofTree: tree) { return cached }
        let found: [SymbolicLink]
        if let reference {
          found = try reference.overlay.symbolicLinks(over: reference.snapshot.symbolicLinks()) { path in
            try repository.symbolicLink(at: commit, path: path).map { SymbolicLink(path: path, destination: $0) }
          }
        } else {
          found = try repository.symbolicLinks(at: commit, skipping: [".build"]).map {
            SymbolicLink(path: $0.path, destination: $0.destination)
          }
        }
        cache.storeSymbolicLinks(found, ofTree: tree)
        return found
      }
    }
    return snapshot
  }

  /// The text of the symbolic link at `path` under `root`; nil when it is not a link.
  static func linkOnDisk(_ path: String, root: String) -> SymbolicLink? {
    // `lstat` first: asking Foundation for a link's destination throws (slowly) for every other file.
    var status = stat()
    guard lstat(root + "/" + path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
    return (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)).map {
      SymbolicLink(path: path, destination: $0)
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

  /// The working tree as git sees it: tracked files still on disk plus untracked, non-ignored ones,
  /// described as HEAD plus `git status`'s changes (for `ripple graph`).
  public static func workingTree(
    of repository: GitRepository, cache: ManifestCache = ManifestCache(directory: nil)
  ) throws -> TreeSnapshot {
    let head: ObjectID
    do {
      head = try repository.headCommit()
    } catch GitError.emptyRepository {
      return try listedWorkingTree(of: repository)
    }
    let changes = try repository.changesToWorkingTree(from: head)
    let base = try commit(head, in: repository, cache: cache)
    return try workingTree(
      of: repository, over: Reference(snapshot: base, commit: head, overlay: TreeOverlay(changes: changes)))
  }

  /// The working tree as `reference` plus the changes from it to the disk (the same diff `ripple changes`
  /// reports: staged, unstaged and untracked files). Changed manifests are read from the disk.
  static func workingTree(of repository: GitRepository, over reference: Reference) throws -> TreeSnapshot {
    guard let root = repository.workdir else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "read the packages")
    }
    let manifests = Memo<[ManifestFile]>()
    var snapshot = TreeSnapshot(
      label: "worktree", rootName: rootName(of: repository), workingDirectoryRoot: root,
      manifestFiles: {
        try manifests.value {
          try reference.overlay.manifests(over: reference.snapshot.manifestFiles()) { path in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
              !isDirectory.boolValue
            else { return nil }
            return ManifestFile(path: path, blobID: nil)
          }
        }
      },
      subdirectories: { directory in
        try reference.overlay.subdirectories(of: directory, old: reference.snapshot.subdirectories(directory)) {
          try repository.files(at: reference.commit, under: $0)
        }
      },
      xcodeMarkers: {
        try reference.overlay.xcodeMarkers(over: reference.snapshot.xcodeMarkers()) { path in
          FileManager.default.fileExists(atPath: root + "/" + path)
        }
      },
      files: { try repository.workingTreeFiles() },
      read: { path in
        guard let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
        return [UInt8](data)
      })
    // A file git status leaves alone has the reference's bytes (the Xcode cache keys by it).
    snapshot.blobID = { path in
      reference.overlay.present.contains(path) || reference.overlay.removed.contains(path)
        ? nil : try reference.snapshot.blobID(path)
    }
    snapshot.filesUnder = { directory in repository.workingTreeFiles(under: directory) }
    let links = Memo<[SymbolicLink]>()
    snapshot.symbolicLinks = {
      try links.value {
        try reference.overlay.symbolicLinks(over: reference.snapshot.symbolicLinks()) {
          reference.notLinks.contains($0) ? nil : linkOnDisk($0, root: root)
        }
      }
    }
    return snapshot
  }

  /// Every `project.pbxproj` and `contents.xcworkspacedata` of a commit outside `.build`: two walks of its
  /// tree that build strings only for names with those prefixes (then cached per tree id).
  static func xcodeMarkerPaths(at commit: ObjectID, in repository: GitRepository) throws -> [String] {
    let projects = try repository.blobs(
      at: commit, named: { $0 == "project.pbxproj" }, prefix: "project.", skipping: [".build"])
    let workspaces = try repository.blobs(
      at: commit, named: { $0 == "contents.xcworkspacedata" }, prefix: "contents.", skipping: [".build"])
    return (projects + workspaces).map(\.path).sorted()
  }

  /// The working tree listed file by file: for a repository without a commit yet.
  static func listedWorkingTree(of repository: GitRepository) throws -> TreeSnapshot {
    guard let root = repository.workdir else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "read the packages")
    }
    let files = try repository.workingTreeFiles()
    return TreeSnapshot(
      label: "worktree", rootName: rootName(of: repository), files: files, workingDirectoryRoot: root,
      links: files.compactMap { linkOnDisk($0, root: root) }
    ) { path in
      guard let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
      return [UInt8](data)
    }
  }
}
