import Affected
import PackageModel
import Testing

@Suite("dependency edges for drawing")
struct DependencyEdgesTests {
  static func graph() -> PackageGraph {
    let core = Package(
      path: "Packages/Core", name: "Core", manifestFile: "Packages/Core/Package.swift", packageFingerprint: "c",
      targets: [
        Target(name: "Net", kind: .library, directory: "Packages/Core/Sources/Net", dependencies: [], fingerprint: "n")
      ],
      products: [Product(name: "Net", targets: ["Net"])], dependencies: [])
    let app = Package(
      path: ".", name: "App", manifestFile: "Package.swift", packageFingerprint: "a",
      targets: [
        Target(
          name: "Feature", kind: .library, directory: "Sources/Feature",
          dependencies: [.product("Net", package: "Core")], fingerprint: "f"),
        Target(
          name: "FeatureTests", kind: .test, directory: "Tests/FeatureTests", dependencies: [.target("Feature")],
          fingerprint: "t"),
      ],
      products: [],
      dependencies: [PackageDependency(identity: "core", name: "Core", location: .local(path: "Packages/Core"))])
    return PackageGraph(packages: [app, core])
  }

  @Test func edgesFollowTargetAndLocalProductDependencies() {
    let graph = Self.graph()
    let edges = AffectedFormatter.dependencyEdges(in: graph)
    #expect(
      edges.map { "\($0.dependent) -> \($0.dependency)" } == [
        "\(TargetRef(package: ".", name: "Feature")) -> \(TargetRef(package: "Packages/Core", name: "Net"))",
        "\(TargetRef(package: ".", name: "FeatureTests")) -> \(TargetRef(package: ".", name: "Feature"))",
      ])

    // Among a run's selected targets only: an edge with one end outside the set is left out.
    let among = AffectedFormatter.dependencyEdges(
      in: graph,
      among: [TargetRef(package: ".", name: "Feature"), TargetRef(package: ".", name: "FeatureTests")])
    #expect(among.map { "\($0.dependent) -> \($0.dependency)" } == [".:FeatureTests -> .:Feature"])
    #expect(AffectedFormatter.dependencyEdges(in: graph, among: [TargetRef(package: ".", name: "Feature")]).isEmpty)
  }

  /// `ripple mcp`'s `dependencies` and `dependents`: one edge away, or every target a chain reaches.
  @Test func neighboursDirectAndTransitive() {
    let graph = Self.graph()
    let net = TargetRef(package: "Packages/Core", name: "Net")
    let tests = TargetRef(package: ".", name: "FeatureTests")
    func names(_ refs: [TargetRef]) -> [String] { refs.map(\.description) }
    #expect(names(GraphNeighbours.of(net, in: graph, direction: .dependents)) == [".:Feature"])
    #expect(
      names(GraphNeighbours.of(net, in: graph, direction: .dependents, transitive: true)) == [
        ".:Feature", ".:FeatureTests",
      ])
    #expect(names(GraphNeighbours.of(tests, in: graph, direction: .dependencies)) == [".:Feature"])
    #expect(
      names(GraphNeighbours.of(tests, in: graph, direction: .dependencies, transitive: true)) == [
        ".:Feature", "Packages/Core:Net",
      ])
    #expect(GraphNeighbours.of(net, in: graph, direction: .dependencies, transitive: true).isEmpty)
    #expect(GraphNeighbours.of(tests, in: graph, direction: .dependents).isEmpty)
  }
}

/// Keys resolve only their tests' closures' edges (`forwardEdges(from:in:)`): the same edges the whole graph's
/// index gives, for every target the tests reach, and none of the others.
@Suite struct ReachableEdgesTests {
  @Test func theReachableEdgesAreTheWholeGraphsEdgesOfTheClosure() {
    for graph in [DependencyEdgesTests.graph(), appGraph] {
      let whole = ContentKeys.forwardEdges(in: graph)
      let tests = graph.packages.flatMap { package in
        package.targets.filter { $0.kind == .test }.map { TargetRef(package: package.path, name: $0.name) }
      }
      for test in tests {
        let reachable = ContentKeys.forwardEdges(from: [test], in: graph)
        let closure = ContentKeys.closure(of: [test], dependencies: whole)
        #expect(Set(reachable.keys) == closure, "\(test)")
        for target in closure {
          #expect(Set(reachable[target] ?? []) == Set(whole[target] ?? []), "\(test): \(target)")
        }
      }
      #expect(!tests.isEmpty)
    }
    let feature = TargetRef(package: ".", name: "FeatureTests")
    #expect(
      ContentKeys.forwardEdges(from: [feature], in: DependencyEdgesTests.graph())[
        TargetRef(package: ".", name: "Feature")]
        == [TargetRef(package: "Packages/Core", name: "Net")], "through a local product")
  }
}
