import Assets
import Foundation
import Git
import RippleCore

/// Which two states of the repository to compare (docs/DESIGN.md, rule 1).
public struct ChangeRequest: Sendable, Hashable {
  /// A revision spec; nil means the default branch (origin/HEAD, then main, then master).
  public var base: String?
  /// A revision spec; nil means the working tree (commits since the base, staged, unstaged, untracked).
  public var head: String?
  /// Compare `base` itself instead of the merge-base of base and head.
  public var noMergeBase: Bool
  /// The changes from `base` to the working tree when the caller already knows them (rippled keeps them
  /// current from its file watcher): used instead of git's status scan. Only with `head` nil and
  /// `noMergeBase`.
  public var knownChanges: [ChangedFile]?
  /// `--changed-files`: the changed paths as another tool gave them (a forge's API, a pre-commit hook),
  /// used instead of git's diff; each is `modified`, or `deleted` when the head side lacks it.
  public var changedFiles: [String]?
  /// Where `base` came from when Ripple chose it (`--base auto`), for the "Comparing" line and the JSON.
  public var baseSource: String?
  /// `--base auto` found nothing to compare with and the head is the base branch's tip: every test runs.
  public var everythingBecause: String?

  /// `--base auto`: Ripple finds the base (`Workspace.autoBase`).
  public static let autoBase = "auto"

  public init(
    base: String? = nil, head: String? = nil, noMergeBase: Bool = false, knownChanges: [ChangedFile]? = nil,
    changedFiles: [String]? = nil
  ) {
    self.base = base
    self.head = head
    self.noMergeBase = noMergeBase
    self.knownChanges = knownChanges
    self.changedFiles = changedFiles
  }
}

/// The answer to a `ChangeRequest`: the two sides and every changed path between them.
public struct ChangeSet: Sendable, Hashable {
  /// The commit the base spec resolved to.
  public var base: ObjectID
  /// The commit changes are measured from: the merge-base unless `noMergeBase`.
  public var from: ObjectID
  /// The merge-base, when one was computed.
  public var mergeBase: ObjectID?
  /// The head commit, or nil for the working tree.
  public var head: ObjectID?
  public var changes: [ChangedFile]
  /// Untracked files `ripple bootstrap` installed that still hold the bytes its receipts record: left out of
  /// `changes` (working tree only), listed apart by `ripple changes`. Sorted.
  public var installedByBootstrap: [String] = []
  /// See `ChangeRequest.baseSource`.
  public var baseSource: String?
  /// The changes are a list given with `--changed-files`, not git's diff from `from`.
  public var changesGiven = false
  /// Changed paths of the working tree found to be neither links nor folders while they were listed: not
  /// stat'ed again for the links of the tree (10⁶ paths can be given).
  public var notLinks: Set<String> = []

  public var headLabel: String { head?.hex ?? "worktree" }
}

public enum ChangeDetection {
  /// Resolves the request against `repository` and lists the changed paths, sorted.
  ///
  /// A shallow clone whose merge-base is missing throws (from `GitRepository.mergeBase`): never an
  /// empty answer because history is missing.
  /// `ripple changes`: the request answered in the repository holding `directory`, without reading its config.
  /// The work tree's root of the repository holding `directory` (what `--changed-files` paths are relative to).
  public static func repositoryRoot(directory: String) throws -> String {
    let repository = try GitRepository.discover(from: directory)
    return repository.workdir ?? directory
  }

  public static func detect(_ request: ChangeRequest, directory: String) throws -> ChangeSet {
    try detect(request, in: GitRepository.discover(from: directory))
  }

  public static func detect(_ request: ChangeRequest, in repository: GitRepository) throws -> ChangeSet {
    if request.base == ChangeRequest.autoBase { throw ChangeListError.autoBaseHere }
    let head = try request.head.map { try repository.resolveCommit($0) }
    if let given = request.changedFiles {
      return try detect(given: given, request: request, head: head, in: repository)
    }
    let base: ObjectID
    if let spec = request.base {
      base = try repository.resolveCommit(spec)
    } else {
      base = try repository.defaultBranch().commit
    }
    var mergeBase: ObjectID?
    if !request.noMergeBase {
      mergeBase = try repository.mergeBase(base, head ?? repository.headCommit())
    }
    let from = mergeBase ?? base
    var changes: [ChangedFile]
    var installed: [String] = []
    if let head {
      changes = try repository.changes(from: from, to: head)
    } else {
      if let known = request.knownChanges, request.noMergeBase {
        changes = known
      } else {
        changes = try repository.changesToWorkingTree(from: from)
      }
      if let root = repository.workdir {
        (changes, installed) = setApartInstalled(changes, repositoryRoot: root)
      }
    }
    var changeSet = ChangeSet(base: base, from: from, mergeBase: mergeBase, head: head, changes: changes.sorted())
    changeSet.installedByBootstrap = installed.sorted()
    changeSet.baseSource = request.baseSource
    return changeSet
  }

