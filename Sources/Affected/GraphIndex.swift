import PackageModel
import RippleCore

/// A product of a package of the graph, named by the package directory and product name.
struct ProductRef: Hashable {
  var package: String
  var name: String
}

/// The edges of one package graph (docs/DESIGN.md, rule 6), resolved once so the rules can look them up.
///
/// Nodes are the targets of the graph. A dependency on a product of a local package (`.package(path:)`
/// whose directory is in the graph) is an edge to each of the product's targets. Products of remote
/// packages are not nodes; the index only remembers which targets use which package dependency, which
/// the dependency and pin rules need.
struct GraphIndex {
  let graph: PackageGraph
  private(set) var targets: [TargetRef: Target] = [:]
  /// Target → the targets that depend on it (directly), sorted.
  private(set) var dependents: [TargetRef: [TargetRef]] = [:]
  /// Target → products of local packages it uses.
  private(set) var localProducts: [TargetRef: Set<ProductRef>] = [:]
  /// Target → identities of its package's dependencies whose products it uses.
  private(set) var usedDependencies: [TargetRef: Set<String>] = [:]
  /// Targets that use a product of a remote package (or of a local one outside the repository).
  private(set) var externalUsers: Set<TargetRef> = []

  /// Package path → the names of its targets, and packages by path: lookups while resolving edges.
  private var targetNames: [String: Set<String>] = [:]
  private var packagesByPath: [String: Package] = [:]

  /// `only`: index just these targets and the edges from them (the lookups still cover every package); nil
  /// for the whole graph. Drawing a run's few selected targets then costs those targets, not 4,000.
  init(_ graph: PackageGraph, only: Set<TargetRef>? = nil) {
    self.graph = graph
    var count = 0
    for package in graph.packages {
      packagesByPath[package.path] = package
      targetNames[package.path] = Set(package.targets.map(\.name))
      count += package.targets.count
    }
    targets.reserveCapacity(count)
    var dependents: [TargetRef: Set<TargetRef>] = [:]
    dependents.reserveCapacity(count)
    for package in graph.packages {
      for target in package.targets {
        let ref = TargetRef(package: package.path, name: target.name)
        if let only, !only.contains(ref) { continue }
        targets[ref] = target
        for list in [target.dependencies, target.pluginUsages] {
          for dependency in list {
            let resolution = resolve(dependency, in: package)
            for edge in resolution.targets where edge != ref { dependents[edge, default: []].insert(ref) }
            // Only targets that use something get an entry: the lookups treat a missing one as empty.
            if !resolution.products.isEmpty { localProducts[ref, default: []].formUnion(resolution.products) }
            if !resolution.dependencies.isEmpty {
              usedDependencies[ref, default: []].formUnion(resolution.dependencies)
            }
            if resolution.isExternal { externalUsers.insert(ref) }
          }
        }
      }
    }
    self.dependents = dependents.mapValues { $0.sorted() }
  }

