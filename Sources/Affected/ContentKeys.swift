import PackageModel
import PassRecords
import RippleConfig
import RippleCore

/// The key inputs of test targets at one state of the repository (docs/DESIGN.md, "Pass records").
///
/// A key covers what the selection rules say a target's result can depend on, so that "no change reaches
/// it" and "its key is the same" agree: for every target in the test target's closure (its dependencies,
/// transitively, through local products too) its evaluated manifest entry and its package's, the files
/// it owns (rule 3, links and listed Xcode paths included), the files `selection.inputs` and `generate:`
/// inputs give it, and the assets and generated resources installed into its folder; the
/// `Package.resolved` files resolving its packages; and, for every target, the `selection.global` files
/// and, with `selection.unowned: all`, every file no rule claims. What a run adds (toolchain, flags, the
/// run's environment, `test.keyEnvironment`) comes in `common`. Paths the selection ignores, and
/// manifests (their evaluation is what counts), are not inputs.
public enum ContentKeys {
  public struct Context: Sendable {
    /// Every file of the state as git sees it (path → blob id), the working tree's edits included.
    public var files: [String: String]
    public var selection: SelectionConfig
    public var assets: AssetsConfig
    /// The path of ripple.yml (its asset entries count per target, the rest does not change results).
    public var configPath: String?
    /// Entries every key gets: toolchain, flags, the run, allow-listed variables.
    public var common: KeyInputs

    public init(
      files: [String: String], selection: SelectionConfig, assets: AssetsConfig, configPath: String?,
      common: KeyInputs
    ) {
      self.files = files
      self.selection = selection
      self.assets = assets
      self.configPath = configPath
      self.common = common
    }
  }

  /// The inputs of each of `tests`, by target.
  public static func inputs(for tests: [TargetRef], in graph: PackageGraph, context: Context) -> [TargetRef: KeyInputs]
  {
    let attribution = Attribution(graph: graph, context: context)
    let dependencies = forwardEdges(in: graph)
    var out: [TargetRef: KeyInputs] = [:]
    for test in tests {
      var inputs = context.common
      inputs.add(contentsOf: attribution.everyone)
      var closure: Set<TargetRef> = []
      var pending = [test]
      while let current = pending.popLast() {
        guard closure.insert(current).inserted else { continue }
        pending += dependencies[current] ?? []
      }
      var packages: Set<String> = []
      for target in closure {
        guard let package = graph.package(at: target.package), let model = package.target(named: target.name)
        else { continue }
        packages.insert(package.path)
        inputs.add("target", target.description, model.fingerprint)
        inputs.add(contentsOf: attribution.byTarget[target] ?? KeyInputs())
      }
      for path in packages {
        inputs.add("package", path, graph.package(at: path)?.packageFingerprint ?? "")
        for (resolved, id) in attribution.resolvedFiles
        where RepoPath.isInside(path, directory: RepoPath.parent(resolved)) {
          inputs.add("pins", resolved, id)
        }
      }
      out[test] = inputs
    }
    return out
  }

  /// Target → the targets it depends on directly (the graph's dependents, inverted).
  static func forwardEdges(in graph: PackageGraph) -> [TargetRef: [TargetRef]] {
    var forward: [TargetRef: [TargetRef]] = [:]
    for (dependency, dependents) in GraphIndex(graph).dependents {
      for dependent in dependents { forward[dependent, default: []].append(dependency) }
    }
    return forward
  }
}

/// Each file of the state, given to the targets the selection rules would give a change of it.
private struct Attribution {
  var byTarget: [TargetRef: KeyInputs] = [:]
  var everyone = KeyInputs()
  var resolvedFiles: [(String, String)] = []

  init(graph: PackageGraph, context: ContentKeys.Context) {
    let rules = context.selection
    var inputs: [(Glob, [TargetRef])] = []
    for key in rules.inputs.keys.sorted() {
      let targets = graph.targets(namedByInputsKey: key)
      for glob in rules.inputs[key] ?? [] { inputs.append((glob, targets)) }
    }
    for (path, id) in context.files.sorted(by: { $0.key < $1.key }) {
      if rules.ignore.contains(where: { $0.matches(path) }) { continue }
      if rules.global.contains(where: { $0.matches(path) }) {
        everyone.add("global", path, id)
        continue
      }
      if path == context.configPath { continue }
      if Ownership.isPackageFile(path, in: [graph]) {
        if Ownership.isResolvedFile(path) { resolvedFiles.append((path, id)) }
        continue
      }
      var owners: Set<TargetRef> = []
      if let owner = Ownership.owner(of: path, in: graph) { owners.insert(owner) }
      for (owner, _) in Ownership.linkedOwners(of: path, in: graph) { owners.insert(owner) }
      owners.formUnion(XcodeOwnership.listedOwners(of: path, in: graph))
      for (glob, targets) in inputs where glob.matches(path) { owners.formUnion(targets) }
      for entry in context.assets.generate where entry.inputs.contains(where: { $0.matches(path) }) {
        if let owner = Ownership.owner(of: entry.destination, in: graph) { owners.insert(owner) }
      }
      for owner in owners { byTarget[owner, default: KeyInputs()].add("file", path, id) }
      if owners.isEmpty, !XcodeOwnership.isSharedScheme(path), rules.unowned == .all {
        everyone.add("unowned", path, id)
      }
    }
    for asset in context.assets.assets {
      for folder in asset.installDestinations {
        guard let owner = Ownership.owner(of: folder, in: graph) else { continue }
        byTarget[owner, default: KeyInputs()].add("asset", asset.id, Self.describe(asset))
      }
    }
    for entry in context.assets.generate {
      guard let owner = Ownership.owner(of: entry.destination, in: graph) else { continue }
      byTarget[owner, default: KeyInputs()].add("generate", entry.id, Self.describe(entry))
    }
  }

  /// What of an asset reaches the installed files: its content's SHA-256 and how it is unpacked and placed.
  static func describe(_ asset: AssetSpec) -> String {
    var parts = ["sha256=\(asset.sha256)", "destination=\(asset.destination)"]
    if let archive = asset.archive { parts.append("archive=\(archive)") }
    if let transform = asset.transform {
      let variants = transform.variants.map { variant in
        variant.name + "{"
          + variant.variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
          .joined(separator: ",") + "}@" + variant.destination
      }
      parts.append(
        "transform=\(transform.command.joined(separator: " ")) files=\(transform.files.map(\.pattern)) "
          + "output=\(transform.outputName) variants=\(variants.joined(separator: ";"))")
    }
    for placeholder in asset.placeholders { parts.append("placeholder=\(placeholder.path):\(placeholder.contents)") }
    return parts.joined(separator: " ")
  }

  static func describe(_ entry: GenerateSpec) -> String {
    [
      "command=\(entry.command.joined(separator: " "))", "destination=\(entry.destination)",
      "outputs=\(entry.outputs.joined(separator: ","))", "environment=\(entry.environment.joined(separator: ","))",
      "toolchain=\(entry.toolchain?.joined(separator: " ") ?? "")", "after=\(entry.after.joined(separator: ","))",
      "private=\(entry.privateAsset ?? "")",
    ].joined(separator: " ")
  }
}