  /// `--changed-files`: the list is the change. The base side, which manifests and `Package.resolved` are
  /// compared with, is the base as usual; where that cannot be found (a shallow clone, the usual reason to be
  /// given a list) it is the head itself, and a changed manifest then reaches its whole package.
  static func detect(given: [String], request: ChangeRequest, head: ObjectID?, in repository: GitRepository) throws
    -> ChangeSet
  {
    let headCommit = try head ?? repository.headCommit()
    var base = headCommit
    var mergeBase: ObjectID?
    var source = "the changed files given (--changed-files)"
    if let found = try? request.base.map({ try repository.resolveCommit($0) }) ?? repository.defaultBranch().commit {
      base = found
      if !request.noMergeBase { mergeBase = try? repository.mergeBase(found, headCommit) }
    } else {
      source += "; no base commit here, so the head's own manifests stand for the base's"
    }
    // Sorted, each path once, and no set of them: a list can hold 10⁶ paths.
    var paths: [String] = []
    paths.reserveCapacity(given.count)
    for path in given.sorted() where paths.last != path { paths.append(path) }
    var changes: [ChangedFile] = []
    changes.reserveCapacity(paths.count)
    var notLinks: Set<String> = []
    if head != nil {
      let files = Set(try repository.files(at: headCommit))
      for path in paths {
        if files.contains(path) {
          changes.append(ChangedFile(path: path, status: .modified))
          continue
        }
        // Not a file of the head: a folder of it is a mistake, anything else a deletion.
        if (try? repository.subdirectories(at: headCommit, of: path)) != nil { throw ChangeListError.folder(path) }
        changes.append(ChangedFile(path: path, status: .deleted))
      }
    } else {
      let root = repository.workdir ?? ""
      for path in paths {
        var status = stat()
        // `lstat`: a link is a file to git, whatever it leads to.
        guard lstat(root + "/" + path, &status) == 0 else {
          changes.append(ChangedFile(path: path, status: .deleted))
          continue
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
          // A submodule is a path git diffs name; any other folder is not.
          if (try? repository.submoduleState(path)) == nil { throw ChangeListError.folder(path) }
        case S_IFLNK: break
        default: notLinks.insert(path)
        }
        changes.append(ChangedFile(path: path, status: .modified))
      }
    }
    var changeSet = ChangeSet(base: base, from: mergeBase ?? base, mergeBase: mergeBase, head: head, changes: changes)
    changeSet.baseSource = [request.baseSource, source].compactMap(\.self).joined(separator: "; ")
    changeSet.changesGiven = true
    changeSet.notLinks = notLinks
    return changeSet
  }

  /// Files bootstrap installed into a folder git does not ignore are untracked, but no one's change: with the
  /// bytes its receipts record they are set apart; edited, they stay changes.
  static func setApartInstalled(_ changes: [ChangedFile], repositoryRoot root: String) -> (
    changes: [ChangedFile], installed: [String]
  ) {
    guard changes.contains(where: { $0.status == .added }) else { return (changes, []) }
    let installedFiles = InstalledFiles.load(repositoryRoot: root)
    guard !installedFiles.recorded.isEmpty else { return (changes, []) }
    // Every run of the working tree compares them: a 200 MB asset is read once, then trusted by its stat.
    let digests = FileDigestCache(
      file: RepositoryState(repositoryRoot: root).installedDigestsPath, format: installedDigestsFormat,
      keepsOnlyAsked: true)
    defer { digests.save() }
    return installedFiles.split(changes) { measureInstalled($0, repositoryRoot: root, digests: digests) }
  }

  static let installedDigestsFormat = "ripple-installed-digests-1"

  /// `InstalledFiles.measure`, with a regular file's SHA-256 from `digests` while its stat is the one it was
  /// hashed at (size, times, inode; a file changed within 2 s is hashed every time).
  static func measureInstalled(_ path: String, repositoryRoot root: String, digests: FileDigestCache)
    -> InstalledFiles.Digest?
  {
    var status = stat()
    let absolute = root + "/" + path
    guard lstat(absolute, &status) == 0 else { return nil }
    guard status.st_mode & S_IFMT == S_IFREG else { return InstalledFiles.measure(path, repositoryRoot: root) }
    guard let sha256 = try? digests.digest(of: absolute, status: status) else { return nil }
    return InstalledFiles.Digest(size: Int64(status.st_size), sha256: sha256)
  }
}

/// A `--changed-files` list that cannot be used, or `--base auto` where it is not understood.
public enum ChangeListError: RippleError, Equatable {
  case unreadable(source: String, reason: String)
  case badLine(source: String, line: Int, reason: String)
  /// A line names a folder (not a submodule): which files of it changed is not said.
  case folder(String)
  case autoBaseHere

