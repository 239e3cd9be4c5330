import Affected
import PackageLoading
import PackageModel
import RippleCore
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
  public static func merge(_ graph: PackageGraph, tree: TreeSnapshot, excludePackages: [Glob]) -> Merged {
    let snapshot = XcodeLoader.load(tree, excludePackages: excludePackages)
    return Merged(
      graph: XcodeLoader.merge(snapshot, into: graph, files: tree.files), failures: snapshot.failures,
      failedProjects: snapshot.failedProjects)
  }

  /// Whether a package path of a report is an Xcode project (its tests run through xcodebuild, not
  /// `swift test`).
  public static func isProject(_ packagePath: String, in graph: PackageGraph?) -> Bool {
    graph?.package(at: packagePath)?.isXcodeProject ?? packagePath.hasSuffix(".xcodeproj")
  }

  /// The warning `ripple test` gives when it leaves selected Xcode test targets out; nil when there are none.
  public static func notRunWarning(_ outcome: AffectedOutcome) -> String? {
    let xcode = outcome.report.testTargets.filter { isProject($0.package, in: outcome.headGraph) }
    guard !xcode.isEmpty else { return nil }
    let names = xcode.map { "\($0.package):\($0.name)" }.joined(separator: ", ")
    return "\(xcode.count) selected Xcode test target\(xcode.count == 1 ? " is" : "s are") not run by `ripple test` "
      + "(\(names)); run them with xcodebuild and `ripple affected --format xcodebuild --scheme NAME`."
  }
}
