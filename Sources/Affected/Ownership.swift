import PackageModel
import RippleCore

/// Which target owns a path (docs/DESIGN.md, rules 2 and 3).
enum Ownership {
  /// The target of the innermost package holding `path` whose directory holds it, deepest directory first.
  /// Excluded files and resources lie inside the target's directory, so they belong to it too. (Builds an
  /// index of the graph: callers asking for many paths keep an `AttributionIndex`.)
  static func owner(of path: String, in graph: PackageGraph) -> TargetRef? {
    AttributionIndex(graph).owner(of: path)
  }

  /// The targets that reach `path` through a symbolic link in their directory (`Target.linkedPaths`: SwiftPM
  /// compiles what a link leads to), each with that link.
  static func linkedOwners(of path: String, in graph: PackageGraph) -> [(target: TargetRef, link: String)] {
    AttributionIndex(graph).linkedOwners(of: path)
  }

  /// Whether `path` is a manifest (`Package.swift`, `Package@swift-*.swift`) or the `Package.resolved` of a
  /// package of one of the graphs: such files are handled by the manifest and pin rules.
  static func isPackageFile(_ path: String, in graphs: [PackageGraph]) -> Bool {
    AttributionIndex.isPackageFile(path, in: graphs.map(AttributionIndex.init))
  }

  /// `Package.swift`, `Package@swift-*.swift` or `Package.resolved`.
  static func isManifestName(_ name: String) -> Bool {
    name == "Package.swift" || name == "Package.resolved"
      || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
  }

  static func isResolvedFile(_ path: String) -> Bool { RepoPath.isResolvedFile(path) }

}
