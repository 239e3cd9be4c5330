import PackageModel
import RippleCore

/// Which targets own a path through their listed paths, and which files of an Xcode project bundle other
/// rules decide (docs/DESIGN.md, rule 12).
enum XcodeOwnership {
  /// The `.xcodeproj` (or, outside one, `.xcworkspace`) bundle holding `path`, if any.
  static func projectBundle(of path: String) -> String? {
    let parts = path.split(separator: "/")
    for (index, part) in parts.enumerated().dropLast()
    where part.hasSuffix(".xcodeproj") || part.hasSuffix(".xcworkspace") {
      return parts[...index].joined(separator: "/")
    }
    return nil
  }

  /// Files of a project or workspace of the graphs that ownership does not decide: `project.pbxproj`
  /// (compared entry by entry, like a manifest), a workspace's `contents.xcworkspacedata` (its entries decide
  /// the implicit edges between its projects, compared in the graphs), a `Package.resolved` (the pin rule) and `xcuserdata` (personal state, selects
  /// nothing, except a user scheme read because the container shares none: the targets it tests own it).
  static func isProjectFile(_ path: String, in graphs: [PackageGraph]) -> Bool {
    guard let bundle = projectBundle(of: path), graphs.contains(where: { $0.package(at: bundle)?.origin != nil })
    else { return false }
    let inner = RepoPath.relative(path, to: bundle)
    if inner == "project.pbxproj" || inner == "contents.xcworkspacedata" || Ownership.isResolvedFile(path) {
      return true
    }
    guard inner.hasPrefix("xcuserdata/") || inner.contains("/xcuserdata/") else { return false }
    // A user scheme read in place of shared ones is owned by the targets it tests.
    return !(path.hasSuffix(".xcscheme") && graphs.contains { !listedOwners(of: path, in: $0).isEmpty })
  }

  /// A shared scheme: it selects the test targets it tests (they list it), and nothing when it tests none.
  static func isSharedScheme(_ path: String) -> Bool {
    path.hasSuffix(".xcscheme") && path.contains("/xcshareddata/xcschemes/")
  }

  /// The targets of `graph` whose `ownedPaths` hold `path` (every one of them: a file can be in several
  /// Xcode targets), sorted.
  ///
  /// `ownedPaths` are sorted (XcodeGraphMapper), so a target owns a path of ASCII bytes exactly when one of
  /// the path's folders (or the path itself, or `.`) is among them: a binary search per folder and target,
  /// not a look at each of the 12,000 paths a large project lists. Other paths (String's canonical
  /// equivalence may match bytes that differ) take `Target.ownsListed`.
  static func listedOwners(of path: String, in graph: PackageGraph) -> [TargetRef] {
    let folders = enclosingFolders(of: path)
    var owners: [TargetRef] = []
    for package in graph.packages {
      for target in package.targets {
        guard let owned = target.ownedPaths, !owned.isEmpty else { continue }
        let owns: Bool
        if let folders {
          assert(zip(owned, owned.dropFirst()).allSatisfy { $0 <= $1 }, "ownedPaths must be sorted")
          owns =
            folders.contains { sortedContains(owned, $0) }
            && !(target.excludedPaths ?? []).contains { RepoPath.isInside(path, directory: $0) }
        } else {
          owns = target.ownsListed(path)
        }
        if owns { owners.append(TargetRef(package: package.path, name: target.name)) }
      }
    }
    return owners.sorted()
  }

  /// `path`, each folder holding it and `.`, for a path of ASCII bytes (nil otherwise): the owned paths
  /// `RepoPath.isInside(path, directory:)` accepts.
  static func enclosingFolders(of path: String) -> [String]? {
    guard path.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    var folders = [path, "."]
    var utf8 = Substring(path).utf8
    while let slash = utf8.lastIndex(of: UInt8(ascii: "/")) {
      utf8 = utf8[..<slash]
      folders.append(String(Substring(utf8)))
    }
    return folders
  }

  /// Whether the sorted `values` hold `value` (a binary search with String's ordering and equality).
  static func sortedContains(_ values: [String], _ value: String) -> Bool {
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) / 2
      if values[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < values.count && values[low] == value
  }

  /// The package a `Package.resolved` belongs to: the project or workspace bundle holding it
  /// (`App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved`), else its folder.
  static func resolvedScope(of path: String) -> String {
    projectBundle(of: path) ?? RepoPath.parent(path)
  }
}
