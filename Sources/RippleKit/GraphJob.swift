import ConfigLoading
import Git
import PackageLoading
import PackageModel
import RippleConfig

public enum GraphJob {
  /// The package graph of the working tree, with the configured manifest environments unioned, and the
  /// repository root it belongs to.
  public static func load(directory: String, configPath: String?, services: RippleServices) async throws
    -> (root: String, graph: PackageGraph)
  {
    let repository = try GitRepository.discover(from: directory)
    guard let root = repository.workdir else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "read the packages")
    }
    let selection = try ConfigLoader.load(repoRoot: root, explicitPath: configPath).selection
    let graph = try await services.graphLoader.loadGraph(
      Snapshots.workingTree(of: repository, cache: services.manifestCache),
      environments: selection.manifestEnvironments,
      excludePackages: selection.excludePackages)
    return (root, graph)
  }
}
