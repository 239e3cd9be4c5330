import Foundation
import RippleConfig
import RippleCore
import SystemClients

/// One LFS pointer of the repository: a tracked file whose committed content names an object.
struct LFSPointer: Sendable, Hashable {
  /// Repo-relative path of the tracked file.
  var path: String
  /// Lowercase hex SHA-256 of the object.
  var oid: String
  var size: Int64
}

/// The git-lfs questions and fetches of an `lfs` source, through the git-lfs CLI (argv, no shell).
///
/// git-lfs keeps fetched objects in its local store (`.git/lfs/objects`), which is this source's cache:
/// objects already there are used without any network, and `git lfs fetch` runs only for missing ones.
struct LFSStore: Sendable {
  var process: ProcessClient
  var repositoryRoot: String
  var environment: [String: String]

  var gitLFSAvailable: Bool { ToolLocator.find("git-lfs", path: environment["PATH"]) != nil }

  /// The pointers `source.paths` select: every tracked file matching a glob must be a pointer, and each
  /// glob must match at least one.
  func pointers(_ source: LFSSource, assetID: String) async throws -> [LFSPointer] {
    let tracked = try await git(["-c", "core.quotepath=off", "ls-files", "-z", "--cached"])
      .split(separator: "\0").map(String.init)
    let json = try await git(["lfs", "ls-files", "--json"])
    var known: [String: LFSPointer] = [:]
    let listing = try? JSONDecoder().decode(LFSListing.self, from: Data(json.utf8))
    for file in listing?.files ?? [] where file.oid_type == "sha256" {
      known[file.name] = LFSPointer(path: file.name, oid: file.oid.lowercased(), size: file.size)
    }
    var result: [LFSPointer] = []
    var errors: [AssetsError] = []
    for glob in source.paths {
      let matching = tracked.filter { glob.matches($0) }
      if matching.isEmpty { errors.append(.lfsPathsMatchedNothing(asset: assetID, glob: glob.pattern)) }
      for path in matching where !result.contains(where: { $0.path == path }) {
        guard let pointer = known[path] else {
          errors.append(.notAnLFSPointer(asset: assetID, path: path))
          continue
        }
        result.append(pointer)
      }
    }
    if let error = AssetsError.combine(errors) { throw error }
    return result.sorted { $0.path < $1.path }
  }

  /// What `git lfs env` says: where git-lfs keeps objects, and the LFS endpoint it fetches from.
  struct Environment: Sendable {
    /// `LocalMediaDir`.
    var mediaDirectory: String
    /// `Endpoint`, without its `(auth=…)` note; nil when git-lfs names none.
    var endpoint: String?

    init(parsing output: String, repositoryRoot: String) throws {
      var media: String?
      for line in output.split(separator: "\n") {
        if line.hasPrefix("LocalMediaDir=") { media = String(line.dropFirst("LocalMediaDir=".count)) }
        if line.hasPrefix("Endpoint="), endpoint == nil {
          let value = line.dropFirst("Endpoint=".count)
          endpoint = String(value.split(separator: " (auth=").first ?? value)
        }
      }
      guard let media else {
        throw AssetsError.fileSystem(
          operation: "find git-lfs's local store of", path: repositoryRoot,
          reason: "`git lfs env` names no LocalMediaDir")
      }
      mediaDirectory = media
    }

    /// Why a failed fetch failed, when git-lfs itself only says "EOF": a `file://` endpoint (`lfs.url`) must
    /// name a git repository, bare or not, which git-lfs's standalone file transfer stores objects in.
    var endpointProblem: String? {
      guard let endpoint, endpoint.hasPrefix("file://"), let path = URL(string: endpoint)?.path, !path.isEmpty else {
        return nil
      }
      let isRepository = FileIO.exists(path + "/HEAD") || FileIO.exists(path + "/.git")
      return isRepository
        ? nil
        : "the LFS endpoint \(Redaction.url(endpoint)) (lfs.url) is not a git repository; create it with `git init --bare`"
    }
  }

  func lfsEnvironment() async throws -> Environment {
    try Environment(parsing: try await git(["lfs", "env"]), repositoryRoot: repositoryRoot)
  }

  static func objectPath(_ oid: String, in media: String) -> String {
    media + "/" + oid.prefix(2) + "/" + oid.dropFirst(2).prefix(2) + "/" + oid
  }

  /// `git lfs fetch --include=…` for the source's globs; returns git-lfs's last error line when it fails
  /// (objects it could not get are reported per file by the caller), redacted: git-lfs quotes the remote, and
  /// `lfs.url` or the remote may carry `user:password@` or a token.
  func fetch(_ source: LFSSource) async throws -> String? {
    let include = source.paths.map(\.pattern).joined(separator: ",")
    let result = try await process.run(
      ProcessRequest("git", ["lfs", "fetch", "--include=" + include], workingDirectory: repositoryRoot))
    guard !result.succeeded else { return nil }
    return result.errorString.split(separator: "\n").last.map { Redaction.text(String($0)) }
      ?? "exit status \(result.exitStatus)"
  }

