import PackageModel
import XcodeLoading
import XcodeModel

extension Workspace {
  /// `graph()`, with the Xcode projects of the working tree added (docs/DESIGN.md, rule 12): what
  /// `ripple graph` shows. A project that cannot be read is an error. (`planTests(.everything)` takes
  /// `graph()`: Xcode test bundles run under xcodebuild, not `swift test`.)
  public func graphWithXcodeProjects() async throws -> PackageGraph {
    let graph = try await graph()
    let merged = XcodeGraphs.merge(
      graph, tree: try Snapshots.workingTree(of: repository, cache: services.manifestCache),
      excludePackages: configuration.selection.excludePackages, cache: XcodeCache(beside: services.manifestCache))
    if let error = XcodeError.combining(merged.failures) { throw error }
    return merged.graph
  }
}
