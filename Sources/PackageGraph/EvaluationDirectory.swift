import Foundation
import RippleCore

/// A temporary directory for one batch of `dump-package` runs, removed afterwards.
///
/// `tree/` holds the manifests of a git revision at their repo-relative locations, so that
/// `dump-package` resolves `.package(path:)` exactly as it would in the repository. Only manifests
/// are written: `dump-package` needs neither the sources nor the directories of local dependencies.
///
/// `tmp/` is the children's TMPDIR: SwiftPM leaves a `TemporaryDirectory.*` and lock files named
/// after each package path in TMPDIR on every run, which would otherwise pile up in the user's.
struct EvaluationDirectory {
  let root: String
  var tree: String { root + "/tree" }
  var temporary: String { root + "/tmp" }

  init() throws(PackageGraphError) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-manifests-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: url.appendingPathComponent("tree"), withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
    } catch {
      throw .scratchDirectoryFailed(path: url.path, reason: "\(error)")
    }
    root = url.path
  }

  /// Writes every `Package.swift` and `Package@swift-….swift` of `packagePath` from `snapshot` into
  /// `tree/`, so that SwiftPM's choice of manifest is the same as in the revision.
  func writeManifests(of packagePath: String, from snapshot: TreeSnapshot) throws(PackageGraphError) {
    for file in PackageDiscovery.manifestFiles(in: packagePath, files: snapshot.files) {
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

  func remove() {
    try? FileManager.default.removeItem(atPath: root)
  }
}
