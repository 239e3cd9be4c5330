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

  static func name(of path: String) -> Substring {
    guard let slash = path.lastIndex(of: "/") else { return Substring(path) }
    return path[path.index(after: slash)...]
  }
}

/// SwiftPM's choice between `Package.swift` and version-specific manifests.
///
/// `Package@swift-X.swift`, `Package@swift-X.Y.swift` and `Package@swift-X.Y.Z.swift` apply to
/// toolchains of that version or newer; SwiftPM reads the one with the highest version that is not
/// newer than the toolchain, else `Package.swift`.
public enum ManifestSelection {
  /// The file name (not path) of the manifest SwiftPM reads, given the file names of a package
  /// directory and the toolchain's Swift version (for example [6, 3, 1]).
  public static func select(fileNames: [String], toolchain: [Int]) -> String {
    var best: (version: [Int], name: String)?
    for name in fileNames {
      guard let version = version(ofManifest: name), compare(version, toolchain) <= 0 else { continue }
      if let current = best, compare(version, current.version) <= 0 { continue }
      best = (version, name)
    }
    return best?.name ?? "Package.swift"
  }

  /// Whether a file name (not a path) is `Package.swift` or a `Package@swift-X[.Y[.Z]].swift`.
  public static func isManifestName(_ name: String) -> Bool {
    name == "Package.swift" || version(ofManifest: name) != nil
  }

  /// The version of a `Package@swift-X[.Y[.Z]].swift` file name, nil for any other name.
  static func version(ofManifest name: String) -> [Int]? {
    let prefix = "Package@swift-"
    let suffix = ".swift"
    guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else {
      return nil
    }
    let text = name.dropFirst(prefix.count).dropLast(suffix.count)
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count) else { return nil }
    let numbers = parts.compactMap { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
    return numbers.count == parts.count ? numbers : nil
  }

  /// The numeric components of the first `Swift version X.Y[.Z]` in `swift --version` output.
  public static func swiftVersion(fromVersionOutput text: String) -> [Int]? {
    guard let range = text.range(of: "Swift version ") else { return nil }
    let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
    let numbers = digits.split(separator: ".").compactMap { Int($0) }
    return numbers.isEmpty ? nil : numbers
  }

  /// Compares versions as SwiftPM does, missing components being 0.
  private static func compare(_ lhs: [Int], _ rhs: [Int]) -> Int {
    for index in 0..<max(lhs.count, rhs.count) {
      let l = index < lhs.count ? lhs[index] : 0
      let r = index < rhs.count ? rhs[index] : 0
      if l != r { return l < r ? -1 : 1 }
    }
    return 0
  }
}
