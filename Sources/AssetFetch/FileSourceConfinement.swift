import Foundation

/// Which paths a `file` source may name.
public enum FileSourceScope: Sendable, Hashable {
  /// Any file the process can read: `ripple bootstrap` in a developer's own checkout.
  case anywhere
  /// Inside the repository or one of `folders` (absolute): rippled running a branch's ripple.yml, which must not
  /// copy the daemon's token or anything else rippled can read into a work tree its tests can read.
  case confined(folders: [String])
}

/// The checks of `FileSourceScope.confined`: first the path as written (no `~`, no `..`, absolute only inside a
/// listed folder), then, once it exists, its real path (every symlink resolved) inside the real path of the
/// repository or of a listed folder: a link in the repository may not lead out.
struct FileSourceConfinement {
  var repositoryRoot: String
  var folders: [String]

  /// The path to open for `written`, or the refusal.
  func allowedPath(_ written: String, assetID: String) throws(FetchError) -> String {
    let components = written.split(separator: "/", omittingEmptySubsequences: true)
    if written.hasPrefix("~") || components.contains("..") {
      throw refused(assetID, written, because: "it leaves the repository")
    }
    if written.hasPrefix("/") {
      let path = "/" + components.joined(separator: "/")
      guard folders.contains(where: { Self.isInside(path, $0) }) else {
        throw refused(assetID, written, because: "it is an absolute path outside the folders rippled.yml lists")
      }
      return path
    }
    return Self.trimmed(repositoryRoot) + "/" + components.joined(separator: "/")
  }

  /// Refuses an existing `path` whose real path lies outside the repository and the listed folders.
  func checkRealPath(of path: String, written: String, assetID: String) throws(FetchError) {
    let real = Self.realPath(path)
    let allowed = ([repositoryRoot] + folders).map(Self.realPath)
    guard allowed.contains(where: { Self.isInside(real, $0) }) else {
      throw refused(assetID, written, because: "a symbolic link leads it out of the repository")
    }
  }

  private func refused(_ asset: String, _ written: String, because reason: String) -> FetchError {
    let listed =
      folders.isEmpty ? "none are listed" : "listed: " + folders.joined(separator: ", ")
    return FetchError(
      .outsideAllowedFolders, assetID: asset,
      "asset '\(asset)': rippled refuses the file source \(written): \(reason). In rippled a `file` source must "
        + "lie inside the repository or in a folder of `runs.assetFolders` in rippled.yml (\(listed)); "
        + "move the file there or ask the operator to list its folder")
  }

  /// `path` is `folder` or below it (both absolute, without `..`).
  static func isInside(_ path: String, _ folder: String) -> Bool {
    let folder = trimmed(folder)
    return path == folder || path.hasPrefix(folder + "/") || folder.isEmpty
  }

  private static func trimmed(_ path: String) -> String {
    var path = path
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path == "/" ? "" : path
  }

  /// Every symlink resolved (`realpath(3)`); the path itself when it cannot be resolved.
  static func realPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
