import RippleCore

/// A tree described as another tree plus the changes between them: the working tree as the commit it
/// started from plus `git status`'s answer, or a new commit as an older one plus their diff.
///
/// What the loader asks (manifests, subdirectories) is answered from the other tree's answers and the
/// changed paths only, so the cost follows the change, not the size of the tree. The changes are those
/// `ripple changes` reports for the same two states, so "which files changed" and "which files exist"
/// always agree.
public struct TreeOverlay: Sendable {
  /// Paths that exist in the new tree and may differ from the old one (added, modified, renamed or
  /// copied to, type changed).
  public let present: Set<String>
  /// Paths of the old tree that are gone (deleted, renamed away).
  public let removed: Set<String>
  /// Directory → names of its subdirectories that hold a present path.
  private let presentChildren: [String: Set<String>]
  /// Directories some removed path lies under.
  private let touchedByRemoval: Set<String>
  /// Directories holding a present path directly.
  private let presentFileDirectories: Set<String>

  public init(changes: [ChangedFile]) {
    var present: Set<String> = []
    var removed: Set<String> = []
    for change in changes {
      switch change.status {
      case .deleted: removed.insert(change.path)
      case .renamed:
        if let old = change.oldPath, old != change.path { removed.insert(old) }
        present.insert(change.path)
      default: present.insert(change.path)
      }
    }
    removed.subtract(present)
    var children: [String: Set<String>] = [:]
    for path in present {
      var child = path
      var directory = RepoPath.parent(path)
      while true {
        let name = String(PackageDiscovery.name(of: child))
        // A folder already recorded has its parents recorded too (10⁶ paths share few folders).
        if child != path, !children[directory, default: []].insert(name).inserted { break }
        if directory == "." { break }
        child = directory
        directory = RepoPath.parent(directory)
      }
    }
    var touched: Set<String> = []
    for path in removed {
      var directory = RepoPath.parent(path)
      while touched.insert(directory).inserted, directory != "." { directory = RepoPath.parent(directory) }
    }
    self.present = present
    self.removed = removed
    presentChildren = children
    touchedByRemoval = touched
    presentFileDirectories = Set(present.map(RepoPath.parent))
  }

  /// The manifests of the new tree: the old tree's, minus the removed and changed ones, plus the changed
  /// ones `describe` returns (nil: not a file there, for example a directory or a submodule).
  public func manifests(
    over old: [ManifestFile], describe: (String) throws -> ManifestFile?
  ) rethrows -> [ManifestFile] {
    var result = old.filter { !removed.contains($0.path) && !present.contains($0.path) }
    for path in present where PackageDiscovery.isManifestPath(path) {
      if let file = try describe(path) { result.append(file) }
    }
    return result.sorted { $0.path < $1.path }
  }

  /// The Xcode markers of the new tree (`TreeSnapshot.xcodeMarkers`): the old tree's, minus the removed and
  /// changed paths, plus the changed marker paths `exists` confirms.
  public func xcodeMarkers(over old: [String], exists: (String) throws -> Bool) rethrows -> [String] {
    var result = old.filter { !removed.contains($0) && !present.contains($0) }
    for path in present where TreeSnapshot.isXcodeMarker(String(PackageDiscovery.name(of: path))) {
      if try exists(path) { result.append(path) }
    }
    return result.sorted()
  }

  /// The symbolic links of the new tree: the old tree's, minus the removed and changed paths, plus the
  /// changed paths `describe` finds to be links (with their text).
  public func symbolicLinks(
    over old: [SymbolicLink], describe: (String) throws -> SymbolicLink?
  ) rethrows -> [SymbolicLink] {
    var result = old.filter { !removed.contains($0.path) && !present.contains($0.path) }
    for path in present {
      if let link = try describe(path) { result.append(link) }
    }
    return result.sorted { $0.path < $1.path }
  }

  /// The subdirectories of `directory` in the new tree, from its subdirectories in the old tree (`old`,
  /// nil when absent there). `filesUnder` lists the old tree's files under a directory: asked only for
  /// directories some removed path lies under, to tell whether anything is left in them.
  public func subdirectories(
    of directory: String, old: [String]?, filesUnder: (String) throws -> [String]
  ) rethrows -> [String]? {
    var names = Set(old ?? [])
    names.formUnion(presentChildren[directory] ?? [])
    if touchedByRemoval.contains(directory) {
      for name in names where presentChildren[directory]?.contains(name) != true {
        let child = directory == "." ? name : directory + "/" + name
        guard touchedByRemoval.contains(child) else { continue }
        if try filesUnder(child).allSatisfy(removed.contains) { names.remove(name) }
      }
    }
    if old == nil && presentChildren[directory] == nil && !hasPresentFile(in: directory) { return nil }
    if old != nil, names.isEmpty, touchedByRemoval.contains(directory), !hasPresentFile(in: directory) {
      // Every subdirectory emptied: the directory itself is gone unless a file is left directly in it.
      let left = try filesUnder(directory).contains { !removed.contains($0) }
      if !left { return nil }
    }
    return names.sorted()
  }

  /// Whether a present path lies directly in `directory`.
  private func hasPresentFile(in directory: String) -> Bool {
    presentFileDirectories.contains(directory)
  }
}
