import Foundation
import Git
import RippleConfig
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ripple init`'s failures.
public enum InitError: RippleError {
  /// Files init would replace, without `--force`.
  case wouldReplace([String])
  case outsideRepository(String)
  case cannotWrite(path: String, reason: String)
  /// A folder on the way to a file init writes is a symbolic link (`.github` committed as a link).
  case throughLink(path: String, link: String)

  public var category: ErrorCategory {
    switch self {
    case .wouldReplace, .outsideRepository, .throughLink: .usage
    case .cannotWrite: .environment
    }
  }

  public var description: String {
    switch self {
    case .wouldReplace(let paths):
      "\(paths.joined(separator: ", ")) already exist\(paths.count == 1 ? "s" : "") and ripple init would replace "
        + "\(paths.count == 1 ? "it" : "them"): see the difference with `ripple init --dry-run`, replace with `--force`."
    case .outsideRepository(let path):
      "ripple init writes only inside the repository, and \(path) is outside it."
    case .cannotWrite(let path, let reason):
      "cannot write \(path): \(reason); nothing was written. Make it writable and run ripple init again."
    case .throughLink(let path, let link):
      "ripple init does not write through links, and \(link) (on the way to \(path)) is a symbolic link; nothing "
        + "was written. Replace the link with a folder, or write \(path) yourself."
    }
  }
}

/// A folder bootstrap writes that git does not ignore, and who writes it.
public struct UnignoredFolder: Sendable, Hashable {
  public var path: String
  /// `asset audio`, `generate words`, or `Ripple's state`.
  public var writer: String
}

extension Workspace {
  /// The folders bootstrap writes (every asset and variant destination, every `generate:` destination, and
  /// `.build`, where Ripple keeps its state) that git does not ignore: what is installed there would show up as a
  /// change and widen every selection.
  public func unignoredBootstrapFolders(includingState: Bool = false) -> [UnignoredFolder] {
    var folders: [UnignoredFolder] = []
    for asset in configuration.assets.assets {
      for destination in asset.installDestinations {
        folders.append(.init(path: destination, writer: "asset \(asset.id)"))
      }
    }
    for entry in configuration.assets.generate {
      folders.append(.init(path: entry.destination, writer: "generate \(entry.id)"))
    }
    if includingState { folders.append(.init(path: ".build", writer: "Ripple's state")) }
    var seen: Set<String> = []
    return folders.filter { folder in
      let path = folder.path.hasPrefix("./") ? String(folder.path.dropFirst(2)) : folder.path
      // The folder itself, or everything in it (`dir/*`), counts as ignored.
      guard seen.insert(path).inserted else { return false }
      return !repository.isIgnored(path + "/") && !repository.isIgnored(path + "/.ripple-ignore-probe")
    }
  }

  /// Reads what `ripple init` needs and plans it (InitPlanner); writes nothing.
  public func planInit(ci: CIForge?) throws -> InitPlan {
    let files = try repository.workingTreeFiles()
    var manifests: [String: String] = [:]
    for path in files where InitPlanner.isManifest(path) {
      manifests[path] = Self.readInside(root: root, path: path)
    }
    let configPath = try relativeConfigPath()
    var existing: [String: String] = [:]
    for path in [configPath, ".gitignore"] + CIForge.allCases.map(\.destination) {
      if let text = Self.readInside(root: root, path: path) { existing[path] = text }
    }
    let input = InitInput(
      files: files, manifests: manifests, configPath: configPath, existing: existing,
      unignoredFolders: unignoredBootstrapFolders(includingState: true).map(\.path), ci: ci,
      remote: (try? repository.remoteURL()).flatMap { $0 })
    return try InitPlanner.plan(input)
  }

