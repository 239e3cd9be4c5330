import ConfigLoading
import Git
import PackageModel
import XcodeModel

extension GraphJob {
  /// `load`, with the Xcode projects of the working tree added (docs/DESIGN.md, rule 11): what
  /// `ripple graph` shows. A project that cannot be read is an error.
  public static func loadWithXcodeProjects(directory: String, configPath: String?, services: RippleServices)
    async throws -> (root: String, graph: PackageGraph)
  {
    let (root, graph) = try await load(directory: directory, configPath: configPath, services: services)
    let repository = try GitRepository.discover(from: directory)
    let selection = try ConfigLoader.load(repoRoot: root, explicitPath: configPath).selection
    let merged = XcodeGraphs.merge(
      graph, tree: try Snapshots.workingTree(of: repository), excludePackages: selection.excludePackages)
    if let error = XcodeError.combining(merged.failures) { throw error }
    return (root, merged.graph)
  }
}
