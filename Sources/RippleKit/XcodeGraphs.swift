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
    /// What the projects could not fully resolve (a missing xcconfig include, a variable Ripple cannot expand).
    public var warnings: [String] = []
  }

  /// `graph` with the Xcode projects of `tree` added.
  /// A tree without a `project.pbxproj` or workspace (known per git tree id, without listing it) is left
  /// as it is; a tree with some is not listed either: its markers name the projects and workspaces, and
  /// only their scheme folders are listed.
  /// `cache`: the Xcode cache (`XcodeCache`): a tree whose Xcode files all match a stored snapshot is not
  /// parsed.
  public static func merge(
    _ graph: PackageGraph, tree: TreeSnapshot, excludePackages: [Glob], cache: XcodeCache = XcodeCache(directory: nil)
  ) -> Merged {
    let markers = (try? tree.xcodeMarkers()) ?? []
    guard !markers.isEmpty else { return Merged(graph: graph, failures: [], failedProjects: []) }
    // The manifests tell which folders are packages (a folder reference holding a Package.swift).
    let manifests: [String]
    do {
      manifests = try tree.manifestFiles().map(\.path).filter {
        $0 == "Package.swift" || $0.hasSuffix("/Package.swift")
      }
    } catch {
      return Merged(
        graph: graph,
        failures: [
          .malformedProject(path: markers[0], revision: tree.label, reason: "the tree could not be listed: \(error)")
        ],
        failedProjects: [])
    }
    let snapshot = XcodeLoader.load(tree, markers: markers, excludePackages: excludePackages, cache: cache)
    return Merged(
      graph: XcodeLoader.merge(snapshot, into: graph, files: manifests), failures: snapshot.failures,
      failedProjects: snapshot.failedProjects, warnings: snapshot.warnings)
  }

  /// Whether a package path of a report is an Xcode project (its tests run through xcodebuild, not
  /// `swift test`).
  public static func isProject(_ packagePath: String, in graph: PackageGraph?) -> Bool {
    graph?.package(at: packagePath)?.isXcodeProject ?? packagePath.hasSuffix(".xcodeproj")
  }
}