  /// The text of the regular file `path` (relative to `root`), read only when neither it nor a folder on the way
  /// is a symbolic link: a committed `.gitignore` link must not show an outside file in `--dry-run`'s diff.
  static func readInside(root: String, path: String) -> String? {
    guard linkOnTheWay(root: root, path: path) == nil else { return nil }
    var status = stat()
    guard lstat(root + "/" + path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    return try? String(contentsOfFile: root + "/" + path, encoding: .utf8)
  }

  /// The first folder between `root` and `path` (relative) that is a symbolic link, relative; nil when none is.
  static func linkOnTheWay(root: String, path: String) -> String? {
    let parts = path.split(separator: "/").dropLast()
    var relative = ""
    for part in parts {
      relative += (relative.isEmpty ? "" : "/") + part
      var status = stat()
      guard lstat(root + "/" + relative, &status) == 0 else { return nil }
      if (status.st_mode & S_IFMT) == S_IFLNK { return relative }
    }
    return nil
  }

  /// ripple.yml's path relative to the root: the loaded one, else `ripple.yml`.
  private func relativeConfigPath() throws -> String {
    guard let source = configuration.sourcePath else { return "ripple.yml" }
    let absolute = source.hasPrefix("/") ? source : FileManager.default.currentDirectoryPath + "/" + source
    let standardized = URL(fileURLWithPath: absolute).standardizedFileURL.path
    let base = URL(fileURLWithPath: root).standardizedFileURL.path
    guard standardized.hasPrefix(base + "/") else { throw InitError.outsideRepository(source) }
    return String(standardized.dropFirst(base.count + 1))
  }

  /// Writes a plan's changes all or nothing: every file is checked first, then each new text goes to a
  /// temporary file beside its destination, and only when all are written are they renamed into place.
  public func applyInit(_ plan: InitPlan) throws {
    let manager = FileManager.default
    for change in plan.changes { try Self.checkWritable(root: root, path: change.path) }
    var written: [(temporary: String, destination: String)] = []
    var createdFolders: [String] = []
    func undo() {
      for file in written { try? manager.removeItem(atPath: file.temporary) }
      for folder in createdFolders.reversed() { try? manager.removeItem(atPath: folder) }
    }
    for change in plan.changes {
      let destination = root + "/" + change.path
      let folder = (destination as NSString).deletingLastPathComponent
      var missing: [String] = []
      var probe = folder
      while !manager.fileExists(atPath: probe) {
        missing.append(probe)
        probe = (probe as NSString).deletingLastPathComponent
      }
      do {
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        createdFolders += missing.reversed()
        let temporary = folder + "/.\((change.path as NSString).lastPathComponent).ripple-init-\(getpid())"
        try Data(change.new.utf8).write(to: URL(fileURLWithPath: temporary))
        written.append((temporary, destination))
        // A replaced file keeps its permissions.
        if let mode = (try? manager.attributesOfItem(atPath: destination))?[.posixPermissions] {
          try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary)
        }
      } catch {
        undo()
        throw InitError.cannotWrite(path: change.path, reason: "\(error.localizedDescription)")
      }
    }
    // Renames within one folder do not fail for want of space or permission (both were checked or used above);
    // should one fail anyway, the files renamed before it stay replaced and the rest are left as they were.
    for file in written {
      guard rename(file.temporary, file.destination) == 0 else {
        let reason = String(cString: strerror(errno))
        undo()
        throw InitError.cannotWrite(path: String(file.destination.dropFirst(root.count + 1)), reason: reason)
      }
    }
  }

  /// An existing file must be writable by its mode (a read-only file is the owner's "do not change", which a
  /// rename would ignore, and root's access(2) too); a new one needs a writable folder.
  private static func checkWritable(root: String, path: String) throws {
    if let link = linkOnTheWay(root: root, path: path) { throw InitError.throughLink(path: path, link: link) }
    let absolute = root + "/" + path
    var status = stat()
    if lstat(absolute, &status) == 0 {
      guard (status.st_mode & S_IFMT) == S_IFREG else {
        throw InitError.cannotWrite(path: path, reason: "it is not a regular file")
      }
      guard status.st_mode & 0o222 != 0, access(absolute, W_OK) == 0 else {
        throw InitError.cannotWrite(path: path, reason: "it is read-only")
      }
      return
    }
    var folder = (absolute as NSString).deletingLastPathComponent
    while !FileManager.default.fileExists(atPath: folder) { folder = (folder as NSString).deletingLastPathComponent }
    guard access(folder, W_OK) == 0 else {
      throw InitError.cannotWrite(path: path, reason: "its folder \(folder) is not writable")
    }
  }
}
