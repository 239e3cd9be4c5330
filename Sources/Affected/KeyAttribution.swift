import Crypto
import PackageModel
import RippleConfig
import RippleCore

/// Which keys a file of the repository enters, by the selection's rules (docs/DESIGN.md, "Pass records"):
/// the targets a change of it would select (its folder's owner, targets reaching it through a link, `inputs`
/// entries, `generate:` inputs and `secrets:` templates through their outputs' owners), or every key (a
/// `selection.global` file, and with `selection.unowned: all` a file no rule claims), or none (ignored, a
/// manifest or `Package.resolved`, whose evaluation and pins count instead, ripple.yml). Pure; a path costs
/// its depth and the rules' globs, never a scan of the targets (`AttributionIndex`).
public struct KeyAttribution: Sendable {
  public enum Destination: Sendable, Hashable {
    case none
    /// Every key, as `global` or `unowned`.
    case everyone(String)
    case targets(Set<TargetRef>)
  }

  public let index: AttributionIndex
  let selection: SelectionConfig
  let configPath: String?
  /// `selection.inputs` globs with the targets they name.
  let inputs: [(Glob, [TargetRef])]
  /// `generate:` inputs and `secrets:` templates and examples with the owner of what they produce.
  let producers: [Producer]
  /// Identifies the rules (a cache of attributions made under other rules is not used).
  public let fingerprint: String

  /// A `generate:` entry's inputs or a secret's template and example, and the owner of what it produces.
  struct Producer: Sendable {
    var globs: [Glob]
    var paths: [String]
    var owner: TargetRef

    func matches(_ path: String) -> Bool { paths.contains(path) || globs.contains { $0.matches(path) } }
    var folders: [String] { paths + globs.map { KeyAttribution.literalFolder(of: $0.pattern) } }
  }

  public init(graph: PackageGraph, selection: SelectionConfig, assets: AssetsConfig, configPath: String?) {
    index = AttributionIndex(graph)
    self.selection = selection
    self.configPath = configPath
    var inputs: [(Glob, [TargetRef])] = []
    for key in selection.inputs.keys.sorted() {
      let targets = graph.targets(namedByInputsKey: key)
      for glob in selection.inputs[key] ?? [] { inputs.append((glob, targets)) }
    }
    self.inputs = inputs
    var producers: [Producer] = []
    for entry in assets.generate {
      guard let owner = index.owner(of: entry.destination) else { continue }
      producers.append(Producer(globs: entry.inputs, paths: [], owner: owner))
    }
    for secret in assets.secrets {
      guard let owner = index.owner(of: secret.output) else { continue }
      producers.append(
        Producer(globs: [], paths: [secret.template] + (secret.example.map { [$0] } ?? []), owner: owner))
    }
    self.producers = producers
    var hasher = SHA256()
    for part in [
      "key-attribution-1", configPath ?? "", "\(selection.unowned)",
      selection.ignore.map(\.pattern).joined(separator: "\u{1F}"),
      selection.global.map(\.pattern).joined(separator: "\u{1F}"),
      inputs.map { "\($0.0.pattern)=\($0.1.map(\.description).joined(separator: ","))" }.joined(separator: "\u{1F}"),
      assets.generate.map { "\($0.destination)<\($0.inputs.map(\.pattern))" }.joined(separator: "\u{1F}"),
      assets.secrets.map { "\($0.output)<\($0.template),\($0.example ?? "")" }.joined(separator: "\u{1F}"),
    ] {
      hasher.update(data: Array(part.utf8) + [0])
    }
    // The graph's part in one buffer, hashed once (4,000 targets' small updates cost more than the hashing).
    var layout: [UInt8] = []
    layout.reserveCapacity(graph.packages.count * 4096)
    for package in graph.packages {
      layout += package.path.utf8
      layout.append(0x1F)
      layout += (package.origin?.rawValue ?? "").utf8
      layout.append(0)
      for target in package.targets {
        layout += target.name.utf8
        layout.append(0x1F)
        layout += target.directory.utf8
        layout.append(0x1F)
        for (index, link) in (target.linkedPaths ?? []).enumerated() {
          if index > 0 { layout.append(UInt8(ascii: ",")) }
          layout += link.link.utf8
          layout.append(UInt8(ascii: ">"))
          layout += link.path.utf8
        }
        layout.append(0)
        for path in target.ownedPaths ?? [] {
          layout += path.utf8
          layout.append(1)
        }
        for path in target.excludedPaths ?? [] {
          layout += path.utf8
          layout.append(2)
        }
      }
    }
    hasher.update(data: layout)
    fingerprint = Hex.string(hasher.finalize())
  }

