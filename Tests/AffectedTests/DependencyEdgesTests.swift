import Affected
import PackageModel
import Testing

@Suite("dependency edges for drawing")
struct DependencyEdgesTests {
  @Test func edgesFollowTargetAndLocalProductDependencies() {
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
    let graph = PackageGraph(packages: [app, core])
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
}
