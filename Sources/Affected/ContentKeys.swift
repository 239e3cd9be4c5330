import PackageModel
import PassRecords
import RippleConfig
import RippleCore

/// The key inputs of test targets at one state of the repository (docs/DESIGN.md, "Pass records"; key
/// format 4, issue 50).
///
/// A key covers what the build of a target's test run reads, so that "no change reaches it" and "its key
/// is the same" agree: for every target in the test target's closure (its dependencies, transitively,
/// through local products too) its evaluated manifest entry, its package's evaluated settings and
/// dependency requirements, and the digest of every file given to it as it is on disk (`targetFiles`: its
/// folder's files, tracked or not, with their modes, gitlinks as checked out; what it reaches through links;
/// the files `selection.inputs`, `generate:` inputs and `secrets:` templates give it), plus the assets,
/// generated resources and secrets installed into its folder; the pins SwiftPM resolved for the tested
/// package; and, for every target, the `selection.global` files and, with `selection.unowned: all`, every
/// file no rule claims (`everyone`, from git's trees). What a run adds (toolchain, flags, the run's
/// environment, `test.keyEnvironment`) comes in `common`. Paths the selection ignores, and manifests (their
/// evaluation is what counts), are not inputs. What cannot be keyed (a link leaving the repository, a dirty
/// submodule, pins that cannot be read) makes the target unkeyable: never looked up, never recorded.
///
/// The closure's lines are held as a graph (`TargetNode`): each target's node digests its own lines and the
/// digests of the targets it depends on, and a key holds its test target's node, so what a flat list of every
/// closure target's lines would hold, the key holds, and a line shared by 2,000 keys is hashed once.
///
/// The caller reads only the closures' folders and the trees that changed (`KeyAttribution` says where a
/// file counts; `FolderDigest` digests folders by tree id): the cost follows the change and the closures.
public enum ContentKeys {
  /// The pins of a tested package, as read from the `Package.resolved` SwiftPM uses for it.
  public enum Pins: Sendable, Hashable {
    /// Package identity → `<version>@<revision>` (ResolvedFile's text).
    case pinned([String: String])
    /// No file there.
    case missing
    /// The file could not be read or parsed: why.
    case unusable(String)
  }

  public struct Context: Sendable {
    /// Every file given to each closure target, as on disk: path → `mode:id` (git's mode and blob id, a
    /// gitlink `160000:<checked-out commit>`).
    public var targetFiles: [TargetRef: [String: String]]
    /// `FolderDigest.of(targetFiles[t])`, where the disk side already knows it (a walk that found every file
    /// as its stat cache last saw it takes the digest it saved; issue 50). Absent: made here.
    public var fileDigests: [TargetRef: String]
    /// What every key holds: the digest of the global and unowned files, and their edits.
    public var everyone: KeyInputs
    public var assets: AssetsConfig
    /// Entries every key gets: toolchain, flags, the run, allow-listed variables.
    public var common: KeyInputs
    /// Why a target cannot be keyed, found on disk (a link leaving the repository, an unreadable file, a
    /// dirty submodule).
    public var unkeyable: [TargetRef: [String]]
    /// Tested package path → its pins.
    public var pins: [String: Pins]
    /// Package path → what else its manifest's evaluation by a build reads (variables no entry sets).
    public var packageInputs: [String: KeyInputs]

    public init(
      targetFiles: [TargetRef: [String: String]], fileDigests: [TargetRef: String] = [:],
      everyone: KeyInputs = KeyInputs(), assets: AssetsConfig, common: KeyInputs,
      unkeyable: [TargetRef: [String]] = [:], pins: [String: Pins] = [:], packageInputs: [String: KeyInputs] = [:]
    ) {
      self.targetFiles = targetFiles
      self.fileDigests = fileDigests
      self.everyone = everyone
      self.assets = assets
      self.common = common
      self.unkeyable = unkeyable
      self.pins = pins
      self.packageInputs = packageInputs
    }
  }

