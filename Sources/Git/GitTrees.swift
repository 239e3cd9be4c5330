import Clibgit2
import Foundation

/// A symbolic link of a tree: its path and the text git stores as its content (where it leads).
public struct GitSymbolicLink: Sendable, Hashable {
  public var path: String
  public var destination: String

  public init(path: String, destination: String) {
    self.path = path
    self.destination = destination
  }
}

/// A file of a tree with git's id for its content.
public struct GitTreeFile: Sendable, Hashable {
  /// Repo-relative, `/`-separated, as git stores it.
  public var path: String
  /// The blob's id: git already hashed the bytes, so a cache can key on it without reading them.
  public var id: ObjectID

  public init(path: String, id: ObjectID) {
    self.path = path
    self.id = id
  }
}

/// Questions about one commit's tree that cost what they look at, not the size of the tree
/// (docs/ARCHITECTURE.md, section 2: the warm path).
extension GitRepository {
  /// The id of the root tree of `commit`: equal ids mean equal contents, whatever the commit.
  public func treeID(of commit: ObjectID) throws -> ObjectID {
    try withRepository { repo in
      let tree = try tree(of: commit, repo)
      defer { git_tree_free(tree) }
      return ObjectID(git_tree_id(tree))
    }
  }

  /// Every blob of the tree of `commit` whose name satisfies `isWanted`, with its id, sorted by path.
  /// Directories named in `skipping` are not entered. Only matching names become Swift strings: this walks
  /// every tree of the commit once (the cold path; callers cache the answer by `treeID(of:)`).
  public func blobs(
    at commit: ObjectID, named isWanted: (String) -> Bool, prefix: String, skipping: Set<String>
  ) throws -> [GitTreeFile] {
    try withRepository { repo in
      let tree = try tree(of: commit, repo)
      defer { git_tree_free(tree) }
      let walk = BlobWalk(prefix: Array(prefix.utf8), skipping: skipping.map { Array($0.utf8) })
      let code = Self.walk(tree, walk)
      try check(code, "list the files of \(commit.short)")
      return walk.found.filter { isWanted($0.name) }.map { GitTreeFile(path: $0.path, id: $0.id) }
        .sorted { $0.path < $1.path }
    }
  }

  /// Every symbolic link (mode 120000) of the tree of `commit` with the text it holds, sorted by path.
  /// Directories named in `skipping` are not entered. One walk of the tree, strings only for links (the
  /// cold path; callers cache the answer by `treeID(of:)`).
  public func symbolicLinks(at commit: ObjectID, skipping: Set<String>) throws -> [GitSymbolicLink] {
    try withRepository { repo in
      let tree = try tree(of: commit, repo)
      defer { git_tree_free(tree) }
      let walk = BlobWalk(prefix: [], skipping: skipping.map { Array($0.utf8) }, mode: GIT_FILEMODE_LINK)
      let code = Self.walk(tree, walk)
      try check(code, "list the symbolic links of \(commit.short)")
      return try walk.found.map { GitSymbolicLink(path: $0.path, destination: try linkText($0.id, repo)) }
        .sorted { $0.path < $1.path }
    }
  }

  /// The text of the symbolic link at `path` in the tree of `commit`; nil when no link is there.
  public func symbolicLink(at commit: ObjectID, path: String) throws -> String? {
    try withEntry(at: commit, path: path) { entry, repo in
      guard git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK else { return nil }
      return try linkText(ObjectID(git_tree_entry_id(entry)), repo)
    }
  }

  /// `body` with the tree entry at `path` in the tree of `commit` (and the repository); nil when nothing is there.
  private func withEntry<T>(
    at commit: ObjectID, path: String, _ body: (OpaquePointer?, OpaquePointer) throws -> T?
  ) throws -> T? {
    try withRepository { repo in
      let tree = try tree(of: commit, repo)
      defer { git_tree_free(tree) }
      var entry: OpaquePointer?
      let code = git_tree_entry_bypath(&entry, tree, path)
      if case GIT_ENOTFOUND = code { return nil }
      try check(code, "find '\(path)' in \(commit.short)")
      defer { git_tree_entry_free(entry) }
      return try body(entry, repo)
    }
  }

