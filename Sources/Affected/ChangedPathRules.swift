import PackageModel
import RippleConfig
import RippleCore

/// Maps each changed path to targets or to "run everything" (docs/DESIGN.md, rules 3 and 8).
///
/// Per path, in order: an `ignore` glob → nothing; a `global` glob → run every test; a manifest or
/// `Package.resolved` of a package → left to the manifest and pin rules; then the owning target (base
/// graph for the old side, head graph for the new side, both for a modification) and any `inputs` entry
/// that names the path — both apply when both match; a path that neither owns → unowned. Rule 11
/// (AssetRules.swift): after the `global` check, `ripple.yml` may be handled by its asset entries; a
/// `generate:` input counts like an `inputs` entry.
struct ChangedPathRules {
  let input: AffectedInput

  /// The graphs' attribution indexes: a path walks its folders, never every target (issue 50).
  private let head: AttributionIndex
  private let base: AttributionIndex
  private let assets: AssetRules
  /// Both sides evaluate to one graph (no manifest changed): one index serves both.
  private let sameGraph: Bool

  init(input: AffectedInput) {
    self.input = input
    head = AttributionIndex(input.head)
    sameGraph = input.base == input.head
    base = sameGraph ? head : AttributionIndex(input.base)
    assets = AssetRules(manifests: input.assetManifests, base: input.base, head: input.head)
  }

  func apply(to selection: inout SelectionBuilder) {
    let inputs = resolveInputs(into: &selection)
    var unowned: [String] = []
    var seen: Set<String> = []
    for change in input.changes {
      for side in sides(of: change) {
        if !classify(side, inputs: inputs, into: &selection), seen.insert(side.path).inserted {
          unowned.append(side.path)
        }
      }
    }
    reportUnowned(unowned, into: &selection)
  }

  /// One path of a change, the graphs that decide its owner, and the reason an owner gets.
  private struct Side {
    var path: String
    var graphs: [AttributionIndex]
    var reason: String
  }

  private func sides(of change: ChangedFile) -> [Side] {
    switch change.status {
    case .deleted:
      return [Side(path: change.path, graphs: [base], reason: "deleted \(change.path)")]
    case .renamed:
      guard let oldPath = change.oldPath, oldPath != change.path else {
        return [Side(path: change.path, graphs: [head], reason: "changed \(change.path)")]
      }
      let reason = "renamed \(oldPath) → \(change.path)"
      return [
        Side(path: oldPath, graphs: [base], reason: reason), Side(path: change.path, graphs: [head], reason: reason),
      ]
    case .added, .copied:
      return [Side(path: change.path, graphs: [head], reason: "changed \(change.path)")]
    case .modified, .typeChanged:
      return [Side(path: change.path, graphs: sameGraph ? [head] : [head, base], reason: "changed \(change.path)")]
    }
  }

  /// Applies the rules to one path; false when the path is unowned.
  private func classify(_ side: Side, inputs: [(Glob, [TargetRef])], into selection: inout SelectionBuilder) -> Bool {
    let rules = input.selection
    let path = side.path
    if rules.ignore.contains(where: { $0.matches(path) }) { return true }
    if rules.global.contains(where: { $0.matches(path) }) {
      selection.runAll("global file \(path)")
      return true
    }
    if assets.claimConfig(path, into: &selection) { return true }
    if AttributionIndex.isPackageFile(path, in: sameGraph ? [head] : [head, base]) {
      if Ownership.isResolvedFile(path), input.resolvedChanges[path] == nil {
        selection.runAll("\(path) changed but its pins were not compared")
      }
      return true
    }
    var owned = false
    for graph in side.graphs {
      guard let owner = graph.owner(of: path) else { continue }
      selection.add(side.reason, to: owner)
      owned = true
    }
    // Files a target reaches through a symbolic link in its directory are its sources too (rule 3).
    for graph in side.graphs {
      for (owner, link) in graph.linkedOwners(of: path) {
        selection.add("\(side.reason) (through \(link))", to: owner)
        owned = true
      }
    }
    // Xcode targets (and test targets a shared scheme or test plan tests) list the paths they own.
    for graph in side.graphs {
      for owner in graph.listedOwners(of: path) {
        selection.add(side.reason, to: owner)
        owned = true
      }
    }
    for (glob, targets) in inputs where glob.matches(path) {
      selection.add("input \(path)", to: targets)
      owned = true
    }
    if assets.claimInput(path, into: &selection) { owned = true }
    return owned || XcodeOwnership.isSharedScheme(path)
  }

  /// `selection.inputs` keys (`Target` or `pkg/dir:Target`) resolved to targets of the head graph (of the
  /// base graph when the head has none of that name). A key naming no target is a warning.
  private func resolveInputs(into selection: inout SelectionBuilder) -> [(Glob, [TargetRef])] {
    var resolved: [(Glob, [TargetRef])] = []
    for key in input.selection.inputs.keys.sorted() {
      let targets = targets(named: key, in: input.head) ?? targets(named: key, in: input.base)
      guard let targets else {
        selection.warn("selection.inputs names `\(key)`, which is not a target of any package")
        continue
      }
      for glob in input.selection.inputs[key] ?? [] { resolved.append((glob, targets)) }
    }
    return resolved
  }

  private func targets(named key: String, in graph: PackageGraph) -> [TargetRef]? {
    let found = graph.targets(namedByInputsKey: key)
    return found.isEmpty ? nil : found
  }

  /// `paths`: each once. The warning names the first `SelectionBuilder.maxReasons` of them.
  private func reportUnowned(_ paths: [String], into selection: inout SelectionBuilder) {
    guard !paths.isEmpty, input.selection.unowned == .all else { return }
    for path in paths { selection.runAll("unowned file \(path)") }
    let count = paths.count == 1 ? "1 changed file is" : "\(paths.count) changed files are"
    let shown = paths.prefix(SelectionBuilder.maxReasons).joined(separator: ", ")
    let more = paths.count > SelectionBuilder.maxReasons ? " and \(paths.count - SelectionBuilder.maxReasons) more" : ""
    selection.warn(
      "\(count) in no target and matched by no rule, so every test runs: \(shown)\(more). "
        + "To narrow this, list them in `selection.ignore`, `selection.global` or `selection.inputs` of ripple.yml, "
        + "or set `selection.unowned: ignore`.")
  }
}

extension PackageGraph {
  /// The targets a `selection.inputs` key names: `pkg/dir:Target` one of them, a bare `Target` every package's
  /// target of that name.
  func targets(namedByInputsKey key: String) -> [TargetRef] {
    if let colon = key.lastIndex(of: ":") {
      let package = RepoPath.normalize(String(key[..<colon]))
      let name = String(key[key.index(after: colon)...])
      return self.package(at: package)?.target(named: name) != nil ? [TargetRef(package: package, name: name)] : []
    }
    return packages.filter { $0.target(named: key) != nil }.map { TargetRef(package: $0.path, name: key) }
  }
}