  /// One test target's key inputs, or why it has none.
  public struct TargetKey: Sendable, Hashable {
    public var inputs: KeyInputs
    /// Non-empty: the target is never looked up and never recorded; each line says why.
    public var unkeyable: [String]
    /// Its closure has remote dependencies: the tested package's pins are in the key (`pins` entries).
    public var pinned: Bool
    /// Why those pins are not known (missing, unreadable): also unkeyable, until a build resolves them.
    public var pinsProblem: String?

    public var isKeyable: Bool { unkeyable.isEmpty && pinsProblem == nil }
  }

  /// Every target `test` builds: itself and its dependencies, transitively.
  public static func closure(of tests: [TargetRef], in graph: PackageGraph) -> Set<TargetRef> {
    closure(of: tests, dependencies: forwardEdges(in: graph))
  }

  public static func closure(of tests: [TargetRef], dependencies: [TargetRef: [TargetRef]]) -> Set<TargetRef> {
    var closure: Set<TargetRef> = []
    var pending = tests
    while let current = pending.popLast() {
      guard closure.insert(current).inserted else { continue }
      pending += dependencies[current] ?? []
    }
    return closure
  }

  /// A closure target's part of the keys that hold it (key format 4): its own lines (its manifest entry, the
  /// digest of its files, what is installed into its folder, its package's evaluated settings, dependency
  /// requirements and manifest variables) and, by name, the digest of each target it depends on. A key holds
  /// its test target's node: what changes any line of any closure target changes the key, and each of the
  /// ~10² closure targets of 2,000 keys is hashed once, not once per key that holds it (issue 50).
  public struct TargetNode: Sendable, Hashable {
    public var inputs: KeyInputs
    /// `inputs.key`, in hex.
    public var digest: String
    /// Its closure's packages have a remote dependency.
    public var remote: Bool
    /// Why it or a target it depends on cannot be keyed, sorted.
    public var unkeyable: [String]
  }

  /// The key of each of `tests`.
  /// `dependencies`: `forwardEdges(in: graph)`, when the caller has it already.
  public static func keys(
    for tests: [TargetRef], in graph: PackageGraph, context: Context,
    dependencies known: [TargetRef: [TargetRef]]? = nil
  ) -> [TargetRef: TargetKey] {
    graphKeys(for: tests, in: graph, context: context, dependencies: known).keys
  }