  /// A link blob's bytes as text.
  private func linkText(_ id: ObjectID, _ repo: OpaquePointer) throws -> String {
    var blob: OpaquePointer?
    var oid = try self.oid(id)
    try check(git_blob_lookup(&blob, repo, &oid), "read the symbolic link \(id.short)")
    defer { git_blob_free(blob) }
    let size = Int(git_blob_rawsize(blob))
    guard size > 0, let content = git_blob_rawcontent(blob) else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: content, count: size), as: UTF8.self)
  }

  /// The names of the directories directly inside `directory` ("." for the root) in the tree of `commit`;
  /// nil when `directory` is not a directory there. A submodule is not a directory (its path is a file).
  public func subdirectories(at commit: ObjectID, of directory: String) throws -> [String]? {
    try withRepository { repo in
      try withSubtree(at: commit, directory, repo) { subtree in
        var names: [String] = []
        for index in 0..<git_tree_entrycount(subtree) {
          guard let entry = git_tree_entry_byindex(subtree, index), git_tree_entry_type(entry) == GIT_OBJECT_TREE
          else { continue }
          names.append(String(cString: git_tree_entry_name(entry)))
        }
        return names
      }
    }
  }

  /// Every file (blob or submodule) under `directory` in the tree of `commit`, repo-relative; empty when
  /// `directory` is not a directory there. Walks only that directory.
  public func files(at commit: ObjectID, under directory: String) throws -> [String] {
    try withRepository { repo in
      try withSubtree(at: commit, directory, repo) { subtree in
        let prefix = directory == "." ? "" : directory + "/"
        let paths = try Self.filePaths(in: subtree, listing: "the files under '\(directory)' in \(commit.short)")
        return paths.map { prefix + $0 }
      } ?? []
    }
  }

  /// The blob id of the file at `path` in the tree of `commit`; nil when there is no file (blob) there.
  public func blobID(at commit: ObjectID, path: String) throws -> ObjectID? {
    try withEntry(at: commit, path: path) { entry, _ in
      guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return nil }
      return ObjectID(git_tree_entry_id(entry))
    }
  }

  /// The paths of the files (blobs, links, submodules) that differ between two trees, found by descending
  /// only into subtrees whose ids differ: the cost follows the change, not the size of the trees.
  func differingPaths(_ old: OpaquePointer?, _ new: OpaquePointer?, _ repo: OpaquePointer) throws -> [String] {
    var paths: [String] = []
    try collectDifferences(old, new, prefix: "", repo, into: &paths)
    return paths
  }

  private struct Entry {
    var id: git_oid
    var mode: git_filemode_t
    var isTree: Bool
  }

  private func entries(of tree: OpaquePointer?) -> [String: Entry] {
    guard let tree else { return [:] }
    var result: [String: Entry] = [:]
    for index in 0..<git_tree_entrycount(tree) {
      guard let entry = git_tree_entry_byindex(tree, index) else { continue }
      result[String(cString: git_tree_entry_name(entry))] = Entry(
        id: git_tree_entry_id(entry).pointee, mode: git_tree_entry_filemode(entry),
        isTree: git_tree_entry_type(entry) == GIT_OBJECT_TREE)
    }
    return result
  }

  private func collectDifferences(
    _ old: OpaquePointer?, _ new: OpaquePointer?, prefix: String, _ repo: OpaquePointer, into paths: inout [String]
  ) throws {
    let before = entries(of: old)
    let after = entries(of: new)
    for name in Set(before.keys).union(after.keys) {
      let a = before[name]
      let b = after[name]
      if var aid = a?.id, var bid = b?.id, a?.mode == b?.mode, git_oid_equal(&aid, &bid) == 1 { continue }
      let path = prefix + name
      if a?.isTree == true || b?.isTree == true {
        let oldTree = try a?.isTree == true ? lookupTree(a!.id, repo) : nil
        defer { if let oldTree { git_tree_free(oldTree) } }
        let newTree = try b?.isTree == true ? lookupTree(b!.id, repo) : nil
        defer { if let newTree { git_tree_free(newTree) } }
        try collectDifferences(oldTree, newTree, prefix: path + "/", repo, into: &paths)
      }
      if (a != nil && a?.isTree == false) || (b != nil && b?.isTree == false) { paths.append(path) }
    }
  }

  private func lookupTree(_ id: git_oid, _ repo: OpaquePointer) throws -> OpaquePointer? {
    var oid = id
    var tree: OpaquePointer?
    try check(git_tree_lookup(&tree, repo, &oid), "read a tree")
    return tree
  }

  /// Runs `body` with `paths` as a libgit2 string array.
  func withPathList<T>(_ paths: [String], _ body: (git_strarray) throws -> T) rethrows -> T {
    var pointers: [UnsafeMutablePointer<CChar>?] = paths.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    return try pointers.withUnsafeMutableBufferPointer { buffer in
      try body(git_strarray(strings: buffer.baseAddress, count: buffer.count))
    }
  }

  /// Runs `body` on the tree of `directory` in `commit`; nil when there is no directory there.
  private func withSubtree<T>(
    at commit: ObjectID, _ directory: String, _ repo: OpaquePointer, _ body: (OpaquePointer?) throws -> T
  ) throws -> T? {
    let root = try tree(of: commit, repo)
    defer { git_tree_free(root) }
    if directory == "." || directory.isEmpty { return try body(root) }
    var entry: OpaquePointer?
    let code = git_tree_entry_bypath(&entry, root, directory)
    if case GIT_ENOTFOUND = code { return nil }
    try check(code, "find '\(directory)' in \(commit.short)")
    defer { git_tree_entry_free(entry) }
    guard git_tree_entry_type(entry) == GIT_OBJECT_TREE else { return nil }
    var subtree: OpaquePointer?
    try check(git_tree_lookup(&subtree, repo, git_tree_entry_id(entry)), "read '\(directory)' in \(commit.short)")
    defer { git_tree_free(subtree) }
    return try body(subtree)
  }
}

