import PackageLoading
import PackageModel
import RippleConfig

extension Workspace {
  /// The package graph of the working tree, with the configured manifest environments unioned.
  public func graph() async throws -> PackageGraph {
    let selection = configuration.selection
    return try await services.graphLoader.loadGraph(
      Snapshots.workingTree(of: repository), environments: selection.manifestEnvironments,
      excludePackages: selection.excludePackages)
  }
}