  /// The key of each of `tests`, and the node of every target their closures hold (what `--explain-key` lists).
  public static func graphKeys(
    for tests: [TargetRef], in graph: PackageGraph, context: Context,
    dependencies known: [TargetRef: [TargetRef]]? = nil
  ) -> (keys: [TargetRef: TargetKey], nodes: [TargetRef: TargetNode]) {
    let assets = context.assets
    // The index costs the graph's 4,000 targets; only installed files need it.
    let installed =
      assets.assets.isEmpty && assets.generate.isEmpty && assets.secrets.isEmpty
      ? [:] : installedEntries(assets, index: AttributionIndex(graph))
    let dependencies = known ?? forwardEdges(in: graph)
    let packagesByPath = Dictionary(graph.packages.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    let closureTargets = closure(of: tests, dependencies: dependencies).sorted()
    let packageLines = Dictionary(
      Set(closureTargets.map(\.package)).compactMap { path in
        packagesByPath[path].map { (path, packageEntries($0, inputs: context.packageInputs[path])) }
      }, uniquingKeysWith: { first, _ in first })
    // Each closure target's own lines, on every core: their file digests cover ~10⁵ files.
    let models = targetModels(Set(closureTargets.map(\.package)), in: packagesByPath)
    let made = closureTargets.concurrentMap { target -> (inputs: KeyInputs, remote: Bool) in
      guard let model = models[target],
        let package = packageLines[target.package]
      else { return (KeyInputs(), false) }
      var own = KeyInputs()
      own.add("target", target.description, model.fingerprint)
      own.add(
        contentsOf: fileEntries(
          context.targetFiles[target] ?? [:], of: target, digest: context.fileDigests[target]))
      own.add(contentsOf: installed[target] ?? KeyInputs())
      own.add(contentsOf: package.inputs)
      return (own, package.remote)
    }
    let nodes = self.nodes(
      of: closureTargets, own: Dictionary(zip(closureTargets, made), uniquingKeysWith: { first, _ in first }),
      dependencies: dependencies, unkeyable: context.unkeyable)
    let keys = tests.map { key(of: $0, nodes: nodes, context: context) }
    return (Dictionary(zip(tests, keys), uniquingKeysWith: { first, _ in first }), nodes)
  }

  /// Each target of `packages` by its reference (the first of a name, as `Package.target(named:)` finds it): one
  /// pass, where a lookup by name per closure target scans its package's ~10² targets.
  public static func targetModels(_ packages: Set<String>, in packagesByPath: [String: Package]) -> [TargetRef: Target]
  {
    var models: [TargetRef: Target] = [:]
    for path in packages {
      for target in packagesByPath[path]?.targets ?? [] {
        let ref = TargetRef(package: path, name: target.name)
        if models[ref] == nil { models[ref] = target }
      }
    }
    return models
  }

  /// A package's lines in the node of each of its targets: its evaluated settings, its dependency requirements,
  /// the variables its manifest reads; and whether one of those dependencies is remote.
  static func packageEntries(_ package: Package, inputs: KeyInputs?) -> (inputs: KeyInputs, remote: Bool) {
    var lines = KeyInputs()
    lines.add("package", package.path, package.packageFingerprint)
    lines.add(contentsOf: inputs ?? KeyInputs())
    var remote = false
    for dependency in package.dependencies {
      lines.add("dependency", package.path + " " + dependency.identity, dependency.fingerprint)
      if case .remote = dependency.location { remote = true }
    }
    return (lines, remote)
  }

  /// The node of each of `targets` (a closure: every dependency is in it), dependencies first. SwiftPM's graphs
  /// have no cycles; an edge back to a target still in progress would be named with no digest.
  ///
  /// Each level's nodes (`NodeOrder`) are hashed on every core: a level's nodes depend only on lower ones, and a
  /// change of a base library hashes the 4,000 nodes of 2,000 closures (issue 50).
  static func nodes(
    of targets: [TargetRef], own: [TargetRef: (inputs: KeyInputs, remote: Bool)],
    dependencies: [TargetRef: [TargetRef]], unkeyable: [TargetRef: [String]]
  ) -> [TargetRef: TargetNode] {
    let order = NodeOrder(targets, dependencies: dependencies)
    let refs = order.refs
    let blockersOf = refs.map { unkeyable[$0] ?? [] }
    nonisolated(unsafe) var made = [TargetNode?](repeating: nil, count: refs.count)
    for members in order.levels {
      let computed = members.concurrentMap { target -> TargetNode in
        var inputs = own[refs[target]]?.inputs ?? KeyInputs()
        var remote = own[refs[target]]?.remote ?? false
        var blockers = Set(blockersOf[target])
        for dependency in order.direct[target] {
          // A lower level's node, made before this level began; nil: an edge back into the path.
          let node = order.finished[target].contains(dependency) ? made[dependency] : nil
          inputs.add("depends", refs[dependency].description, node?.digest ?? "(cycle)")
          remote = remote || node?.remote == true
          blockers.formUnion(node?.unkeyable ?? [])
        }
        return TargetNode(inputs: inputs, digest: inputs.key.hex, remote: remote, unkeyable: blockers.sorted())
      }
      for (target, node) in zip(members, computed) { made[target] = node }
    }
    var nodes: [TargetRef: TargetNode] = [:]
    nodes.reserveCapacity(refs.count)
    for (target, node) in made.enumerated() {
      if let node { nodes[refs[target]] = node }
    }
    return nodes
  }

  /// The order `nodes` hashes a closure in, by position rather than by name: a depth-first pass from each target
  /// in turn, dependencies first, puts each target on a level one above its highest dependency.
  struct NodeOrder: Sendable {
    /// The closure's targets, then any target only an edge names.
    var refs: [TargetRef] = []
    /// Each target's direct dependencies, sorted.
    var direct: [[Int]] = []
    /// The dependencies that were finished when a target was: one that was not is an edge back into the path.
    var finished: [[Int]] = []
    /// The targets of each level, in the order they were finished.
    var levels: [[Int]] = []

    init(_ targets: [TargetRef], dependencies: [TargetRef: [TargetRef]]) {
      var position: [TargetRef: Int] = [:]
      position.reserveCapacity(targets.count)
      refs.reserveCapacity(targets.count)
      func index(_ ref: TargetRef) -> Int {
        if let known = position[ref] { return known }
        position[ref] = refs.count
        refs.append(ref)
        return refs.count - 1
      }
      for target in targets { _ = index(target) }
      while direct.count < refs.count {
        direct.append(Set(dependencies[refs[direct.count]] ?? []).sorted().map(index))
      }
      finished = Array(repeating: [], count: refs.count)
      var level = [Int](repeating: 0, count: refs.count)
      var done = [Bool](repeating: false, count: refs.count)
      var inProgress = [Bool](repeating: false, count: refs.count)
      var finishing: [Int] = []
      finishing.reserveCapacity(refs.count)
      for root in targets.indices where !done[root] {
        var stack: [(target: Int, expanded: Bool)] = [(root, false)]
        while let (target, expanded) = stack.popLast() {
          guard !done[target] else { continue }
          if !expanded {
            guard !inProgress[target] else { continue }
            inProgress[target] = true
            stack.append((target, true))
            for dependency in direct[target] where !done[dependency] { stack.append((dependency, false)) }
            continue
          }
          inProgress[target] = false
          finished[target] = direct[target].filter { done[$0] }
          done[target] = true
          level[target] = (finished[target].map { level[$0] }.max() ?? -1) + 1
          finishing.append(target)
        }
      }
      levels = Array(repeating: [], count: (level.max() ?? -1) + 1)
      for target in finishing { levels[level[target]].append(target) }
    }
  }

  /// One test target's key from its closure's `nodes`.
  private static func key(of test: TargetRef, nodes: [TargetRef: TargetNode], context: Context) -> TargetKey {
    var inputs = context.common
    inputs.add(contentsOf: context.everyone)
    let node = nodes[test]
    inputs.add("closure", test.description, node?.digest ?? "(none)")
    let remote = node?.remote ?? false
    // SwiftPM resolves every remote dependency of the tested package's graph into its root's pins.
    let pinsProblem = remote ? add(context.pins[test.package] ?? .missing, package: test.package, to: &inputs) : nil
    return TargetKey(
      inputs: inputs, unkeyable: node?.unkeyable ?? [], pinned: remote, pinsProblem: pinsProblem)
  }

  /// One line for a target's files: the digest of every path and `mode:id` given to it (`known`, when the
  /// caller has it), and how many.
  static func fileEntries(_ files: [String: String], of target: TargetRef, digest known: String? = nil) -> KeyInputs {
    var inputs = KeyInputs()
    if !files.isEmpty, let digest = known ?? FolderDigest.of(files) {
      inputs.add("files", target.description, "\(digest) (\(files.count) files)")
    }
    return inputs
  }

  /// Adds `pins` to `inputs`; why they are not known, when they are not.
  public static func add(_ pins: Pins, package: String, to inputs: inout KeyInputs) -> String? {
    switch pins {
    case .pinned(let pins):
      for (identity, pin) in pins { inputs.add("pins", identity, pin) }
      return nil
    case .missing:
      return "\(RepoPath.join(package, "Package.resolved")) is missing: its remote dependencies are not pinned yet"
    case .unusable(let reason):
      return reason
    }
  }

  /// `forwardEdges(in:)` for `tests` and the targets they reach only: what `closure(of:dependencies:)` and
  /// `keys(for:…)` of those tests read.
  public static func forwardEdges(from tests: [TargetRef], in graph: PackageGraph) -> [TargetRef: [TargetRef]] {
    GraphIndex.dependencies(reachableFrom: tests, in: graph)
  }

  /// Target → the targets it depends on directly (the graph's dependents, inverted).
  public static func forwardEdges(in graph: PackageGraph) -> [TargetRef: [TargetRef]] {
    var forward: [TargetRef: [TargetRef]] = [:]
    for (dependency, dependents) in GraphIndex(graph).dependents {
      for dependent in dependents { forward[dependent, default: []].append(dependency) }
    }
    return forward
  }
}

extension ContentKeys {
  /// The assets, generated resources and secrets installed into each target's folder, described by what
  /// reaches the installed files.
  static func installedEntries(_ assets: AssetsConfig, index: AttributionIndex) -> [TargetRef: KeyInputs] {
    var byTarget: [TargetRef: KeyInputs] = [:]
    for asset in assets.assets {
      for folder in asset.installDestinations {
        guard let owner = index.owner(of: folder) else { continue }
        byTarget[owner, default: KeyInputs()].add("asset", asset.id, describe(asset))
      }
    }
    for entry in assets.generate {
      guard let owner = index.owner(of: entry.destination) else { continue }
      byTarget[owner, default: KeyInputs()].add("generate", entry.id, describe(entry))
    }
    for secret in assets.secrets {
      guard let owner = index.owner(of: secret.output) else { continue }
      byTarget[owner, default: KeyInputs()].add("secret", secret.id, describe(secret))
    }
    return byTarget
  }