/// The state of one `blobs(at:named:…)` walk, reached from libgit2's C callback through its payload.
/// Names are compared as bytes: most entries are rejected without building a Swift string.
/// What a pre-order walk of a tree hands each entry to: 0 to go on, 1 to skip a directory.
protocol TreeVisitor: AnyObject {
  func visit(root: UnsafePointer<CChar>, entry: OpaquePointer) -> Int32
}

extension GitRepository {
  /// Walks `tree` pre-order, each entry to `visitor` (libgit2's C callback reaches it through the payload).
  static func walk(_ tree: OpaquePointer?, _ visitor: any TreeVisitor) -> Int32 {
    let box = VisitorBox(visitor)
    return withExtendedLifetime(box) {
      git_tree_walk(
        tree, GIT_TREEWALK_PRE,
        { root, entry, payload in
          guard let root, let entry, let payload else { return 0 }
          return Unmanaged<VisitorBox>.fromOpaque(payload).takeUnretainedValue().visitor.visit(root: root, entry: entry)
        }, Unmanaged.passUnretained(box).toOpaque())
    }
  }

  /// Whether a directory entry named `name` is one of `skipping` (compared as bytes: no string per entry).
  static func isSkipped(_ name: UnsafePointer<CChar>, _ skipping: [[UInt8]]) -> Bool {
    let length = strlen(name)
    return skipping.contains { skipped in
      skipped.count == length && skipped.withUnsafeBufferPointer { memcmp($0.baseAddress!, name, length) == 0 }
    }
  }
}

private final class VisitorBox {
  let visitor: any TreeVisitor
  init(_ visitor: any TreeVisitor) { self.visitor = visitor }
}

private final class BlobWalk: TreeVisitor {
  let prefix: [UInt8]
  let skipping: [[UInt8]]
  /// Only blobs of this mode (symbolic links), when set.
  let mode: git_filemode_t?
  var found: [(name: String, path: String, id: ObjectID)] = []

  init(prefix: [UInt8], skipping: [[UInt8]], mode: git_filemode_t? = nil) {
    self.prefix = prefix
    self.skipping = skipping
    self.mode = mode
  }

  /// 0 to go on, 1 to skip a directory (pre-order walk).
  func visit(root: UnsafePointer<CChar>, entry: OpaquePointer) -> Int32 {
    let name = git_tree_entry_name(entry)!
    let type = git_tree_entry_type(entry)
    if type == GIT_OBJECT_TREE { return GitRepository.isSkipped(name, skipping) ? 1 : 0 }
    if let mode, git_tree_entry_filemode(entry) != mode { return 0 }
    guard type == GIT_OBJECT_BLOB, strlen(name) >= prefix.count,
      prefix.isEmpty || prefix.withUnsafeBufferPointer({ memcmp($0.baseAddress!, name, prefix.count) == 0 })
    else { return 0 }
    let text = String(cString: name)
    found.append((text, String(cString: root) + text, ObjectID(git_tree_entry_id(entry))))
    return 0
  }
}

extension GitRepository {
  /// Every file (blob, symlink or submodule gitlink) of `tree`, relative to it, in walk order.
  static func filePaths(in tree: OpaquePointer?, listing what: String) throws -> [String] {
    var paths: [String] = []
    let code = withUnsafeMutablePointer(to: &paths) { pointer in
      git_tree_walk(
        tree, GIT_TREEWALK_PRE,
        { root, entry, payload in
          let type = git_tree_entry_type(entry)
          guard type == GIT_OBJECT_BLOB || type == GIT_OBJECT_COMMIT, let root, let payload else { return 0 }
          let paths = payload.assumingMemoryBound(to: [String].self)
          paths.pointee.append(String(cString: root) + String(cString: git_tree_entry_name(entry)))
          return 0
        }, pointer)
    }
    try check(code, "list " + what)
    return paths
  }
}
