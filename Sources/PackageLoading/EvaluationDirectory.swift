import Foundation
import PackageModel
import RippleCore

/// A temporary directory for one batch of `dump-package` runs, removed afterwards.
///
/// `checkout/<root name>/` holds the manifests of a git revision at their repo-relative locations, so
/// that `dump-package` resolves `.package(path:)` exactly as it would in the repository: the folder has
/// the checkout's own name because SwiftPM takes a path dependency's identity from its folder name
/// (`Benchmarks/Package.swift` with `.package(path: "../")` names the root package by it). Only
/// manifests are written: `dump-package` needs neither the sources nor the directories of local
/// dependencies.
///
/// `tmp/` is the children's TMPDIR: SwiftPM leaves a `TemporaryDirectory.*` and lock files named
/// after each package path in TMPDIR on every run, which would otherwise pile up in the user's.
struct EvaluationDirectory {
  let root: String
  /// Where the revision's manifests go: a folder named like the checkout.
  let tree: String
  var temporary: String { root + "/tmp" }

  init(rootName: String) throws(PackageGraphError) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-manifests-\(UUID().uuidString)")
    let name = rootName.isEmpty || rootName == "." || rootName == ".." || rootName.contains("/") ? "root" : rootName
    let tree = url.appendingPathComponent("checkout").appendingPathComponent(name)
    do {
      try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
    } catch {
      throw .scratchDirectoryFailed(path: url.path, reason: "\(error)")
    }
    root = url.path
    self.tree = tree.path
  }

  /// Writes `manifests` (every `Package.swift` and `Package@swift-….swift` of a package, repo-relative)
  /// from `snapshot` into `tree/`, so that SwiftPM's choice of manifest is the same as in the revision.
  func writeManifests(_ manifests: [String], from snapshot: TreeSnapshot) throws(PackageGraphError) {
    for file in manifests {
      let bytes = try snapshot.readRequired(file)
      let url = URL(fileURLWithPath: tree + "/" + file)
      do {
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
      } catch {
        throw .scratchDirectoryFailed(path: url.path, reason: "\(error)")
      }
    }
  }

  /// Writes the manifest at `manifest` (repo-relative) from `snapshot` as the only manifest of
  /// `packagePath` in a tree of its own (`variant-<n>/<root name>/`), so that SwiftPM reads exactly that
  /// file: how a manifest another Swift version would choose is evaluated. Returns that tree's root.
  func writeAlone(
    _ manifest: String, packagePath: String, variant: Int, from snapshot: TreeSnapshot
  ) throws(PackageGraphError) -> String {
    let bytes = try snapshot.readRequired(manifest)
    let variantTree = root + "/variant-\(variant)/" + URL(fileURLWithPath: tree).lastPathComponent
    let url = URL(fileURLWithPath: variantTree + "/" + RepoPath.join(packagePath, "Package.swift"))
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
    } catch {
      throw .scratchDirectoryFailed(path: url.path, reason: "\(error)")
    }
    return variantTree
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: root)
  }
}