  /// Target → the targets it depends on directly, for `start` and every target they reach, and no other: a
  /// leaf's key resolves its closure's edges, not the 4,000 targets' of the graph (issue 50).
  static func dependencies(reachableFrom start: [TargetRef], in graph: PackageGraph) -> [TargetRef: [TargetRef]] {
    let index = GraphIndex(graph, only: [])
    var forward: [TargetRef: [TargetRef]] = [:]
    // Each package's targets by name, made when the walk first enters it (`target(named:)` scans ~10² targets).
    var byName: [String: [String: Target]] = [:]
    func target(_ ref: TargetRef, in package: Package) -> Target? {
      if let known = byName[package.path] { return known[ref.name] }
      let named = Dictionary(package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
      byName[package.path] = named
      return named[ref.name]
    }
    var pending = start
    while let ref = pending.popLast() {
      guard forward[ref] == nil else { continue }
      guard let package = index.packagesByPath[ref.package], let target = target(ref, in: package) else {
        forward[ref] = []
        continue
      }
      var edges: Set<TargetRef> = []
      for list in [target.dependencies, target.pluginUsages] {
        for dependency in list {
          for edge in index.resolve(dependency, in: package).targets where edge != ref { edges.insert(edge) }
        }
      }
      forward[ref] = edges.sorted()
      pending += edges.filter { forward[$0] == nil }
    }
    return forward
  }

  /// Every target of the graph, sorted.
  var allTargets: [TargetRef] { targets.keys.sorted() }

  /// The targets of `package` that use a product of its dependency `identity`.
  func users(ofDependency identity: String, in package: Package) -> [TargetRef] {
    package.targets.map { TargetRef(package: package.path, name: $0.name) }
      .filter { usedDependencies[$0]?.contains(identity) == true }
  }

  /// The targets, in any package, that use `product`.
  func users(of product: ProductRef) -> [TargetRef] {
    allTargets.filter { localProducts[$0]?.contains(product) == true }
  }

  /// The packages whose resolution a `Package.resolved` in `directory` covers: that package and the local
  /// packages it reaches through `.package(path:)`, in breadth-first order.
  func packagesResolved(from directory: String) -> [Package] {
    guard let start = graph.package(at: directory) else { return [] }
    var seen: Set<String> = [start.path]
    var order = [start]
    var index = 0
    while index < order.count {
      for dependency in order[index].dependencies {
        guard case .local(let path?) = dependency.location, let next = graph.package(at: path),
          seen.insert(next.path).inserted
        else { continue }
        order.append(next)
      }
      index += 1
    }
    return order
  }

  // MARK: - Resolving one dependency entry

  /// Whether the package at `path` has a target named `name`.
  private func hasTarget(_ name: String, in path: String) -> Bool {
    targetNames[path]?.contains(name) == true
  }

  private struct Resolution {
    var targets: [TargetRef] = []
    var products: [ProductRef] = []
    var dependencies: [String] = []
    var isExternal = false
  }

  private func resolve(_ dependency: TargetDependency, in package: Package) -> Resolution {
    switch dependency {
    case .target(let name):
      return hasTarget(name, in: package.path)
        ? Resolution(targets: [TargetRef(package: package.path, name: name)]) : Resolution()
    case .byName(let name):
      if hasTarget(name, in: package.path) {
        return Resolution(targets: [TargetRef(package: package.path, name: name)])
      }
      return resolveProduct(name, among: package.dependencies)
    case .product(let name, let packageName):
      guard let packageName else { return resolveProduct(name, among: package.dependencies) }
      guard let declared = package.dependency(named: packageName) else { return Resolution() }
      return resolveProduct(name, among: [declared])
    }
  }

  /// A product named `name` of one of `candidates`. A local package in the graph that has it wins.
  /// Otherwise the product must come from a package whose products are unknown here (remote, or local
  /// outside the repository): the one whose identity or name is the product's name, else — not knowing
  /// which — every such candidate, so that a change to any of them selects the target (safe side).
  private func resolveProduct(_ name: String, among candidates: [PackageDependency]) -> Resolution {
    for candidate in candidates {
      guard case .local(let path?) = candidate.location, let local = packagesByPath[path],
        let product = local.product(named: name)
      else { continue }
      return Resolution(
        targets: product.targets.filter { hasTarget($0, in: local.path) }.map {
          TargetRef(package: local.path, name: $0)
        },
        products: [ProductRef(package: local.path, name: name)], dependencies: [candidate.identity])
    }
    let external = candidates.filter { candidate in
      if case .local(let path?) = candidate.location, packagesByPath[path] != nil { return false }
      return true
    }
    if candidates.count == 1 {
      return Resolution(dependencies: [candidates[0].identity], isExternal: !external.isEmpty)
    }
    let named = external.filter { $0.identity == name.lowercased() || $0.name?.lowercased() == name.lowercased() }
    let chosen = named.isEmpty ? external : named
    return Resolution(dependencies: chosen.map(\.identity), isExternal: !chosen.isEmpty)
  }
}