  /// Whether any file can count for every key (`selection.global` patterns, or `selection.unowned: all`).
  public var hasEveryone: Bool { selection.unowned == .all || !selection.global.isEmpty }

  /// Where the file at `path` counts.
  public func destination(of path: String) -> Destination {
    if let decided = decidedBeforeOwners(path) { return decided }
    var owners: Set<TargetRef> = []
    _ = anyOwner(of: path, folderOwner: index.owner(of: path)) { owner in
      owners.insert(owner)
      return false
    }
    if !owners.isEmpty { return .targets(owners) }
    if !XcodeOwnership.isSharedScheme(path), selection.unowned == .all { return .everyone("unowned") }
    return .none
  }

  /// Whether the file at `path` counts for `target`'s key (`destination(of:)` names it), without the set of its
  /// other owners. `folderOwner`: `index.owner(of: path)`, when the caller knows it already (a walk of a
  /// target's own folder that enters no other owner's folder has one owner for every file: its folder's), which
  /// spares the walk up the path's folders (issue 50: a change of a base library asks it for ~10⁵ files).
  public func counts(_ path: String, for target: TargetRef, folderOwner: TargetRef?) -> Bool {
    decidedBeforeOwners(path) == nil && anyOwner(of: path, folderOwner: folderOwner) { $0 == target }
  }

  /// Where `path` counts whatever its owners: nowhere (ignored, ripple.yml, a manifest or `Package.resolved`,
  /// whose evaluation and pins count instead) or in every key (`selection.global`); nil: its owners decide.
  private func decidedBeforeOwners(_ path: String) -> Destination? {
    if selection.ignore.contains(where: { $0.matches(path) }) { return Destination.none }
    if selection.global.contains(where: { $0.matches(path) }) { return .everyone("global") }
    if path == configPath || AttributionIndex.isPackageFile(path, in: [index]) { return Destination.none }
    return nil
  }

  /// Whether `found` returns true for any target `path` is given to: its folder's owner, targets reaching it
  /// through a link or listing it, `inputs` entries, and the owners of what a `generate:` entry or a secret
  /// makes from it. Stops at the first true.
  private func anyOwner(of path: String, folderOwner: TargetRef?, _ found: (TargetRef) -> Bool) -> Bool {
    if let folderOwner, found(folderOwner) { return true }
    for (owner, _) in index.linkedOwners(of: path) where found(owner) { return true }
    for owner in index.listedOwners(of: path) where found(owner) { return true }
    for (glob, targets) in inputs where glob.matches(path) && targets.contains(where: found) { return true }
    return producers.contains { $0.matches(path) && found($0.owner) }
  }

  /// Whether `folder` is where another target's files or another package begin (`own` aside): a walk of
  /// `own`'s folder does not enter it.
  public func startsAnotherOwner(_ folder: String, own: String) -> Bool {
    folder != own && index.isOwnerFolder(folder)
  }

  /// The folders outside a target's own where files it is given may lie: its links' destinations, and the
  /// literal folders of the `inputs`, `generate:` and `secrets:` patterns that name it ("." when a pattern
  /// begins with a wildcard).
  public func outsideFolders(of target: TargetRef, directory: String, links: [LinkedPath]) -> [String] {
    var folders = links.map(\.path)
    for (glob, targets) in inputs where targets.contains(target) {
      folders.append(Self.literalFolder(of: glob.pattern))
    }
    for producer in producers where producer.owner == target { folders += producer.folders }
    return Self.outermost(folders.filter { !RepoPath.isInside($0, directory: directory) })
  }

  /// The folder a pattern's literal part names: `Resources/**/*.json` → `Resources`; "." when it starts with a
  /// wildcard.
  public static func literalFolder(of pattern: String) -> String {
    var parts: [Substring] = []
    for part in pattern.split(separator: "/", omittingEmptySubsequences: true) {
      if part.contains(where: { "*?[{\\".contains($0) }) { break }
      parts.append(part)
    }
    return RepoPath.normalize(parts.joined(separator: "/"))
  }

  /// The folders of `folders` not inside another of them.
  static func outermost(_ folders: [String]) -> [String] {
    let sorted = Set(folders).sorted { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }
    var kept: [String] = []
    for folder in sorted where !kept.contains(where: { RepoPath.isInside(folder, directory: $0) }) {
      kept.append(folder)
    }
    return kept.sorted()
  }
}
