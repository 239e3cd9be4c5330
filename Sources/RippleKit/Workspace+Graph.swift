import PackageLoading
import PackageModel
import RippleConfig

extension Workspace {
  /// The package graph of the working tree, with the manifest environments (and every test run's) unioned.
  public func graph() async throws -> PackageGraph {
    let selection = configuration.selection
    return try await services.graphLoader.loadGraph(
      Snapshots.workingTree(of: repository, cache: services.manifestCache),
      environments: configuration.graphEnvironments,
      excludePackages: selection.excludePackages, toolchains: selection.manifestToolchains)
  }
}

extension SelectionConfig {
  /// `toolchains` for the loader: each version with the config position its errors name.
  public var manifestToolchains: [ManifestToolchain] {
    toolchains.map { ManifestToolchain(version: $0.version, origin: $0.origin) }
  }
}
