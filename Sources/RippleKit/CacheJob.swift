import Foundation
import PackageLoading
import RippleConfig
import RippleCore

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

  /// Removes the manifests and the key caches (`keyCacheDirectories`) last written or read before `age` ago (nil:
  /// all of them); each is made again when next needed.
  public static func prune(olderThan age: TimeInterval?, services: RippleServices, now: Date = Date()) throws
    -> CacheDirectoryUsage
  {
    var removed = CacheDirectoryUsage()
    for folder in [directory(services: services)] + keyCacheDirectories(services: services) {
      removed.add(try CacheDirectoryUsage.prune(folder, writtenBefore: age.map { now - $0 }))
    }
    return removed
  }

  /// The caches pass-record keys keep beside the manifests (`Workspace.keyInputsOnDisk`): the stat caches of blob
  /// ids (`blob-ids/`, one file per checkout and package) and the digests of folders by tree id (`tree-digests/`).
  /// A read marks a file used (`CheckedCacheFile.markUsed`), so their age is their last use, to within a day.
  public static func keyCacheDirectories(services: RippleServices) -> [String] {
    let parent = RepoPath.parent(directory(services: services))
    return [parent + "/blob-ids", parent + "/tree-digests"]
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
