import Affected
import PackageLoading
import PackageModel
import RippleConfig
import RippleCore
import TestRunner
import XcodeLoading
import XcodeModel

/// Xcode projects in the graph of a revision (docs/DESIGN.md, rule 12): read next to the manifests and
/// merged into the package graph, so every rule and output treats their targets like package targets.
public enum XcodeGraphs {
  public struct Merged: Sendable {
    public var graph: PackageGraph
    /// Projects, schemes or test plans that could not be read.
    public var failures: [XcodeError]
    /// The projects left out of `graph`.
    public var failedProjects: [String]
  }

  /// `graph` with the Xcode projects of `tree` added.
  /// A tree without a `project.pbxproj` or workspace (known per git tree id, without listing it) is left
  /// as it is; only a tree with Xcode projects is listed file by file.
  /// `cache`: the Xcode cache (`XcodeCache`): a tree whose Xcode files all match a stored snapshot is not
  /// parsed.
  public static func merge(
    _ graph: PackageGraph, tree: TreeSnapshot, excludePackages: [Glob], cache: XcodeCache = XcodeCache(directory: nil)
  ) -> Merged {
    let markers = (try? tree.xcodeMarkers()) ?? []
    guard !markers.isEmpty else { return Merged(graph: graph, failures: [], failedProjects: []) }
    let files: [String]
    do {
      files = try tree.files()
    } catch {
      return Merged(
        graph: graph,
        failures: [
          .malformedProject(path: markers[0], revision: tree.label, reason: "the tree could not be listed: \(error)")
        ],
        failedProjects: [])
    }
    let snapshot = XcodeLoader.load(tree, files: files, excludePackages: excludePackages, cache: cache)
    return Merged(
      graph: XcodeLoader.merge(snapshot, into: graph, files: files), failures: snapshot.failures,
      failedProjects: snapshot.failedProjects)
  }

  /// Whether a package path of a report is an Xcode project (its tests run through xcodebuild, not
  /// `swift test`).
  public static func isProject(_ packagePath: String, in graph: PackageGraph?) -> Bool {
    graph?.package(at: packagePath)?.isXcodeProject ?? packagePath.hasSuffix(".xcodeproj")
  }
}
