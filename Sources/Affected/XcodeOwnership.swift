import PackageModel
import RippleCore

/// Which targets own a path through their listed paths, and which files of an Xcode project bundle other
/// rules decide (docs/DESIGN.md, rule 12).
enum XcodeOwnership {
  /// The `.xcodeproj` (or, outside one, `.xcworkspace`) bundle holding `path`, if any.
  static func projectBundle(of path: String) -> String? {
    // Nearly every path names no bundle: one pass over its bytes for ".xc" says so without splitting it.
    guard mayNameBundle(path) else { return nil }
    let parts = path.split(separator: "/")
    for (index, part) in parts.enumerated().dropLast()
    where part.hasSuffix(".xcodeproj") || part.hasSuffix(".xcworkspace") {
      return parts[...index].joined(separator: "/")
    }
    return nil
  }

  /// Whether `path` holds ".xc", which every bundle name holds.
  private static func mayNameBundle(_ path: String) -> Bool {
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in path.utf8 {
      if byte == UInt8(ascii: "c"), previous == (UInt8(ascii: "."), UInt8(ascii: "x")) { return true }
      previous = (previous.1, byte)
    }
    return false
  }

  /// Files of a project or workspace of the graphs that ownership does not decide: `project.pbxproj`
  /// (compared entry by entry, like a manifest), a workspace's `contents.xcworkspacedata` (its entries decide
  /// the implicit edges between its projects, compared in the graphs), a `Package.resolved` (the pin rule) and `xcuserdata` (personal state, selects
  /// nothing, except a user scheme read because the container shares none: the targets it tests own it).
  static func isProjectFile(_ path: String, in graphs: [PackageGraph]) -> Bool {
    guard let bundle = projectBundle(of: path), graphs.contains(where: { $0.package(at: bundle)?.origin != nil })
    else { return false }
    return isProjectFile(path, inBundle: bundle) { path in graphs.flatMap { listedOwners(of: path, in: $0) } }
  }

  /// The same for a path inside the project `bundle`, with the targets listing a path.
  static func isProjectFile(_ path: String, inBundle bundle: String, listedOwners: (String) -> [TargetRef]) -> Bool {
    let inner = RepoPath.relative(path, to: bundle)
    if inner == "project.pbxproj" || inner == "contents.xcworkspacedata" || Ownership.isResolvedFile(path) {
      return true
    }
    guard inner.hasPrefix("xcuserdata/") || inner.contains("/xcuserdata/") else { return false }
    // A user scheme read in place of shared ones is owned by the targets it tests.
    return !(path.hasSuffix(".xcscheme") && !listedOwners(path).isEmpty)
  }

  /// A shared scheme: it selects the test targets it tests (they list it), and nothing when it tests none.
  static func isSharedScheme(_ path: String) -> Bool {
    path.hasSuffix(".xcscheme") && path.contains("/xcshareddata/xcschemes/")
  }

  /// The targets of `graph` whose `ownedPaths` hold `path` (every one of them: a file can be in several
  /// Xcode targets), sorted. (Builds an index of the graph: callers asking for many paths keep an
  /// `AttributionIndex`.)
  static func listedOwners(of path: String, in graph: PackageGraph) -> [TargetRef] {
    AttributionIndex(graph).listedOwners(of: path)
  }

  /// The package a `Package.resolved` belongs to: the project or workspace bundle holding it
  /// (`App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved`), else its folder.
  static func resolvedScope(of path: String) -> String {
    projectBundle(of: path) ?? RepoPath.parent(path)
  }
}
