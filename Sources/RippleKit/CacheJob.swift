import Foundation
import PackageLoading
import RippleConfig

/// `ripple cache …`: the manifest cache as something CI carries between machines.
public enum CacheJob {
  /// The directory `ripple affected` reads and writes evaluated manifests in (`RIPPLE_CACHE_DIR/manifests`,
  /// else the XDG default): the path to save and restore.
  public static func directory(services: RippleServices) -> String {
    services.manifestCache.directory ?? ManifestCache.defaultDirectory(environment: services.environment)
  }

  public static func stats(services: RippleServices) throws -> CacheDirectoryUsage {
    try CacheDirectoryUsage.measure(directory(services: services))
  }

  /// Removes the cache files written more than `age` seconds ago (all of them when nil).
  public static func prune(olderThan age: TimeInterval?, services: RippleServices, now: Date = Date()) throws
    -> CacheDirectoryUsage
  {
    try CacheDirectoryUsage.prune(directory(services: services), writtenBefore: age.map { now - $0 })
  }
}

extension Workspace {
  /// The key of the working tree's manifests under the environments the graph is evaluated in and the
  /// toolchain `ripple affected` would use (docs/DESIGN.md, section 7).
  public func cacheKey() async throws -> ManifestCacheKey {
    let toolchain = try await services.graphLoader.toolchainVersion()
    return try ManifestCacheKey.make(
      tree: Snapshots.workingTree(of: repository, cache: services.manifestCache),
      environments: configuration.graphEnvironments,
      excludePackages: configuration.selection.excludePackages,
      toolchains: configuration.selection.toolchains.map(\.name), toolchain: toolchain)
  }
}
