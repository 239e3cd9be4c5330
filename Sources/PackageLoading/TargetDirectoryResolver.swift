import PackageModel
import RippleCore

/// Where a target's files live, following SwiftPM's layout rules, against the directories of a tree.
///
/// SwiftPM picks one source root per kind (the first existing of `Sources`, `Source`, `src`, `srcs`;
/// for tests `Tests` first; for plugins `Plugins`) and expects `<root>/<name>`. Ripple tries
/// `<candidate>/<name>` for every candidate root in that order, which gives the same answer whenever
/// SwiftPM accepts the layout and still finds the target in odd layouts. From tools version 5.9 a
/// target that is alone of its kind may occupy the whole root. When nothing exists yet (a target
/// whose first file is being added), the directory is the conventional `<root>/<name>`, so the new
/// file still lands in its target.
public enum TargetDirectoryResolver {
  public static let sourceRoots = ["Sources", "Source", "src", "srcs"]
  public static let testRoots = ["Tests"] + sourceRoots
  public static let pluginRoots = ["Plugins"]

  /// The repo-relative directory of a target.
  /// - Parameters:
  ///   - packagePath: the package directory, "." for the root.
  ///   - declaredPath: `path:` of the manifest, relative to the package directory.
  ///   - aloneOfItsKind: whether this is the package's only target sharing its source root (tests
  ///     share with tests, plugins with plugins, everything else with each other).
  ///   - toolsVersion: the manifest's tools version, for the 5.9 rule above.
  ///   - directories: every directory of the tree.
  public static func directory(
    name: String, kind: TargetKind, declaredPath: String?, packagePath: String, aloneOfItsKind: Bool,
    toolsVersion: [Int], directories: Set<String>
  ) -> String {
    directory(
      name: name, kind: kind, declaredPath: declaredPath, packagePath: packagePath, aloneOfItsKind: aloneOfItsKind,
      toolsVersion: toolsVersion, isDirectory: directories.contains)
  }

  /// As above, with the tree's directories behind a question (`DirectoryLayout.contains`).
  public static func directory(
    name: String, kind: TargetKind, declaredPath: String?, packagePath: String, aloneOfItsKind: Bool,
    toolsVersion: [Int], isDirectory directories: (String) -> Bool
  ) -> String {
    if let declaredPath { return RepoPath.join(packagePath, declaredPath) }
    let roots = candidateRoots(for: kind)
    for root in roots {
      let candidate = RepoPath.join(packagePath, root + "/" + name)
      if directories(candidate) { return candidate }
    }
    let existingRoot = roots.map { RepoPath.join(packagePath, $0) }.first { directories($0) }
    let root = existingRoot ?? RepoPath.join(packagePath, roots[0])
    if existingRoot != nil, aloneOfItsKind, !toolsVersion.lexicographicallyPrecedes([5, 9]) {
      return root
    }
    return root + "/" + name
  }

  static func candidateRoots(for kind: TargetKind) -> [String] {
    switch kind {
    case .test: testRoots
    case .plugin: pluginRoots
    default: sourceRoots
    }
  }

  /// The group of targets sharing a source root with `kind`, as SwiftPM counts them.
  static func sourceRootGroup(of kind: TargetKind) -> Int {
    switch kind {
    case .test: 0
    case .plugin: 1
    default: 2
    }
  }
}
