import PackageModel
import RippleConfig
import RippleCore

/// `ripple.yml` at base and head, for the asset rule (docs/DESIGN.md, rule 11). Read by the caller.
public struct AssetManifests: Sendable, Hashable {
  /// Repo-relative path of the config file (`ripple.yml`, `.ripple.yml` or `Config/ripple.yml`).
  public var configPath: String
  /// The parsed config on each side (the defaults when the file is missing there); nil when it does not
  /// parse on that side, which leaves the file to rule 8.
  public var base: RippleConfiguration?
  public var head: RippleConfiguration?

  public init(configPath: String, base: RippleConfiguration?, head: RippleConfiguration?) {
    self.configPath = configPath
    self.base = base
    self.head = head
  }
}

/// Rule 11: assets and generated resources in the graph. An asset or `generate:` entry whose config
/// changed selects the targets owning its destination folders (`asset fonts changed`); a changed input
/// of a `generate:` entry selects the owners of that entry's destination (`changed PATH → asset words`);
/// either reaches the entries that run `after` it, each adding a hop to the reason, so `--explain` shows
/// the chain. A `ripple.yml` whose other sections are unchanged is then not an unowned file.
struct AssetRules {
  let manifests: AssetManifests?
  let base: PackageGraph
  let head: PackageGraph
  /// The `generate:` entries of the head's config, then the base's, with their inputs: asked of every changed
  /// path (10⁶ of them), so not copied out of the configurations each time.
  private let generateInputs: [(id: String, inputs: [Glob])]

  init(manifests: AssetManifests?, base: PackageGraph, head: PackageGraph) {
    self.manifests = manifests
    self.base = base
    self.head = head
    generateInputs = [manifests?.head, manifests?.base].compactMap(\.self).flatMap { config in
      config.assets.generate.map { (id: $0.id, inputs: $0.inputs) }
    }
  }

  /// For the config file: the reasons of every changed entry; true when nothing else in the file changed
  /// (the path is handled), false to leave it to rule 8.
  func claimConfig(_ path: String, into selection: inout SelectionBuilder) -> Bool {
    guard let manifests, path == manifests.configPath, let before = manifests.base, let after = manifests.head else {
      return false
    }
    for id in Self.changedEntries(before.assets, after.assets) {
      select(id, reason: "asset \(id) changed", into: &selection)
    }
    return before.selection == after.selection && before.daemon == after.daemon
      && before.assets.secrets == after.assets.secrets
  }

  /// For any other changed path: the `generate:` entries (of either side) reading it; true when one does.
  func claimInput(_ path: String, into selection: inout SelectionBuilder) -> Bool {
    var claimed = false
    var seen: Set<String> = []
    for entry in generateInputs where entry.inputs.contains(where: { $0.matches(path) }) {
      claimed = true
      if seen.insert(entry.id).inserted {
        select(entry.id, reason: "changed \(path) → asset \(entry.id)", into: &selection)
      }
    }
    return claimed
  }

  /// The owners of `id`'s destinations on both sides get `reason`; entries that run after it follow.
  private func select(_ id: String, reason: String, into selection: inout SelectionBuilder) {
    var pending = [(id, reason)]
    var visited: Set<String> = []
    while !pending.isEmpty {
      let (current, why) = pending.removeFirst()
      guard visited.insert(current).inserted else { continue }
      for (config, graph) in sides {
        for folder in Self.destinations(of: current, in: config.assets) {
          if let owner = Ownership.owner(of: folder, in: graph) { selection.add(why, to: owner) }
        }
      }
      for next in dependents(of: current) { pending.append((next, "\(why) → asset \(next)")) }
    }
  }

  private var sides: [(RippleConfiguration, PackageGraph)] {
    [(manifests?.head, head), (manifests?.base, base)].compactMap { config, graph in config.map { ($0, graph) } }
  }

  /// Entries (of either side) whose `after` names `id`, sorted.
  private func dependents(of id: String) -> [String] {
    let ids = sides.flatMap { config, _ in config.assets.generate.filter { $0.after.contains(id) }.map(\.id) }
    return Set(ids).sorted()
  }

  static func destinations(of id: String, in assets: AssetsConfig) -> [String] {
    if let asset = assets.assets.first(where: { $0.id == id }) { return asset.installDestinations }
    return assets.generate.filter { $0.id == id }.map(\.destination)
  }

  /// Ids of assets and generate entries added, removed or changed between the two configs, sorted.
  static func changedEntries(_ before: AssetsConfig, _ after: AssetsConfig) -> [String] {
    var changed: Set<String> = []
    let assetsBefore = Dictionary(before.assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let assetsAfter = Dictionary(after.assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for id in Set(assetsBefore.keys).union(assetsAfter.keys) where assetsBefore[id] != assetsAfter[id] {
      changed.insert(id)
    }
    let generateBefore = Dictionary(before.generate.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let generateAfter = Dictionary(after.generate.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    for id in Set(generateBefore.keys).union(generateAfter.keys) where generateBefore[id] != generateAfter[id] {
      changed.insert(id)
    }
    return changed.sorted()
  }
}