  /// A secret's entry: where it renders, from what, and the variables its placeholders read (their values
  /// reach the key through the output's bytes, `targetFiles`).
  static func describe(_ secret: SecretSpec) -> String {
    [
      "template=\(secret.template)", "output=\(secret.output)", "example=\(secret.example ?? "")",
      "values=" + secret.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
    ].joined(separator: " ")
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

extension ContentKeys {
  /// A whole state's files (path → `mode:id`) given out as `Context` wants them, by a scan of every file:
  /// each of `closure`'s files, every key's files (`everyone`), and the targets a path in `problems` (one
  /// whose content no key can hold) makes unkeyable. `KeyInputsOnDisk` finds the same by reading only the
  /// closures' folders and the trees that changed; this is the reference its differential proof compares with.
  public static func attribute(
    _ files: [String: String], closure: Set<TargetRef>, by attribution: KeyAttribution,
    problems: [String: String] = [:]
  ) -> (targetFiles: [TargetRef: [String: String]], everyone: KeyInputs, unkeyable: [TargetRef: [String]]) {
    var targetFiles: [TargetRef: [String: String]] = [:]
    var everyone: [String: String] = [:]
    var unkeyable: [TargetRef: [String]] = [:]
    for (path, value) in files.sorted(by: { $0.key < $1.key }) {
      switch attribution.destination(of: path) {
      case .none:
        continue
      case .everyone(let kind):
        everyone[path] = everyoneValue(kind: kind, value: value)
      case .targets(let owners):
        for owner in owners where closure.contains(owner) {
          targetFiles[owner, default: [:]][path] = value
          if let problem = problems[path] { unkeyable[owner, default: []].append(problem) }
        }
      }
    }
    var inputs = KeyInputs()
    if attribution.hasEveryone { inputs.add("everyone", ".", FolderDigest.of(everyone) ?? "(none)") }
    return (targetFiles, inputs, unkeyable)
  }

  /// What an `everyone` file contributes to the digest: how it counts (`global`, `unowned`) and `mode:id`.
  public static func everyoneValue(kind: String, value: String) -> String { kind + " " + value }
}
