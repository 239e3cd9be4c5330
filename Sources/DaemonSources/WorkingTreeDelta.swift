import Crypto
import Foundation
import Git
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A working tree described as its HEAD commit plus the files whose content differs from HEAD (staged,
/// unstaged, untracked). Built once by a status scan (start-up, HEAD or index moved, a watcher rescan), then
/// kept current from the paths the watcher reports: a save costs the saved files, not the tree
/// (docs/ARCHITECTURE.md, section 5).
package struct WorkingTreeDelta: Sendable, Equatable {
  /// A file as the working tree holds it: absent (or a directory), or git's blob id of its content.
  enum Content: Sendable, Hashable {
    case absent
    case blob(ObjectID)
  }

  package var head: ObjectID
  /// Only files that differ from HEAD.
  private(set) var differing: [String: Content]

  /// The working tree of `repository` against `head`: one status scan.
  static func scan(_ repository: GitRepository, head: ObjectID) throws -> WorkingTreeDelta {
    var delta = WorkingTreeDelta(head: head, differing: [:])
    for change in try repository.changesToWorkingTree(from: head) {
      for path in change.touchedPaths {
        let content = try current(path, in: repository)
        if try content != headContent(path, head: head, in: repository) { delta.differing[path] = content }
      }
    }
    return delta
  }

  /// Looks again at `paths` (files or directories relative to the work tree, as a watcher reports them).
  /// A path that is gone also stands for what HEAD or this delta had below it (a folder moved away);
  /// a folder's own files are reported one by one, so a directory on disk only says that no file is there.
  mutating func update(_ paths: some Sequence<String>, in repository: GitRepository) throws {
    for path in try Self.expand(paths, head: head, known: differing.keys, in: repository) {
      let content = try Self.current(path, in: repository)
      let committed = try Self.headContent(path, head: head, in: repository)
      // An ignored file that HEAD does not track is not part of the working tree (git status agrees).
      if content == committed || (committed == .absent && repository.isIgnored(path)) {
        differing[path] = nil
      } else {
        differing[path] = content
      }
    }
  }

  /// `paths` plus, for each one that is not on disk, the files HEAD and `known` have below it.
  static func expand(
    _ paths: some Sequence<String>, head: ObjectID, known: some Collection<String>, in repository: GitRepository
  ) throws -> Set<String> {
    var result = Set<String>()
    for path in paths {
      result.insert(path)
      var status = stat()
      if let root = repository.workdir, lstat(root + "/" + path, &status) == 0 { continue }
      result.formUnion(try repository.files(at: head, under: path))
      result.formUnion(known.filter { $0.hasPrefix(path + "/") })
    }
    return result
  }

  /// Equal fingerprints: the same working tree, as a run could tell.
  var fingerprint: String {
    var text = head.hex + "\n"
    for (path, content) in differing.sorted(by: { $0.key < $1.key }) {
      switch content {
      case .absent: text += "D \(path)\n"
      case .blob(let id): text += "\(id.hex) \(path)\n"
      }
    }
    return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// What changed from `base` to this working tree: the commits from `base` to HEAD (a diff that descends
  /// only into differing trees), with every path the working tree touches compared again by content.
  /// Renames between commits are kept; in the working tree, a rename is a deletion plus an addition.
  package func changes(from base: ObjectID, in repository: GitRepository) throws -> [ChangedFile] {
    let committed = base == head ? [] : try repository.changes(from: base, to: head)
    var again = Set(differing.keys)
    var result: [ChangedFile] = []
    for change in committed {
      if change.touchedPaths.contains(where: { differing[$0] != nil }) {
        again.formUnion(change.touchedPaths)
      } else {
        result.append(change)
      }
    }
    for path in again {
      let old: Content = try repository.blobID(at: base, path: path).map { .blob($0) } ?? .absent
      let new = try differing[path] ?? Self.headContent(path, head: head, in: repository)
      switch (old, new) {
      case _ where old == new: continue
      case (.absent, _): result.append(ChangedFile(path: path, status: .added))
      case (_, .absent): result.append(ChangedFile(path: path, status: .deleted))
      default: result.append(ChangedFile(path: path, status: .modified))
      }
    }
    return result.sorted()
  }

  /// What the work tree holds at `path`.
  static func current(_ path: String, in repository: GitRepository) throws -> Content {
    guard let id = try repository.workingTreeBlobID(path) else { return .absent }
    return .blob(id)
  }

  static func headContent(_ path: String, head: ObjectID, in repository: GitRepository) throws -> Content {
    try repository.blobID(at: head, path: path).map { .blob($0) } ?? .absent
  }
}
