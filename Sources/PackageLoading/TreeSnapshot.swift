import RippleCore

/// A manifest file of a tree (`Package.swift` or `Package@swift-….swift`), with git's blob id when known.
public struct ManifestFile: Sendable, Hashable {
  /// Repo-relative path.
  public var path: String
  /// Git's blob id of the bytes (40 hex digits); nil when git has not hashed them (a file changed on
  /// disk): the loader then reads and hashes the bytes itself.
  public var blobID: String?

  public init(path: String, blobID: String?) {
    self.path = path
    self.blobID = blobID
  }
}

/// One revision's files, as seen by the loader.
///
/// The loader asks only what it needs: the manifests (discovery), the subdirectories of a few
/// directories (target directories, rule 3) and the bytes of manifests it evaluates. A git revision
/// answers from libgit2 and caches discovery by tree id; the working tree answers from the commit it
/// started from plus the changes (RippleKit/Snapshots.swift). The list-backed initialiser answers from a
/// file list (tests, and a repository without commits).
public struct TreeSnapshot: Sendable {
  /// "worktree" or a short sha: used in error messages.
  public var label: String
  /// The name of the checkout's folder. SwiftPM names a `.package(path:)` dependency after its folder, so
  /// a nested manifest with `.package(path: "../")` names the root package by this: a revision's
  /// manifests are evaluated under a scratch folder of the same name, and it is part of the cache key.
  public var rootName: String
  /// The contents of a file of this tree (nil if absent).
  public var read: @Sendable (String) throws -> [UInt8]?
  /// Every manifest file of the tree outside `.build` directories, sorted by path.
  public var manifestFiles: @Sendable () throws -> [ManifestFile]
  /// The names of the directories directly inside a directory ("." for the root); nil when the directory
  /// holds no file in this tree.
  public var subdirectories: @Sendable (String) throws -> [String]?
  /// The absolute repository root when this snapshot is the on-disk working tree: manifests are then
  /// evaluated in place. Nil for a git revision: manifests are written to a scratch directory.
  public var workingDirectoryRoot: String?
  /// The file list of a list-backed snapshot (empty otherwise).
  let listedFiles: [String]
  /// The `project.pbxproj` and `contents.xcworkspacedata` files of the tree (cached per git tree id like
  /// the manifests): whether Xcode projects exist, without listing the tree.
  public var xcodeMarkers: @Sendable () throws -> [String]
  /// Every file of the tree, listed on demand: only for Xcode projects (their synchronised folders own
  /// what they hold), asked only when `xcodeMarkers` found one.
  public var files: @Sendable () throws -> [String]
  /// Git's blob id of a file when git already knows it without reading the bytes (a commit's tree, an
  /// unchanged file of the working tree); nil otherwise. Keys the Xcode cache (XcodeLoading/XcodeCache).
  public var blobID: @Sendable (String) throws -> String? = { _ in nil }
  /// The files under a directory, repo-relative, when the tree can list one directory alone (git, the
  /// disk); nil: `files(under:)` filters `files()`. For the shared schemes of Xcode projects.
  public var filesUnder: (@Sendable (String) throws -> [String])?
  /// Every symbolic link of the tree outside `.build` directories, with its text: what targets reach
  /// through them is theirs (`LinkedSources`). A commit's are cached per git tree id like its manifests.
  public var symbolicLinks: @Sendable () throws -> [SymbolicLink] = { [] }

  /// Every file under `directory`.
  public func files(under directory: String) throws -> [String] {
    if let filesUnder { return try filesUnder(directory) }
    let prefix = directory + "/"
    return try files().filter { $0.hasPrefix(prefix) }
  }

  public init(
    label: String, rootName: String, workingDirectoryRoot: String?,
    manifestFiles: @escaping @Sendable () throws -> [ManifestFile],
    subdirectories: @escaping @Sendable (String) throws -> [String]?,
    xcodeMarkers: @escaping @Sendable () throws -> [String] = { [] },
    files: @escaping @Sendable () throws -> [String] = { [] },
    read: @escaping @Sendable (String) throws -> [UInt8]?
  ) {
    self.label = label
    self.rootName = rootName
    self.workingDirectoryRoot = workingDirectoryRoot
    self.manifestFiles = manifestFiles
    self.subdirectories = subdirectories
    self.xcodeMarkers = xcodeMarkers
    self.files = files
    self.read = read
    listedFiles = []
  }

  /// Whether a file name marks an Xcode project or workspace (`xcodeMarkers`).
  public static func isXcodeMarker(_ name: String) -> Bool {
    name == "project.pbxproj" || name == "contents.xcworkspacedata"
  }

  /// A snapshot of `files` (every file of the tree, repo-relative, `/`-separated). Costs one pass over
  /// the list per question: for tests and small trees.
  public init(
    label: String, rootName: String, files: [String], workingDirectoryRoot: String?, links: [SymbolicLink] = [],
    read: @escaping @Sendable (String) throws -> [UInt8]?
  ) {
    symbolicLinks = { links }
    self.label = label
    self.rootName = rootName
    self.workingDirectoryRoot = workingDirectoryRoot
    self.read = read
    listedFiles = files
    self.files = { files }
    xcodeMarkers = { files.filter { Self.isXcodeMarker(String(PackageDiscovery.name(of: $0))) } }
    manifestFiles = {
      files.filter { PackageDiscovery.isManifestPath($0) }.sorted().map { ManifestFile(path: $0, blobID: nil) }
    }
    subdirectories = { directory in
      let prefix = directory == "." ? "" : directory + "/"
      var found = false
      var names: Set<String> = []
      for file in files where file.hasPrefix(prefix) {
        found = true
        let rest = file.dropFirst(prefix.count)
        if let slash = rest.firstIndex(of: "/") { names.insert(String(rest[..<slash])) }
      }
      return found ? names.sorted() : nil
    }
  }

  /// Every directory that holds a file of a list-backed tree, "." included.
  func directories() -> Set<String> {
    var result: Set<String> = ["."]
    for file in listedFiles {
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
