import Affected
import Crypto
import Foundation
import Git
import PackageLoading
import PackageModel
import PassRecords
import RippleCore

/// What a key needs from the disk rather than from git (docs/DESIGN.md, "Pass records"): the bytes git does
/// not track in the folders of the targets a run builds (ignored sources, generated, bootstrapped and
/// secret outputs), links that leave the repository, submodules as checked out, the pins SwiftPM resolved
/// and the variables a manifest reads. Only the closures' folders are read.
struct KeyInputsOnDisk {
  var root: String
  var repository: GitRepository
  var digests: FileDigestCache
  var ignore: [Glob]

  /// Names never entered: build folders, git's, SwiftPM's.
  static let skippedFolders: Set<String> = [".build", ".git", ".swiftpm"]

  /// The git side with modes (`mode:id`), each gitlink as checked out, and the paths that cannot be keyed.
  func files() throws -> (files: [String: String], unkeyable: [String: String]) {
    var files: [String: String] = [:]
    var unkeyable: [String: String] = [:]
    for (path, entry) in try repository.workingTreeEntries() {
      switch entry.mode {
      case GitFileEntry.gitlink:
        guard let state = try? repository.submoduleState(path) else {
          files[path] = entry.keyValue
          continue
        }
        if state.dirty {
          unkeyable[path] = "the submodule \(path) has edits of its own (its content is no commit's)"
        }
        files[path] = state.checkedOut.map { "160000:" + $0 } ?? (entry.keyValue + " (not checked out)")
      case GitFileEntry.link:
        files[path] = entry.keyValue
        if let reason = leavesRepository(path) { unkeyable[path] = reason }
      default:
        files[path] = entry.keyValue
      }
    }
    return (files, unkeyable)
  }

  /// What git does not track in each target's folder, by content, and what makes a target unkeyable there.
  /// A folder of another target nested inside is that target's.
  func folderContents(of targets: Set<TargetRef>, in graph: PackageGraph, tracked: [String: String]) -> (
    contents: [TargetRef: KeyInputs], unkeyable: [TargetRef: [String]]
  ) {
    let targetFolders = Set(graph.packages.flatMap { $0.targets.map(\.directory) })
    var contents: [TargetRef: KeyInputs] = [:]
    var unkeyable: [TargetRef: [String]] = [:]
    for ref in targets.sorted(by: { $0.description < $1.description }) {
      guard let target = graph.package(at: ref.package)?.target(named: ref.name) else { continue }
      var inputs = KeyInputs()
      var problems: [String] = []
      walk(target.directory, own: target.directory, folders: targetFolders, tracked: tracked) { path, kind in
        switch kind {
        case .file:
          do {
            inputs.add("untracked", path, try digests.digest(of: root + "/" + path))
          } catch {
            problems.append("\(path) cannot be read (\(error)): its content is not known")
          }
        case .link(let destination):
          inputs.add("untracked-link", path, destination)
          if let reason = leavesRepository(path) { problems.append(reason) }
        }
      }
      if !inputs.entries.isEmpty { contents[ref] = inputs }
      if !problems.isEmpty { unkeyable[ref] = problems }
    }
    digests.save()
    return (contents, unkeyable)
  }

  enum Found { case file, link(String) }

  /// Every regular file and link under `folder` git does not know (`tracked` has every path it does),
  /// found with `lstat`: links are reported, never followed.
  private func walk(
    _ folder: String, own: String, folders: Set<String>, tracked: [String: String], visit: (String, Found) -> Void
  ) {
    let absolute = folder == "." ? root : root + "/" + folder
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else { return }
    for name in names.sorted() {
      let path = folder == "." ? name : folder + "/" + name
      var status = stat()
      guard lstat(root + "/" + path, &status) == 0 else { continue }
      switch status.st_mode & S_IFMT {
      case S_IFDIR:
        if Self.skippedFolders.contains(name) || (folders.contains(path) && path != own) { continue }
        walk(path, own: own, folders: folders, tracked: tracked, visit: visit)
      case S_IFREG where tracked[path] == nil && !ignore.contains(where: { $0.matches(path) }):
        visit(path, .file)
      case S_IFLNK where tracked[path] == nil && !ignore.contains(where: { $0.matches(path) }):
        let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + path)) ?? ""
        visit(path, .link(destination))
      default:
        continue
      }
    }
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
  func pins(ofPackage path: String) -> ContentKeys.Pins {
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

/// SHA-256 digests of files, trusted while a file's size, modification and change times and inode are those
/// it was hashed at (as git's index trusts a stat): a large ignored file is read once, not per run.
final class FileDigestCache: @unchecked Sendable {
  struct Stamp: Hashable {
    var size: Int64
    var modified: Int64
    var changed: Int64
    var inode: UInt64
  }

  let file: String?
  private var entries: [String: (Stamp, String)] = [:]
  private var dirty = false
  /// How many files were read and hashed (the stat cache's misses), for tests.
  private(set) var hashed = 0

  /// The time now (nanoseconds since 1970): a file changed within 2 s of it is hashed but not remembered.
  let now: @Sendable () -> Int64
  /// Reads and hashes one file (tests make it fail: as root every file is readable).
  let hash: @Sendable (String) throws -> String

  /// `file`: where the stamps are kept between runs (nil: this run only).
  init(
    file: String?, now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000_000) },
    hash: @escaping @Sendable (String) throws -> String = FileDigestCache.sha256
  ) {
    self.file = file
    self.now = now
    self.hash = hash
    guard let file, let text = try? String(contentsOfFile: file, encoding: .utf8) else { return }
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)
      guard fields.count == 6, let size = Int64(fields[0]), let modified = Int64(fields[1]),
        let changed = Int64(fields[2]), let inode = UInt64(fields[3]), fields[4].count == 64
      else { continue }
      entries[String(fields[5])] = (
        Stamp(size: size, modified: modified, changed: changed, inode: inode), String(fields[4])
      )
    }
  }

  static func stamp(_ status: stat) -> Stamp {
    #if os(macOS)
      let modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
      let changed = Int64(status.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(status.st_ctimespec.tv_nsec)
    #else
      let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
      let changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    #endif
    return Stamp(size: Int64(status.st_size), modified: modified, changed: changed, inode: UInt64(status.st_ino))
  }

  /// The file's SHA-256, hex. Throws when it cannot be read.
  func digest(of path: String) throws -> String {
    var status = stat()
    guard lstat(path, &status) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
    let stamp = Self.stamp(status)
    if let (known, digest) = entries[path], known == stamp { return digest }
    let digest = try hash(path)
    hashed += 1
    // A file changed within the last seconds may change again within the same timestamp (git's "racily
    // clean" case): hashed, not remembered.
    if now() - max(stamp.modified, stamp.changed) > 2_000_000_000 {
      entries[path] = (stamp, digest)
      dirty = true
    }
    return digest
  }

  /// The SHA-256 of a file's bytes, hex, read 1 MiB at a time.
  @Sendable static func sha256(_ path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    var hasher = SHA256()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
    return hasher.finalize().map { String(format: "%02x", $0) }.joined()
  }

  /// Writes the stamps back (atomically) when a file was hashed; a failure only costs a later re-read.
  func save() {
    guard dirty, let file else { return }
    var text = ""
    for (path, (stamp, digest)) in entries.sorted(by: { $0.key < $1.key })
    where !path.contains("\n") && !path.contains("\t") {
      text += "\(stamp.size)\t\(stamp.modified)\t\(stamp.changed)\t\(stamp.inode)\t\(digest)\t\(path)\n"
    }
    try? FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try? Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    dirty = false
  }
}