  private func git(_ arguments: [String]) async throws -> String {
    let result = try await process.run(ProcessRequest("git", arguments, workingDirectory: repositoryRoot))
    guard result.succeeded else { throw ProcessError.failed(result) }
    return result.outputString
  }

  /// `git lfs ls-files --json` (git-lfs 3.0 and later).
  private struct LFSListing: Decodable {
    struct File: Decodable {
      var name: String
      var size: Int64
      var oid_type: String
      var oid: String
    }
    var files: [File]?
  }
}

extension LFSSource {
  /// Where each pointer's file goes inside the destination (after `stripComponents`, then `flatten`);
  /// files with no components left are skipped, and two with one flat name are an error naming both.
  func installedNames(_ pointers: [LFSPointer], assetID: String) throws -> [(pointer: LFSPointer, name: String)] {
    var result: [(pointer: LFSPointer, name: String)] = []
    var seen: [String: String] = [:]
    for pointer in pointers {
      let parts = pointer.path.split(separator: "/").dropFirst(stripComponents)
      guard let last = parts.last else { continue }
      let name = flatten ? String(last) : parts.joined(separator: "/")
      if flatten, let earlier = seen[name.lowercased()] {
        throw AssetsError.flattenCollision(asset: assetID, first: earlier, second: pointer.path)
      }
      seen[name.lowercased()] = pointer.path
      result.append((pointer, name))
    }
    return result
  }

  /// A digest of every selected pointer and of how files are named: the asset's `sha256` for receipts.
  static func digest(_ pointers: [LFSPointer], source: LFSSource) -> String {
    var parts = ["lfs-v1", "\(source.stripComponents)", source.flatten ? "flat" : "tree"]
    for pointer in pointers { parts += [pointer.path, pointer.oid, "\(pointer.size)"] }
    return FileHasher.sha256(of: Data(parts.joined(separator: "\u{1F}").utf8))
  }
}

extension Bootstrapper {
  var lfsStore: LFSStore {
    LFSStore(process: process, repositoryRoot: options.repositoryRoot, environment: options.environment)
  }

  /// Lists the pointers of every `lfs` asset (git-lfs must be installed) and pins the asset to them.
  func withLFSPointers(_ plans: [AssetPlan]) async throws -> [AssetPlan] {
    var errors: [AssetsError] = []
    var result: [AssetPlan] = []
    for var plan in plans {
      if case .lfs(let source) = plan.spec.source {
        guard lfsStore.gitLFSAvailable else {
          errors.append(.lfsMissing(asset: plan.spec.id))
          continue
        }
        do {
          let pointers = try await lfsStore.pointers(source, assetID: plan.spec.id)
          plan.lfs = pointers
          plan.spec.sha256 = LFSSource.digest(pointers, source: source)
        } catch let error as AssetsError {
          errors.append(error)
          continue
        }
      }
      result.append(plan)
    }
    if let error = AssetsError.combine(errors) { throw error }
    return result
  }

  /// Each pointer's object, from git-lfs's store (fetched first when some are missing and not
  /// `--offline`), verified against its oid and copied into `work`; returns the files written.
  func copyLFS(_ pointers: [LFSPointer], source: LFSSource, assetID: String, into work: String) async throws
    -> [String]
  {
    let store = lfsStore
    let lfs = try await store.lfsEnvironment()
    let media = lfs.mediaDirectory
    var fetchProblem: String?
    if !options.offline, pointers.contains(where: { !FileIO.exists(LFSStore.objectPath($0.oid, in: media)) }) {
      fetchProblem = try await store.fetch(source).map { problem in lfs.endpointProblem ?? problem }
    }
    var files: [String] = []
    for (pointer, name) in try source.installedNames(pointers, assetID: assetID) {
      let object = LFSStore.objectPath(pointer.oid, in: media)
      guard FileIO.exists(object) else {
        let reason =
          options.offline
          ? "--offline does not fetch it"
          : "`git lfs fetch` could not get it" + (fetchProblem.map { " (\($0))" } ?? "")
        throw AssetsError.lfsObjectUnavailable(asset: assetID, path: pointer.path, reason: reason)
      }
      let (actual, size) = try FileHasher.sha256(of: object)
      guard actual == pointer.oid, size == pointer.size else {
        throw AssetsError.checksumMismatch(
          asset: assetID, expected: pointer.oid, actual: actual, origin: "git-lfs's store (for \(pointer.path))")
      }
      let target = work + "/" + name
      try hooks.beforeWrite?(target)
      try FileIO.createDirectory(PathParts.parent(target))
      do {
        try FileManager.default.copyItem(atPath: object, toPath: target)
      } catch {
        throw AssetsError.fileSystem(operation: "copy \(object) to", path: target, reason: error.localizedDescription)
      }
      chmod(target, 0o644)
      files.append(name)
    }
    return files
  }
}
