import PackageModel
import RippleCore

/// Finds the packages of a tree and the manifests SwiftPM would read for each.
enum PackageDiscovery {
  /// One package: its directory and every manifest file in it.
  struct Found: Sendable {
    var directory: String
    var manifests: [ManifestFile]
  }

  /// Every directory holding a `Package.swift`, minus any path with a `.build` component and the
  /// directories matching `excludePackages`, with the manifests beside it. Sorted, "." for the root.
  static func packages(in manifests: [ManifestFile], excludePackages: [Glob]) -> [Found] {
    var byDirectory: [String: [ManifestFile]] = [:]
    for manifest in manifests where isManifestPath(manifest.path) {
      byDirectory[RepoPath.parent(manifest.path), default: []].append(manifest)
    }
    var result: [Found] = []
    for (directory, files) in byDirectory where files.contains(where: { name(of: $0.path) == "Package.swift" }) {
      if excludePackages.contains(where: { $0.matches(directory) }) { continue }
      result.append(Found(directory: directory, manifests: files.sorted { $0.path < $1.path }))
    }
    return result.sorted { $0.directory < $1.directory }
  }

  /// Whether `path` is a manifest SwiftPM may read (`Package.swift`, `Package@swift-….swift`) outside
  /// any `.build` directory.
  static func isManifestPath(_ path: String) -> Bool {
    let name = name(of: path)
    guard name == "Package.swift" || ManifestSelection.version(ofManifest: String(name)) != nil else { return false }
    return !path.split(separator: "/").contains(".build")
  }

  static func name(of path: String) -> Substring { RepoPath.name(path) }
}
