import Foundation
import RippleConfig

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder no destination may be in, hold or be, found on disk rather than in the config: the git
/// folders git reports (git dir, common dir, hooks path), Ripple's cache when it is inside the repository.
struct ProtectedFolder: Sendable, Hashable {
  var path: String
  /// e.g. "git's hooks folder".
  var what: String
}

/// The file-system checks of a plan, run before any download and before the repository lock: no
/// destination (or secret output) reaches outside the repository or into a protected path
/// (`ProtectedPaths`, git folders named by `gitdir:` files) through a symlink, and no two assets install
/// into the same or nested folders (they could write the same file, which only shows after downloading).
/// Each error names the config line of the path.
enum PlanValidator {
  static func validate(
    _ plans: [AssetPlan], secrets: [SecretSpec], generate: [GenerateSpec] = [], repositoryRoot: String,
    protected: [ProtectedFolder] = []
  ) -> [AssetsError] {
    var errors: [AssetsError] = []
    guard let root = resolve(repositoryRoot) else {
      return [.fileSystem(operation: "resolve", path: repositoryRoot, reason: "the repository folder is missing")]
    }
    let protected = protected.compactMap { folder in
      resolveExisting(folder.path).map { ProtectedFolder(path: $0, what: folder.what) }
    }
    var claimed: [(owner: String, path: String, shown: String)] = []
    /// The resolved path of a written destination, or nil after recording why it is refused.
    func writable(_ path: String, owner: String, at location: ConfigLocation?) -> String? {
      guard let resolved = inside(path, root: root, repositoryRoot: repositoryRoot) else {
        errors.append(
          .destinationOutsideRepository(
            owner: owner, path: path, resolved: resolveExisting(repositoryRoot + "/" + path) ?? "?", at: location))
        return nil
      }
      if let reason = protection(of: resolved, shown: path, root: root, protected: protected) {
        errors.append(.protectedDestination(owner: owner, path: path, reason: reason, at: location))
        return nil
      }
      return resolved
    }
    for plan in plans {
      for destination in plan.destinations {
        let owner = "asset `\(plan.spec.id)`"
        guard let resolved = writable(destination, owner: owner, at: plan.spec.origins[destination]) else { continue }
        if let other = claimed.first(where: { overlaps($0.path, resolved) }) {
          errors.append(.overlappingDestinations(first: other.owner, second: owner, path: destination))
        }
        claimed.append((owner, resolved, destination))
      }
    }
    // Generate entries may share a folder with each other and with assets: a file two of them write is
    // refused at install time (`sharedOutputFile`), when the files are known.
    for entry in generate {
      _ = writable(entry.destination, owner: "generate entry `\(entry.id)`", at: entry.origins[entry.destination])
    }
    for secret in secrets {
      let owner = "secret `\(secret.id)`"
      if let resolved = writable(secret.output, owner: owner, at: secret.origins[secret.output]),
        let other = claimed.first(where: { overlaps($0.path, resolved) })
      {
        errors.append(.overlappingDestinations(first: other.owner, second: owner, path: secret.output))
      }
      for path in [secret.template] + (secret.example.map { [$0] } ?? [])
      where inside(path, root: root, repositoryRoot: repositoryRoot) == nil {
        errors.append(
          .destinationOutsideRepository(
            owner: owner, path: path, resolved: resolveExisting(repositoryRoot + "/" + path) ?? "?",
            at: secret.origins[path]))
      }
    }
    return errors
  }

  /// Why nothing may be written at `resolved` (a real path inside `root`), or nil.
  private static func protection(of resolved: String, shown: String, root: String, protected: [ProtectedFolder])
    -> String?
  {
    guard resolved != root else { return "`\(shown)` resolves to the repository root itself (through a symlink)" }
    let relative = String(resolved.dropFirst(root.count + 1))
    if let problem = ProtectedPaths.problem(in: relative) {
      return relative == shown ? problem : "`\(shown)` resolves to `\(relative)` (through a symlink): \(problem)"
    }
    for folder in protected + gitFolders(along: relative, root: root) where overlaps(folder.path, resolved) {
      return "`\(shown)` is, holds or lies in \(folder.what) \(folder.path)"
    }
    var folder = root
    for part in relative.split(separator: "/") {
      folder += "/" + part
      if isGitDirectory(folder) { return "`\(shown)` is or lies in the git folder \(folder)" }
    }
    return nil
  }

  /// What git itself takes for a git folder, whatever its name (a submodule's or work tree's `gitdir:`
  /// may point anywhere): `HEAD`, `objects/` and `refs/`.
  private static func isGitDirectory(_ path: String) -> Bool {
    FileIO.exists(path + "/HEAD") && !FileIO.isDirectory(path + "/HEAD") && FileIO.isDirectory(path + "/objects")
      && FileIO.isDirectory(path + "/refs")
  }

  /// The git folders named by `.git` files (`gitdir: …`, as in work trees and submodules) in the root and
  /// in each folder on the way to `relative`, with their common folders (where hooks live).
  static func gitFolders(along relative: String, root: String) -> [ProtectedFolder] {
    var folders: [ProtectedFolder] = []
    var folder = root
    for part in [""] + relative.split(separator: "/").map(String.init) {
      if !part.isEmpty { folder += "/" + part }
      let dotGit = folder + "/.git"
      guard !FileIO.isDirectory(dotGit), let gitDir = pointer(in: dotGit, key: "gitdir:", base: folder) else {
        continue
      }
      folders.append(ProtectedFolder(path: gitDir, what: "the git folder named by \(dotGit)"))
      if let common = pointer(in: gitDir + "/commondir", key: nil, base: gitDir) {
        folders.append(ProtectedFolder(path: common, what: "the git folder named by \(dotGit)"))
      }
    }
    return folders
  }

  /// The real path a git pointer file names (`gitdir: PATH`, or the whole text), relative to `base`.
  private static func pointer(in file: String, key: String?, base: String) -> String? {
    guard let data = FileManager.default.contents(atPath: file) else { return nil }
    var text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if let key {
      guard text.hasPrefix(key) else { return nil }
      text = text.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
    }
    guard !text.isEmpty else { return nil }
    return resolveExisting(text.hasPrefix("/") ? text : base + "/" + text)
  }

  private static func overlaps(_ a: String, _ b: String) -> Bool {
    a == b || a.hasPrefix(b + "/") || b.hasPrefix(a + "/")
  }

  /// The real path of `relative` (its existing part resolved, the rest appended) when it stays inside
  /// the real repository root.
  private static func inside(_ relative: String, root: String, repositoryRoot: String) -> String? {
    guard let resolved = resolveExisting(repositoryRoot + "/" + relative) else { return nil }
    return resolved == root || resolved.hasPrefix(root + "/") ? resolved : nil
  }

  /// `realpath` of the longest existing prefix, with the missing components appended.
  static func resolveExisting(_ path: String) -> String? {
    var existing = path
    var missing: [String] = []
    while !FileIO.exists(existing) {
      missing.insert(PathParts.name(existing), at: 0)
      let parent = PathParts.parent(existing)
      if parent == existing || parent.isEmpty { return nil }
      existing = parent
    }
    guard let real = resolve(existing) else { return nil }
    return ([real] + missing).joined(separator: "/")
  }

  static func resolve(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}
