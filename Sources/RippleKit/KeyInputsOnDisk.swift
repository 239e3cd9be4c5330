import Affected
import Crypto
import Foundation
import Git
import PackageLoading
import PackageModel
import PassRecords
import RippleCore

/// What a key needs from the disk and from git's trees (docs/DESIGN.md, "Pass records"; issue 50): every file
/// given to a closure target, read from the disk in the closure's folders only (tracked or not, with modes;
/// blob ids through a stat cache, as git's index keeps them), links that leave the repository, submodules as
/// checked out, the global and unowned files from git's trees (digested folder by folder, cached by tree
/// id), the pins SwiftPM resolved and the variables a manifest reads.
struct KeyInputsOnDisk {
  var root: String
  var repository: GitRepository
  /// Where blob ids and tree digests are kept between runs (nil: this run only).
  var cacheFolder: String?
  var attribution: KeyAttribution
  /// Reads a file's blob id (tests make it fail: as root every file is readable).
  var hash: @Sendable (String) throws -> String = GitBlobID.ofFile
  /// The time now, for the stat cache's "racily clean" rule (tests move it on).
  var now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) }

  /// Names never entered: build folders, git's, SwiftPM's.
  static let skippedFolders: Set<String> = [".build", ".git", ".swiftpm"]

  /// Every file given to each of `targets`, as on disk (path → `mode:id`), the digest of each target's files
  /// (`FolderDigest.of`), and what makes a target unkeyable. Targets are walked on every core: a change of a base
  /// library keys thousands of closures, and their ~10⁵ `lstat`s and stat-cache reads are most of what its keys
  /// cost (issue 50). Each package's stat cache is one file, read once and written back only when a section of
  /// it changed.
  func targetFiles(of targets: Set<TargetRef>, in graph: PackageGraph) -> (
    files: [TargetRef: [String: String]], unkeyable: [TargetRef: [String]], digests: [TargetRef: String]
  ) {
    let refs = targets.sorted()
    let packages = Dictionary(graph.packages.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    let packagePaths = Array(Set(refs.map(\.package))).sorted()
    let caches = Dictionary(
      uniqueKeysWithValues: zip(
        packagePaths, packagePaths.concurrentMap { PackageStatCache(file: statCacheFile(of: $0)) }))
    let models = ContentKeys.targetModels(Set(packagePaths), in: packages)
    let walked = refs.concurrentMap { ref in
      models[ref].map { walkTarget(ref, $0, section: caches[ref.package]?.sections[ref.name]) }
    }
    var files: [TargetRef: [String: String]] = [:]
    var unkeyable: [TargetRef: [String]] = [:]
    var digests: [TargetRef: String] = [:]
    var rewritten: [String: [String: PackageStatCache.Written]] = [:]
    for (ref, result) in zip(refs, walked) {
      guard let result else { continue }
      if !result.files.isEmpty { files[ref] = result.files }
      if !result.problems.isEmpty { unkeyable[ref] = result.problems }
      if let digest = result.digest { digests[ref] = digest }
      if let section = result.changedSection { rewritten[ref.package, default: [:]][ref.name] = section }
    }
    let changed = rewritten.sorted { $0.key < $1.key }
    _ = changed.concurrentMap { path, sections in
      caches[path]?.save(replacing: sections, keeping: Set(packages[path]?.targets.map(\.name) ?? []))
    }
    return (files, unkeyable, digests)
  }

  /// What one target's walk found, and its stat-cache section when that must be written back.
  private struct WalkedTarget: Sendable {
    var files: [String: String]
    var problems: [String]
    var digest: String?
    var changedSection: PackageStatCache.Written?
  }

  /// One target's files (its folder's, and those its links and rules give it from outside), their digest, and
  /// why some cannot be keyed. When every file the walk found is one its section has, at the stat it has, and
  /// nothing else was found, the files are those the section's digest was made of: it is taken, not made again.
  private func walkTarget(_ ref: TargetRef, _ target: Target, section: PackageStatCache.Section?) -> WalkedTarget {
    let cache = FileDigestCache(entries: section?.lines ?? [], now: now, hash: hash, keepsOnlyAsked: true)
    var found: [String: String] = [:]
    found.reserveCapacity(cache.loaded)
    var problems: [String] = []
    var visited = 0
    // In its own folder, which the walk leaves where another owner's begins, every file's folder owner is the
    // folder's; outside it, each path finds its own.
    let owner = attribution.index.owner(of: target.directory)
    func visitor(inOwnFolder: Bool) -> (String, Result<String, FileProblem>) -> Void {
      { path, value in
        visited += 1
        let folderOwner = inOwnFolder ? owner : attribution.index.owner(of: path)
        guard attribution.counts(path, for: ref, folderOwner: folderOwner) else { return }
        switch value {
        case .success(let value): found[path] = value
        case .failure(let problem): problems.append(problem.reason)
        }
      }
    }
    walk(target.directory, own: target.directory, cache: cache, visit: visitor(inOwnFolder: true))
    for folder in attribution.outsideFolders(of: ref, directory: target.directory, links: target.linkedPaths ?? []) {
      walk(folder, own: nil, cache: cache, visit: visitor(inOwnFolder: false))
    }
    // Every visit a file the section has, each at its stat, each counted, and nothing else (a link, a submodule,
    // a problem, a file another rule keeps out): the files its summary was made of, when it has one.
    let asBefore = cache.unchanged && visited == cache.loaded && found.count == visited && problems.isEmpty
    if asBefore, let summary = section?.summary, summary.count == found.count {
      return WalkedTarget(files: found, problems: problems, digest: summary.digest, changedSection: nil)
    }
    let digest = FolderDigest.of(found)
    let lines = cache.entryLines()
    // A summary only for files that are exactly the stamps written: a file counted but not stamped (racily
    // clean, a link) and one stamped but not counted could otherwise leave as many files, and not the same.
    let exact = problems.isEmpty && found.count == visited && lines.count == visited
    let summary = exact ? PackageStatCache.Summary(digest: digest, count: found.count) : nil
    let changed = section == nil || cache.isDirty || cache.dropsEntries || section?.summary != summary
    return WalkedTarget(
      files: found, problems: problems, digest: digest,
      changedSection: changed ? PackageStatCache.Written(summary: summary, lines: lines) : nil)
  }

  /// Why a file's content is not known.
  struct FileProblem: Error {
    var reason: String
  }

  /// Every file, link and checked-out submodule under `folder` (or `folder` itself when it is one), with
  /// `mode:id`, found with `lstat`: links inside are reported, never followed (SwiftPM's links are the
  /// graph's `linkedPaths`, walked as folders of their own). A `folder` that is itself a link is followed
  /// when it stays inside the repository, and keyed as a link too. With `own`, folders where another
  /// target's files or another package begin are not entered.
  private func walk(
    _ folder: String, own: String?, cache: FileDigestCache, visit: (String, Result<String, FileProblem>) -> Void
  ) {
    var status = stat()
    let absolute = folder == "." ? root : root + "/" + folder
    guard lstat(absolute, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFLNK {
      guard let value = value(of: folder, status, cache: cache) else { return }
      visit(folder, value)
      guard case .success = value, stat(absolute, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return }
    } else if status.st_mode & S_IFMT != S_IFDIR {
      if let value = value(of: folder, status, cache: cache) { visit(folder, value) }
      return
    }
    walkFolder(folder, own: own, cache: cache, visit: visit)
  }

  private func walkFolder(
    _ folder: String, own: String?, cache: FileDigestCache, visit: (String, Result<String, FileProblem>) -> Void
  ) {
    let absolute = folder == "." ? root : root + "/" + folder
    guard let (names, unnamed, entries) = Self.entries(of: absolute) else { return }
    // A submodule (a folder with its own `.git`): the commit it has checked out.
    if folder != ".", names.contains(".git"), let state = try? repository.submoduleState(folder) {
      if state.dirty {
        visit(
          folder,
          .failure(FileProblem(reason: "the submodule \(folder) has edits of its own (its content is no commit's)")))
      } else {
        visit(folder, .success("160000:" + (state.checkedOut ?? "(not checked out)")))
      }
      return
    }
    if unnamed > 0 {
      visit(
        folder,
        .failure(
          FileProblem(
            reason: "\(folder) holds \(unnamed) name(s) that are not UTF-8: their content is not keyed")))
    }
    for (name, status) in entries {
      let path = folder == "." ? name : folder + "/" + name
      if status.st_mode & S_IFMT == S_IFDIR {
        if Self.skippedFolders.contains(name) { continue }
        if let own, attribution.startsAnotherOwner(path, own: own) { continue }
        walkFolder(path, own: own, cache: cache, visit: visit)
      } else if let value = value(of: path, status, cache: cache) {
        visit(path, value)
      }
    }
  }

  /// A folder's names (sorted), how many are not UTF-8, and each named entry's `lstat`, looked up in the open
  /// folder rather than by its whole path from the root (~10 folders deep). The folder is closed before the walk
  /// goes down: one descriptor per walk at a time (rippled runs keys beside hundreds of connections).
  private static func entries(of folder: String) -> (names: [String], notUTF8: Int, entries: [(String, stat)])? {
    guard let directory = opendir(folder) else { return nil }
    defer { closedir(directory) }
    let (names, unnamed) = Self.names(in: directory)
    let descriptor = dirfd(directory)
    var entries: [(String, stat)] = []
    entries.reserveCapacity(names.count)
    var status = stat()
    for name in names where fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
      entries.append((name, status))
    }
    return (names, unnamed, entries)
  }

  #if os(macOS)
    typealias OpenFolder = UnsafeMutablePointer<DIR>
  #else
    typealias OpenFolder = OpaquePointer
  #endif

  /// The names in an open folder, sorted, and how many are not UTF-8 (no path string can name them).
  private static func names(in directory: OpenFolder) -> (names: [String], notUTF8: Int) {
    var names: [String] = []
    var notUTF8 = 0
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
        Array(raw.prefix(while: { $0 != 0 }))
      }
      if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
      guard let text = String(validating: name, as: UTF8.self) else {
        notUTF8 += 1
        continue
      }
      names.append(text)
    }
    return (names.sorted(), notUTF8)
  }

  /// `mode:id` of a regular file or link as git would record it; nil for other kinds (sockets, FIFOs).
  private func value(of path: String, _ status: stat, cache: FileDigestCache) -> Result<String, FileProblem>? {
    switch status.st_mode & S_IFMT {
    case S_IFLNK:
      if let reason = leavesRepository(path) { return .failure(FileProblem(reason: reason)) }
      let text = (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)) ?? ""
      return .success("120000:" + GitBlobID.of(Array(text.utf8)))
    case S_IFREG:
      // git records the owner's execute bit only.
      let mode = status.st_mode & 0o100 != 0 ? "100755:" : "100644:"
      do {
        return .success(mode + (try cache.digest(of: root + "/" + path, status: status)))
      } catch {
        return .failure(FileProblem(reason: "\(path) cannot be read (\(error)): its content is not known"))
      }
    default:
      return nil
    }
  }

  /// The stat cache of blob ids of the files one package's targets are given (a section per target): a leaf's
  /// key reads its closure's packages' stamps, not the repository's. Named by the checkout's absolute path too,
  /// so two checkouts never rewrite each other's.
  private func statCacheFile(of package: String) -> String? {
    cacheFolder.map { "\($0)/blob-ids/\(GitBlobID.sha256(root + "\u{0}" + package)).tsv" }
  }

  /// The global and unowned files of every key (`KeyAttribution.Destination.everyone`): the digest of those
  /// of HEAD's tree, folder by folder (a folder whose tree id was digested before is not read again), and,
  /// for `edited` paths (what the run's comparison found changed in the working tree), their content on disk
  /// where it is not HEAD's. Throws when a tree is missing (a partial clone).
  func everyone(edited: [String]) throws -> KeyInputs {
    var inputs = KeyInputs()
    guard attribution.hasEveryone, let head = try? repository.headCommit() else { return inputs }
    let root = try repository.treeID(of: head)
    // The whole tree's digest is kept apart too: a run at a commit seen before reads one short file.
    let roots = cacheFolder.map { "\($0)/tree-digests/\(attribution.fingerprint).roots" }
    let rootCache = TreeDigestCache(file: roots)
    let digest: String?
    if let known = rootCache.digest(folder: ".", tree: root) {
      digest = known.isEmpty ? nil : known
    } else {
      let cache = TreeDigestCache(file: cacheFolder.map { "\($0)/tree-digests/\(attribution.fingerprint).tsv" })
      digest = try everyoneDigest(".", tree: root, cache: cache)
      cache.save()
      rootCache.remember(folder: ".", tree: root, digest: digest ?? "")
      rootCache.save(keeping: 64)
    }
    inputs.add("everyone", ".", digest ?? "(none)")
    inputs.add(contentsOf: everyoneEdits(edited, head: head))
    return inputs
  }

  /// The `edited` paths that count for every key and differ on disk from HEAD: their content now.
  private func everyoneEdits(_ edited: [String], head: ObjectID) -> KeyInputs {
    var inputs = KeyInputs()
    let cacheOfEdits = FileDigestCache(file: nil, hash: hash)
    for path in Set(edited).sorted() {
      guard case .everyone(let kind) = attribution.destination(of: path) else { continue }
      let committed = (try? repository.blobEntry(at: head, path: path)).flatMap { $0 }
      var status = stat()
      let onDisk: String?
      if lstat(root + "/" + path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
        switch value(of: path, status, cache: cacheOfEdits) {
        case .success(let value): onDisk = value
        case .failure(let problem): onDisk = "(unreadable: \(problem.reason))"
        case nil: onDisk = nil
        }
      } else {
        onDisk = nil
      }
      if onDisk != committed {
        inputs.add("everyone-edit", path, ContentKeys.everyoneValue(kind: kind, value: onDisk ?? "(deleted)"))
      }
    }
    return inputs
  }

  /// The reference the walk above is proven against (`RIPPLE_KEYS_BY_SCAN=1`, `make key-proof`): every file on
  /// disk and every file of HEAD's tree, given out by `ContentKeys.attribute`, nothing cached.
  func scanned(closure: Set<TargetRef>, edited: [String]) throws -> (
    files: [TargetRef: [String: String]], unkeyable: [TargetRef: [String]], everyone: KeyInputs
  ) {
    var onDisk: [String: String] = [:]
    var problems: [String: String] = [:]
    let uncached = FileDigestCache(file: nil, now: now, hash: hash)
    walkFolder(".", own: nil, cache: uncached) { path, value in
      switch value {
      case .success(let value): onDisk[path] = value
      case .failure(let problem): problems[path] = problem.reason
      }
    }
    let given = ContentKeys.attribute(onDisk, closure: closure, by: attribution, problems: problems)
    var everyone = KeyInputs()
    if attribution.hasEveryone, let head = try? repository.headCommit() {
      var committed: [String: String] = [:]
      func list(_ folder: String, _ tree: ObjectID) throws {
        for child in try repository.treeChildren(tree) {
          let path = folder == "." ? child.name : folder + "/" + child.name
          if child.isTree {
            try list(path, child.id)
          } else {
            committed[path] = String(child.mode, radix: 8) + ":" + child.id.hex
          }
        }
      }
      try list(".", try repository.treeID(of: head))
      everyone = ContentKeys.attribute(committed, closure: [], by: attribution).everyone
      everyone.add(contentsOf: everyoneEdits(edited, head: head))
    }
    return (given.targetFiles, given.unkeyable, everyone)
  }

  private func everyoneDigest(_ folder: String, tree: ObjectID, cache: TreeDigestCache) throws -> String? {
    if let known = cache.digest(folder: folder, tree: tree) { return known.isEmpty ? nil : known }
    var files: [(name: String, value: String)] = []
    var folders: [(name: String, digest: String)] = []
    for child in try repository.treeChildren(tree) {
      let path = folder == "." ? child.name : folder + "/" + child.name
      if child.isTree {
        if let digest = try everyoneDigest(path, tree: child.id, cache: cache) { folders.append((child.name, digest)) }
      } else if case .everyone(let kind) = attribution.destination(of: path) {
        files.append(
          (child.name, ContentKeys.everyoneValue(kind: kind, value: String(child.mode, radix: 8) + ":" + child.id.hex)))
      }
    }
    let digest = FolderDigest.combine(files: files, folders: folders)
    cache.remember(folder: folder, tree: tree, digest: digest ?? "")
    return digest
  }

  /// Why the link at `path` cannot be keyed: what it reaches is outside the repository, so no key can see
  /// it change. Nil for a link that stays inside (or leads nowhere yet).
  func leavesRepository(_ path: String) -> String? {
    let absolute = root + "/" + path
    guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: absolute),
      let resolved = realpath(absolute, nil)
    else { return nil }
    defer { free(resolved) }
    let real = String(cString: resolved)
    let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    if real == realRoot || real.hasPrefix(realRoot + "/") { return nil }
    return "\(path) links outside the repository (\(destination)): what it reaches is not keyed"
  }

  /// The pins SwiftPM resolved for the package at `path`: its `Package.resolved` on disk, tracked or not.
  func pins(ofPackage path: String) -> ContentKeys.Pins { Self.pins(ofPackage: path, root: root) }

  static func pins(ofPackage path: String, root: String) -> ContentKeys.Pins {
    let file = RepoPath.join(path, "Package.resolved")
    guard let data = FileManager.default.contents(atPath: root + "/" + file) else {
      return FileManager.default.fileExists(atPath: root + "/" + file)
        ? .unusable("\(file) cannot be read: its pins are not known") : .missing
    }
    do {
      return .pinned(try ResolvedFile.parse(Array(data), path: file).pins)
    } catch {
      return .unusable("\(file) cannot be used: \(error)")
    }
  }

  /// The variables each package's manifest reads by name that no `manifestEnvironments` entry sets: a build
  /// evaluates the manifest in the whole shell, so their values (here, now) enter the key.
  func manifestVariables(of packages: Set<String>, in graph: PackageGraph, named: Set<String>) -> [String: [String]] {
    var out: [String: [String]] = [:]
    for path in packages.sorted() {
      guard let package = graph.package(at: path),
        let data = FileManager.default.contents(atPath: root + "/" + RepoPath.join(path, package.manifestFile))
      else { continue }
      let read = ManifestEnvironment.variablesRead(bySource: String(decoding: data, as: UTF8.self))
        .subtracting(named).sorted()
      if !read.isEmpty { out[path] = read }
    }
    return out
  }
}