  public var category: ErrorCategory { .usage }

  public var description: String {
    switch self {
    case .unreadable(let source, let reason):
      return "--changed-files \(source): \(reason)."
    case .badLine(let source, let line, let reason):
      return "--changed-files \(source):\(line): \(reason). Give one path per line, relative to the repository "
        + "root or absolute inside it (git diff --name-only)."
    case .folder(let path):
      return "--changed-files names the folder `\(path)`, not a file: list the files that changed in it, one per "
        + "line (as `git diff --name-only` does)."
    case .autoBaseHere:
      return "--base auto is understood by `ripple affected` and `ripple test`, which read the result store; give "
        + "`ripple changes` a revision."
    }
  }
}

/// Reads a `--changed-files` list (pure): one path per line, `\r\n` or `\n`; blank lines skipped; `./` and an
/// absolute prefix inside the repository removed; anything naming a place outside the repository, holding a
/// NUL byte or not UTF-8, is an error naming its line.
public enum ChangedFileList {
  public static func parse(_ data: Data, source: String, repositoryRoot: String) throws(ChangeListError) -> [String] {
    let bytes = [UInt8](data)
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw .unreadable(source: source, reason: "not UTF-8 text")
    }
    let root = Array((repositoryRoot.hasSuffix("/") ? repositoryRoot : repositoryRoot + "/").utf8)
    // Index loops over the bytes: a list can hold 10⁶ lines, and Characters (or generic splitting, in a debug
    // build) cost more than everything else done with it.
    return try bytes.withUnsafeBufferPointer { buffer throws(ChangeListError) -> [String] in
      var paths: [String] = []
      paths.reserveCapacity(buffer.count / 40)
      var number = 0
      var start = 0
      while true {
        var end = start
        while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
        number += 1
        let line = Line(buffer: buffer, number: number, source: source, repositoryRoot: repositoryRoot)
        if let path = try line.path(start..<end, root: root) { paths.append(path) }
        if end >= buffer.count { break }
        start = end + 1
      }
      return paths
    }
  }

  /// One line of the list, read in place.
  private struct Line {
    let buffer: UnsafeBufferPointer<UInt8>
    let number: Int
    let source: String
    let repositoryRoot: String

    func text(_ range: Range<Int>) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// The path on the bytes `range` (without the `\n`); nil for a blank line.
    func path(_ range: Range<Int>, root: [UInt8]) throws(ChangeListError) -> String? {
      var lower = range.lowerBound
      let upper =
        range.count > 0 && buffer[range.upperBound - 1] == UInt8(ascii: "\r") ? range.upperBound - 1 : range.upperBound
      var blank = true
      var ascii = true
      for index in lower..<upper {
        let byte = buffer[index]
        if byte == 0 { throw .badLine(source: source, line: number, reason: "a NUL byte (a `-z` list?)") }
        if byte >= 0x80 { ascii = false }
        if byte != 0x20 && !(0x09...0x0D).contains(byte) { blank = false }
      }
      // White space as Character.isWhitespace says, beyond ASCII's.
      if blank || (!ascii && text(lower..<upper).allSatisfy(\.isWhitespace)) { return nil }
      if buffer[lower] == UInt8(ascii: "/") {
        guard upper - lower >= root.count, (0..<root.count).allSatisfy({ buffer[lower + $0] == root[$0] }) else {
          throw .badLine(
            source: source, line: number,
            reason: "`\(text(lower..<upper))` is outside the repository (\(repositoryRoot))")
        }
        lower += root.count
      }
      while upper - lower >= 2, buffer[lower] == UInt8(ascii: "."), buffer[lower + 1] == UInt8(ascii: "/") {
        lower += 2
      }
      var components: [Range<Int>] = []
      var slashes = 0
      var componentStart = lower
      for index in lower...upper where index == upper || buffer[index] == UInt8(ascii: "/") {
        if index < upper { slashes += 1 }
        if index > componentStart { components.append(componentStart..<index) }
        componentStart = index + 1
      }
      let dot = UInt8(ascii: ".")
      let dots = components.contains { part in
        (part.count == 1 && buffer[part.lowerBound] == dot)
          || (part.count == 2 && buffer[part.lowerBound] == dot && buffer[part.lowerBound + 1] == dot)
      }
      guard !components.isEmpty, !dots else {
        throw .badLine(
          source: source, line: number, reason: "`\(text(lower..<upper))` is not a path inside the repository")
      }
      // A line as git prints it (no empty part) is kept whole; others are joined again.
      if slashes == components.count - 1 { return text(lower..<upper) }
      return components.map(text).joined(separator: "/")
    }
  }
}
