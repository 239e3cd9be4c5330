import PackageModel
import RippleCore

/// Which target owns a path (docs/DESIGN.md, rules 2 and 3).
enum Ownership {
  /// The target of the innermost package holding `path` whose directory holds it, deepest directory first.
  /// Excluded files and resources lie inside the target's directory, so they belong to it too.
  static func owner(of path: String, in graph: PackageGraph) -> TargetRef? {
    guard let package = graph.owningPackage(of: path) else { return nil }
    let holders = package.targets.filter { RepoPath.isInside(path, directory: $0.directory) }
    guard let deepest = holders.max(by: { (depth($0.directory), $1.name) < (depth($1.directory), $0.name) }) else {
      return nil
    }
    return TargetRef(package: package.path, name: deepest.name)
  }

  /// The targets that reach `path` through a symbolic link in their directory (`Target.linkedPaths`: SwiftPM
  /// compiles what a link leads to), each with that link.
  static func linkedOwners(of path: String, in graph: PackageGraph) -> [(target: TargetRef, link: String)] {
    var owners: [(target: TargetRef, link: String)] = []
    for package in graph.packages {
      for target in package.targets where target.linkedPaths != nil {
        if let link = target.link(reaching: path) {
          owners.append((TargetRef(package: package.path, name: target.name), link))
        }
      }
    }
    return owners
  }

  /// Whether `path` is a manifest (`Package.swift`, `Package@swift-*.swift`) or the `Package.resolved` of a
  /// package of one of the graphs: such files are handled by the manifest and pin rules.
  static func isPackageFile(_ path: String, in graphs: [PackageGraph]) -> Bool {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if XcodeOwnership.isProjectFile(path, in: graphs) { return true }
    let isManifest =
      name == "Package.swift" || name == "Package.resolved"
      || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
    guard isManifest else { return false }
    let directory = RepoPath.parent(path)
    return graphs.contains { $0.package(at: directory) != nil }
  }

  static func isResolvedFile(_ path: String) -> Bool {
    path == "Package.resolved" || path.hasSuffix("/Package.resolved")
  }

  private static func depth(_ directory: String) -> Int {
    directory == "." ? 0 : directory.split(separator: "/").count
  }
}
