import Foundation
import RippleCore

/// A temporary directory holding the manifests of a git revision at their repo-relative locations,
/// so that `dump-package` resolves `.package(path:)` exactly as it would in the repository.
///
/// Only manifests are written: `dump-package` does not need the sources or the directories of local
/// dependencies.
struct ScratchTree {
  let root: String

  init() throws(PackageGraphError) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-manifests-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      throw .scratchDirectoryFailed(path: url.path, reason: "\(error)")
    }
    root = url.path
  }

  /// Writes every `Package.swift` and `Package@swift-….swift` of `packagePath` from `tree`, so that
  /// SwiftPM's choice of manifest is the same as in the revision.
  func writeManifests(of packagePath: String, from tree: TreeSnapshot) throws(PackageGraphError) {
    for file in PackageDiscovery.manifestFiles(in: packagePath, files: tree.files) {
      let bytes: [UInt8]
      do {
        guard let contents = try tree.read(file) else {
          throw PackageGraphError.unreadableFile(path: file, revision: tree.label, reason: "the file is missing")
        }
        bytes = contents
      } catch let error as PackageGraphError {
        throw error
      } catch {
        throw .unreadableFile(path: file, revision: tree.label, reason: "\(error)")
      }
      let url = URL(fileURLWithPath: root + "/" + file)
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
