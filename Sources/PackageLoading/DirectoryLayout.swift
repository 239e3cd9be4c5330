import RippleCore

/// The directories target directories are resolved against (docs/DESIGN.md, rule 3), listed once per
/// package: the subdirectories of each candidate source root (`Sources`, `Tests`, `Plugins`, ...).
///
/// `TargetDirectoryResolver` only asks whether `<package>/<root>` or `<package>/<root>/<name>` is a
/// directory, so these listings decide every target's directory, and they are part of the graph key.
/// Anything else (a target name holding a `/`) is asked of the tree directly and makes the graph
/// uncacheable (`listedOutsideRoots`).
final class DirectoryLayout: @unchecked Sendable {
  static let roots: [String] = {
    var seen: Set<String> = []
    return
      (TargetDirectoryResolver.testRoots + TargetDirectoryResolver.sourceRoots
      + TargetDirectoryResolver.pluginRoots).filter { seen.insert($0).inserted }
  }()

  /// Root path → the names of its subdirectories, sorted; nil when the root does not exist.
  let listings: [String: [String]?]
  private let names: [String: Set<String>?]
  private let tree: TreeSnapshot
  private let outside = Locked(false)

  init(packages: [String], tree: TreeSnapshot) throws {
    var listings: [String: [String]?] = [:]
    var names: [String: Set<String>?] = [:]
    for package in packages {
      for root in Self.roots {
        let path = Self.path(package, root)
        let listing = try tree.subdirectories(path)?.sorted()
        // updateValue, not a subscript assignment: assigning a nil `Set?` would remove the key.
        listings.updateValue(listing, forKey: path)
        names.updateValue(listing.map(Set.init), forKey: path)
      }
    }
    self.listings = listings
    self.names = names
    self.tree = tree
  }

  /// `<package>/<root>` ("." for the root package), without `RepoPath.join`'s normalising: package
  /// paths come from git's paths and are already normal.
  static func path(_ package: String, _ root: String) -> String {
    package == "." ? root : package + "/" + root
  }

  /// Whether a target directory is asked for outside the listings.
  var listedOutsideRoots: Bool { outside.withLock { $0 } }

  /// Whether `path` is a directory of the tree.
  func contains(_ path: String) -> Bool {
    if let listing = names[path] { return listing != nil }
    let parent = RepoPath.parent(path)
    let name = String(PackageDiscovery.name(of: path))
    if let listing = names[parent] { return listing?.contains(name) ?? false }
    outside.withLock { $0 = true }
    return ((try? tree.subdirectories(parent)) ?? nil)?.contains(name) ?? false
  }
}
