import Affected
import ConfigLoading
import Foundation
import PackageLoading
import RippleConfig

/// Reads `ripple.yml` from both sides of a change for the asset rule (docs/DESIGN.md, rule 11): the
/// file the config was loaded from, at the base commit and at the head (commit or working tree).
enum AssetManifestLoading {
  /// Nil when no config file was read or it lies outside the repository (rule 8 then decides).
  static func load(
    configuration: RippleConfiguration, repositoryRoot: String, base: TreeSnapshot, head: TreeSnapshot
  ) -> AssetManifests? {
    guard let source = configuration.sourcePath, let path = relativePath(source, root: repositoryRoot) else {
      return nil
    }
    return AssetManifests(configPath: path, base: parse(path, in: base), head: parse(path, in: head))
  }

  /// The config on one side: the defaults when the file is missing there, nil when it cannot be read or
  /// does not parse (an old revision may hold a config this version rejects).
  static func parse(_ path: String, in tree: TreeSnapshot) -> RippleConfiguration? {
    let bytes: [UInt8]?
    do {
      bytes = try tree.read(path)
    } catch {
      return nil
    }
    guard let bytes else { return RippleConfiguration() }
    return try? ConfigLoader.parse(String(decoding: bytes, as: UTF8.self), path: path)
  }

  /// `source` (absolute, or relative to the current directory for `--config`) relative to `root`.
  static func relativePath(_ source: String, root: String) -> String? {
    let absolute =
      source.hasPrefix("/") ? source : FileManager.default.currentDirectoryPath + "/" + source
    let resolvedRoot = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
    let resolved = URL(fileURLWithPath: absolute).standardizedFileURL.resolvingSymlinksInPath().path
    guard resolved.hasPrefix(resolvedRoot + "/") else { return nil }
    return String(resolved.dropFirst(resolvedRoot.count + 1))
  }
}
