import Crypto
import RippleCore

/// `ripple cache key`: one stable key for carrying the manifest cache between CI machines
/// (`actions/cache` and friends). See docs/DESIGN.md, section 7.
///
/// It covers what evaluated manifests depend on: every manifest's bytes (`Package.swift` and each
/// `Package@swift-*.swift` of every package), the package paths, the checkout folder's name, the manifest
/// environments, the `selection.toolchains` versions and the toolchain (`swift --version`). It is defined here, independently of how the cache
/// names its entries: two trees with the same key need the same entries, whatever the entries are called.
public struct ManifestCacheKey: Sendable, Hashable {
  /// Bump when the key's definition changes.
  public static let version = "1"

  /// The first 16 hex digits of SHA-256 over the toolchain identity.
  public var toolchainDigest: String
  /// SHA-256 over everything the key covers, hex.
  public var contentDigest: String
  public var packageCount: Int
  public var manifestCount: Int

  /// `ripple-manifests-1-<toolchain>-<content>`.
  public var key: String { restorePrefix + contentDigest }

  /// The part shared by every key of this toolchain: a cache saved under another key with this prefix
  /// still holds the entries of the manifests that did not change (`restore-keys`).
  public var restorePrefix: String { "ripple-manifests-\(Self.version)-\(toolchainDigest)-" }

  /// The key of `tree` (the packages `loadGraph` would evaluate, the same discovery and exclusions)
  /// for `environments` (`selection.manifestEnvironments`, in order; empty means one empty environment)
  /// `toolchains` (`selection.toolchains` as written, in order) and `toolchain` (the output of
  /// `swift --version`).
  public static func make(
    tree: TreeSnapshot, environments: [[String: String]], excludePackages: [Glob], toolchains: [String] = [],
    toolchain: String
  ) throws(PackageGraphError) -> ManifestCacheKey {
    var hasher = SHA256()
    func add(_ field: String) {
      hasher.update(data: Array(field.utf8))
      hasher.update(data: [0])
    }
    add("ripple-cache-key-\(version)")
    add(toolchain)
    add(tree.rootName)
    // Absent from keys made before `selection.toolchains` existed, so theirs stay valid.
    if !toolchains.isEmpty { add("toolchains " + toolchains.joined(separator: " ")) }
    let environments = environments.isEmpty ? [[:]] : environments
    add("environments \(environments.count)")
    for environment in environments {
      add("environment \(environment.count)")
      for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
        add(name)
        add(value)
      }
    }
    let manifests: [ManifestFile]
    do {
      manifests = try tree.manifestFiles()
    } catch {
      throw .unreadableFile(path: ".", revision: tree.label, reason: "its manifests could not be listed: \(error)")
    }
    let packages = PackageDiscovery.packages(in: manifests, excludePackages: excludePackages)
    var manifestCount = 0
    for package in packages {
      add("package \(package.directory)")
      for path in package.manifests.map(\.path).sorted() {
        let bytes = try tree.readRequired(path)
        add(path)
        add(String(bytes.count))
        hasher.update(data: bytes)
        manifestCount += 1
      }
    }
    let toolchainDigest = hex(SHA256.hash(data: Array(toolchain.utf8))).prefix(16)
    return ManifestCacheKey(
      toolchainDigest: String(toolchainDigest), contentDigest: hex(hasher.finalize()),
      packageCount: packages.count, manifestCount: manifestCount)
  }

  private static func hex(_ digest: some Sequence<UInt8>) -> String {
    digest.map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
  }
}
