import PackageModel
import RippleCore

/// Adds Xcode projects to a package graph (docs/DESIGN.md, rule 12): each project a node of origin
/// `.xcodeProject` at its bundle path, each native target a target of it; package product dependencies
/// become `.product` dependencies on the project's package references; the schemes and test plans that
/// test a target (Xcode's or a package's) become paths it owns.
public enum XcodeGraphMapper {
  public static func merge(
    _ projects: [XcodeProject], workspaces: [XcodeWorkspace] = [], schemes: [XcodeScheme],
    testPlans: [String: XcodeTestPlan], into graph: PackageGraph, files: Set<String>
  ) -> PackageGraph {
    var packages = graph.packages
    let implicit = ImplicitDependencies(projects: projects, workspaces: workspaces)
    var edges: [String: [String: [ImplicitDependencies.Edge]]] = [:]
    for project in projects { edges[project.path] = implicit.edges(of: project) }
    // Schemes that do not find implicit dependencies drop the edges none of them rebuilds.
    edges = ImplicitSchemeRule.kept(edges, projects: projects, schemes: schemes, testPlans: testPlans)
    for project in projects {
      packages.append(package(of: project, graph: graph, files: files, implicit: edges[project.path] ?? [:]))
    }
    // A workspace depends on the projects and packages it holds: its Package.resolved covers them (rule 5).
    let known = Set(packages.map(\.path))
    for workspace in workspaces {
      let held = workspace.references.filter(known.contains).map {
        PackageDependency(
          identity: XcodePackageReference.identity(ofLocation: $0), location: .local(path: $0), fingerprint: $0)
      }
      let name = workspace.path.split(separator: "/").last.map(String.init) ?? workspace.path
      packages.append(
        Package(
          path: workspace.path, name: name, manifestFile: "contents.xcworkspacedata", packageFingerprint: "",
          targets: [], dependencies: held, origin: .xcodeWorkspace))
    }
    var merged = PackageGraph(packages: packages)
    let byPath = Dictionary(projects.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    for scheme in schemes {
      var testers: [TestEntry] = scheme.testables
      for reference in scheme.testPlans {
        guard let plan = testPlans[reference.path] else { continue }
        testers += plan.targets
        for entry in plan.targets { own(reference.path, by: entry, projects: byPath, in: &merged) }
      }
      for entry in testers where entry.enabled { own(scheme.path, by: entry, projects: byPath, in: &merged) }
    }
    return merged
  }

  /// The graph target a scheme or test plan entry names, if the graph has it.
  public static func ref(of entry: TestEntry, projects: [String: XcodeProject]) -> (package: String, name: String) {
    if let project = projects[entry.container] {
      return (project.path, project.target(id: entry.identifier)?.name ?? entry.name)
    }
    return (entry.container, entry.name)
  }

  private static func own(
    _ path: String, by entry: TestEntry, projects: [String: XcodeProject], in graph: inout PackageGraph
  ) {
    let (packagePath, name) = ref(of: entry, projects: projects)
    guard let p = graph.packages.firstIndex(where: { $0.path == packagePath }),
      let t = graph.packages[p].targets.firstIndex(where: { $0.name == name })
    else { return }
    var owned = graph.packages[p].targets[t].ownedPaths ?? []
    if !owned.contains(path) { owned.append(path) }
    graph.packages[p].targets[t].ownedPaths = owned.sorted()
  }

  static func package(
    of project: XcodeProject, graph: PackageGraph, files: Set<String>,
    implicit: [String: [ImplicitDependencies.Edge]] = [:]
  ) -> Package {
    var dependencies: [PackageDependency] = []
    var identities: [String: String] = [:]
    func add(_ dependency: PackageDependency) {
      guard !dependencies.contains(where: { $0.location == dependency.location }) else { return }
      dependencies.append(dependency)
    }
    for reference in project.packageReferences {
      identities[reference.id] = reference.identity
      add(
        PackageDependency(
          identity: reference.identity, location: reference.location, fingerprint: reference.fingerprint))
    }
    // A folder reference holding a Package.swift is a local package (Xcode's older way of adding one).
    // (No manifest in the tree, as in most apps: no file reference to join.)
    let folderPackages =
      files.isEmpty ? [] : project.fileReferences.filter { files.contains(FastPath.join($0, "Package.swift")) }
    for folder in folderPackages {
      add(local(folder, graph: graph))
    }
    // A product with no package named comes from a folder package vending it, else from any local
    // package of the graph that vends it.
    let unnamed = Set(project.targets.flatMap(\.productDependencies).filter { $0.packageReference == nil }.map(\.name))
    for product in unnamed.sorted() {
      let fromFolders = folderPackages.contains { graph.package(at: $0)?.product(named: product) != nil }
      guard !fromFolders else { continue }
      for vendor in graph.packages where vendor.origin == nil && vendor.product(named: product) != nil {
        add(local(vendor.path, graph: graph))
      }
    }
    // A target of another project is reached as that project's product of the same name (every Xcode
    // target is one, below).
    for dependency in project.targets.flatMap(\.foreignDependencies) {
      add(
        PackageDependency(
          identity: XcodePackageReference.identity(ofLocation: dependency.project),
          location: .local(path: dependency.project), fingerprint: dependency.project))
    }
    // An implicit edge's project, under the identity it already has, else its bundle name, else (two
    // projects of the same name, both building the product) its path, so that each stays reachable.
    var implicitIdentity: [String: String] = [:]
    for edge in implicit.values.joined() where edge.project != project.path && implicitIdentity[edge.project] == nil {
      if let known = dependencies.first(where: { $0.location == .local(path: edge.project) }) {
        implicitIdentity[edge.project] = known.identity
        continue
      }
      var identity = XcodePackageReference.identity(ofLocation: edge.project)
      if dependencies.contains(where: { $0.identity == identity }) { identity = edge.project.lowercased() }
      implicitIdentity[edge.project] = identity
      add(PackageDependency(identity: identity, location: .local(path: edge.project), fingerprint: edge.project))
    }
    let targets = project.targets.map { target in
      var edges: [TargetDependency] = target.dependencies.map { .target($0) }
      var notes: [String: String] = [:]
      for edge in implicit[target.name] ?? [] {
        if edge.project == project.path {
          if !target.dependencies.contains(edge.target) { edges.append(.target(edge.target)) }
        } else {
          edges.append(.product(edge.target, package: implicitIdentity[edge.project]))
        }
        notes[edge.project + ":" + edge.target] = edge.reason
      }
      for product in target.productDependencies {
        edges.append(.product(product.name, package: product.packageReference.flatMap { identities[$0] }))
      }
      for dependency in target.foreignDependencies {
        edges.append(
          .product(dependency.target, package: XcodePackageReference.identity(ofLocation: dependency.project)))
      }
      var mapped = Target(
        name: target.name, kind: target.kind, directory: project.path, dependencies: edges,
        fingerprint: target.fingerprint, ownedPaths: target.paths,
        excludedPaths: target.excludedPaths.isEmpty ? nil : target.excludedPaths)
      mapped.implicitEdges = notes.isEmpty ? nil : notes
      return mapped
    }
    return Package(
      path: project.path, name: project.name, manifestFile: "project.pbxproj",
      packageFingerprint: project.fingerprint, targets: targets,
      products: project.targets.map { Product(name: $0.name, kind: "xcode", targets: [$0.name]) },
      dependencies: dependencies, origin: .xcodeProject)
  }

  private static func local(_ path: String, graph: PackageGraph) -> PackageDependency {
    let identity =
      path == "."
      ? (graph.package(at: ".")?.name.lowercased() ?? ".") : XcodePackageReference.identity(ofLocation: path)
    return PackageDependency(identity: identity, location: .local(path: path), fingerprint: path)
  }
}
