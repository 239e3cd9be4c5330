import PackageModel
import PassRecords
import RippleConfig
import RippleCore

/// The key inputs of test targets at one state of the repository (docs/DESIGN.md, "Pass records").
///
/// A key covers what the build of a target's test run reads, so that "no change reaches it" and "its key
/// is the same" agree: for every target in the test target's closure (its dependencies, transitively,
/// through local products too) its evaluated manifest entry, its package's evaluated settings and
/// dependency requirements, the files it owns with their git modes (rule 3, links, gitlinks and listed
/// Xcode paths included), what lies in its folder that git ignores (`folderContents`, hashed by the
/// caller), the files `selection.inputs`, `generate:` inputs and `secrets:` templates give it, and the
/// assets, generated resources and secrets installed into its folder; the pins SwiftPM resolved for the
/// tested package; and, for every target, the `selection.global` files and, with `selection.unowned:
/// all`, every file no rule claims. What a run adds (toolchain, flags, the run's environment,
/// `test.keyEnvironment`) comes in `common`. Paths the selection ignores, and manifests (their
/// evaluation is what counts), are not inputs. What cannot be keyed (a link leaving the repository, a
/// dirty submodule, pins that cannot be read) makes the target unkeyable: never looked up, never recorded.
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
    /// Every file of the state as git sees it (path → `mode:id`, gitlinks with their commit), the working
    /// tree's edits included.
    public var files: [String: String]
    public var selection: SelectionConfig
    public var assets: AssetsConfig
    /// The path of ripple.yml (its asset entries count per target, the rest does not change results).
    public var configPath: String?
    /// Entries every key gets: toolchain, flags, the run, allow-listed variables.
    public var common: KeyInputs
    /// What lies in each target's folder that git does not track (ignored files by content).
    public var folderContents: [TargetRef: KeyInputs]
    /// Why a target cannot be keyed, found on disk (a link leaving the repository, an unreadable file, a
    /// dirty submodule).
    public var unkeyable: [TargetRef: [String]]
    /// Tested package path → its pins.
    public var pins: [String: Pins]
    /// Paths whose content no key can hold (a link leaving the repository, a submodule with edits): their
    /// owners are unkeyable.
    public var unkeyablePaths: [String: String]
    /// Package path → what else its manifest's evaluation by a build reads (variables no entry sets).
    public var packageInputs: [String: KeyInputs]

    public init(
      files: [String: String], selection: SelectionConfig, assets: AssetsConfig, configPath: String?,
      common: KeyInputs, folderContents: [TargetRef: KeyInputs] = [:], unkeyable: [TargetRef: [String]] = [:],
      pins: [String: Pins] = [:], unkeyablePaths: [String: String] = [:], packageInputs: [String: KeyInputs] = [:]
    ) {
      self.files = files
      self.selection = selection
      self.assets = assets
      self.configPath = configPath
      self.common = common
      self.folderContents = folderContents
      self.unkeyable = unkeyable
      self.pins = pins
      self.unkeyablePaths = unkeyablePaths
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

  /// The inputs of each of `tests`, by target (unkeyable ones included, with their inputs so far).
  public static func inputs(for tests: [TargetRef], in graph: PackageGraph, context: Context) -> [TargetRef: KeyInputs]
  {
    keys(for: tests, in: graph, context: context).mapValues(\.inputs)
  }

  /// Every target `test` builds: itself and its dependencies, transitively.
  public static func closure(of tests: [TargetRef], in graph: PackageGraph) -> Set<TargetRef> {
    let dependencies = forwardEdges(in: graph)
    var closure: Set<TargetRef> = []
    var pending = tests
    while let current = pending.popLast() {
      guard closure.insert(current).inserted else { continue }
      pending += dependencies[current] ?? []
    }
    return closure
  }

  /// The key of each of `tests`.
  public static func keys(for tests: [TargetRef], in graph: PackageGraph, context: Context) -> [TargetRef: TargetKey] {
    let attribution = Attribution(graph: graph, context: context)
    var out: [TargetRef: TargetKey] = [:]
    for test in tests {
      var inputs = context.common
      var unkeyable: [String] = []
      inputs.add(contentsOf: attribution.everyone)
      var packages: Set<String> = []
      for target in closure(of: [test], in: graph).sorted(by: { $0.description < $1.description }) {
        guard let package = graph.package(at: target.package), let model = package.target(named: target.name)
        else { continue }
        packages.insert(package.path)
        inputs.add("target", target.description, model.fingerprint)
        inputs.add(contentsOf: attribution.byTarget[target] ?? KeyInputs())
        inputs.add(contentsOf: context.folderContents[target] ?? KeyInputs())
        unkeyable += context.unkeyable[target] ?? []
        unkeyable += attribution.unkeyable[target] ?? []
      }
      var remote = false
      for path in packages.sorted() {
        guard let package = graph.package(at: path) else { continue }
        inputs.add("package", path, package.packageFingerprint)
        inputs.add(contentsOf: context.packageInputs[path] ?? KeyInputs())
        for dependency in package.dependencies {
          inputs.add("dependency", path + " " + dependency.identity, dependency.fingerprint)
          if case .remote = dependency.location { remote = true }
        }
      }
      // SwiftPM resolves every remote dependency of the tested package's graph into its root's pins.
      let pinsProblem =
        remote ? add(context.pins[test.package] ?? .missing, package: test.package, to: &inputs) : nil
      out[test] = TargetKey(inputs: inputs, unkeyable: unkeyable, pinned: remote, pinsProblem: pinsProblem)
    }
    return out
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
  var unkeyable: [TargetRef: [String]] = [:]

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
      // Manifests count by their evaluation, `Package.resolved` by the pins SwiftPM reads (`Pins`).
      if Ownership.isPackageFile(path, in: [graph]) { continue }
      var owners: Set<TargetRef> = []
      if let owner = Ownership.owner(of: path, in: graph) { owners.insert(owner) }
      for (owner, _) in Ownership.linkedOwners(of: path, in: graph) { owners.insert(owner) }
      owners.formUnion(XcodeOwnership.listedOwners(of: path, in: graph))
      for (glob, targets) in inputs where glob.matches(path) { owners.formUnion(targets) }
      for entry in context.assets.generate where entry.inputs.contains(where: { $0.matches(path) }) {
        if let owner = Ownership.owner(of: entry.destination, in: graph) { owners.insert(owner) }
      }
      for secret in context.assets.secrets where secret.template == path || secret.example == path {
        if let owner = Ownership.owner(of: secret.output, in: graph) { owners.insert(owner) }
      }
      for owner in owners { byTarget[owner, default: KeyInputs()].add("file", path, id) }
      if let reason = context.unkeyablePaths[path] {
        for owner in owners { unkeyable[owner, default: []].append(reason) }
      }
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
    for secret in context.assets.secrets {
      guard let owner = Ownership.owner(of: secret.output, in: graph) else { continue }
      byTarget[owner, default: KeyInputs()].add("secret", secret.id, Self.describe(secret))
    }
  }

  /// A secret's entry: where it renders, from what, and the variables its placeholders read (their values
  /// reach the key through the output's bytes, `folderContents`).
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
