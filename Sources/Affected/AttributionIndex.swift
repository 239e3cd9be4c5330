import PackageModel
import RippleCore

/// The graph's folders → their owners, so that a path finds its targets by walking its own folders, never
/// by scanning every target (docs/DESIGN.md, rules 2, 3 and 12; issue 50). It answers what `Ownership` and
/// `XcodeOwnership` answer, with the same tie-breaks, at the cost of the path's depth.
public struct AttributionIndex: Sendable {
  /// SwiftPM package roots (not Xcode projects: their targets own by listed paths).
  private var packageRoots: Set<String> = []
  /// Every package's path, Xcode projects and workspaces included.
  private var packagePaths: Set<String> = []
  /// The Xcode projects' and workspaces' paths.
  private var projectPaths: Set<String> = []
  /// Folder → the targets whose directory it is (one flat list: 4,000 nested dictionaries cost a leaf's key more
  /// than its files did).
  private var targetFolders: [String: [(package: String, name: String)]] = [:]
  /// A link's destination (file or folder) → the targets reaching it through that link, in graph order.
  private var linkDestinations: [String: [(order: Int, target: TargetRef, link: String)]] = [:]
  /// A listed path (Xcode) → the targets listing it (each with its excluded paths).
  private var listed: [String: [(target: TargetRef, excluded: [String])]] = [:]
  /// The targets that list paths, for paths that are not plain ASCII (String's canonical equivalence).
  private var listingTargets: [(TargetRef, Target)] = []

  public init(_ graph: PackageGraph) {
    var order = 0
    for package in graph.packages {
      packagePaths.insert(package.path)
      if package.origin == nil { packageRoots.insert(package.path) } else { projectPaths.insert(package.path) }
      for target in package.targets {
        let ref = TargetRef(package: package.path, name: target.name)
        if package.origin == nil {
          targetFolders[target.directory, default: []].append((package.path, target.name))
        }
        var linked: Set<String> = []
        for link in target.linkedPaths ?? [] where linked.insert(link.path).inserted {
          linkDestinations[link.path, default: []].append((order, ref, link.link))
        }
        order += 1
        if let owned = target.ownedPaths, !owned.isEmpty {
          listingTargets.append((ref, target))
          for path in owned { listed[path, default: []].append((ref, target.excludedPaths ?? [])) }
        }
      }
    }
  }

  /// The folders of `path` deepest first: the path itself, each parent, and `.`.
  static func folders(of path: String) -> [String] {
    var folders = [path]
    var utf8 = Substring(path).utf8
    while let slash = utf8.lastIndex(of: UInt8(ascii: "/")) {
      utf8 = utf8[..<slash]
      folders.append(String(Substring(utf8)))
    }
    if path != "." { folders.append(".") }
    return folders
  }

  /// `Ownership.owner(of:in:)`: the target of the innermost package holding `path` whose directory holds it,
  /// deepest first (the first name, when two share a directory).
  public func owner(of path: String) -> TargetRef? {
    owner(of: path, folders: Self.folders(of: path))
  }

  private func owner(of path: String, folders: [String]) -> TargetRef? {
    var holders: [[(package: String, name: String)]] = []
    for folder in folders {
      if let here = targetFolders[folder] { holders.append(here) }
      guard packageRoots.contains(folder) else { continue }
      // The innermost package: its deepest target folder holding the path.
      for here in holders {
        if let name = here.lazy.filter({ $0.package == folder }).map(\.name).min() {
          return TargetRef(package: folder, name: name)
        }
      }
      return nil
    }
    return nil
  }

  /// `Ownership.linkedOwners(of:in:)`: the targets reaching `path` through a link in their directory, each
  /// with its first such link, in graph order.
  public func linkedOwners(of path: String) -> [(target: TargetRef, link: String)] {
    guard !linkDestinations.isEmpty else { return [] }
    var found: [(order: Int, target: TargetRef, link: String)] = []
    for folder in Self.folders(of: path) { found += linkDestinations[folder] ?? [] }
    guard found.count > 1 else { return found.map { ($0.target, $0.link) } }
    var seen: Set<TargetRef> = []
    return found.sorted { $0.order < $1.order }.filter { seen.insert($0.target).inserted }.map { ($0.target, $0.link) }
  }

  /// `XcodeOwnership.listedOwners(of:in:)`: the targets whose listed paths hold `path`, sorted.
  public func listedOwners(of path: String) -> [TargetRef] {
    guard !listed.isEmpty else { return [] }
    guard path.utf8.allSatisfy({ $0 < 0x80 }) else {
      return listingTargets.filter { $0.1.ownsListed(path) }.map(\.0).sorted()
    }
    var owners: Set<TargetRef> = []
    for folder in Self.folders(of: path) {
      for (target, excluded) in listed[folder] ?? []
      where !excluded.contains(where: { RepoPath.isInside(path, directory: $0) }) {
        owners.insert(target)
      }
    }
    return owners.sorted()
  }

  /// Whether `folder` is a package root or a target's directory.
  public func isOwnerFolder(_ folder: String) -> Bool {
    packageRoots.contains(folder) || targetFolders[folder] != nil
  }

  /// `Ownership.isPackageFile(_:in:)` over the indexes of the graphs: a manifest or `Package.resolved` of a
  /// package, or a project file other rules decide.
  public static func isPackageFile(_ path: String, in indexes: [AttributionIndex]) -> Bool {
    if indexes.contains(where: { !$0.projectPaths.isEmpty }), let bundle = XcodeOwnership.projectBundle(of: path),
      indexes.contains(where: { $0.projectPaths.contains(bundle) }),
      XcodeOwnership.isProjectFile(
        path, inBundle: bundle, listedOwners: { path in indexes.flatMap { $0.listedOwners(of: path) } })
    {
      return true
    }
    // Every manifest's name begins with "Package": most paths are decided by one byte comparison.
    let name = RepoPath.name(path)
    guard name.utf8.first == UInt8(ascii: "P"), Ownership.isManifestName(String(name)) else { return false }
    let directory = RepoPath.parent(path)
    return indexes.contains { $0.packagePaths.contains(directory) }
  }
}
