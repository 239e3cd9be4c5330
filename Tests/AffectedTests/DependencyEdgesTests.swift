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
    let edges = AffectedFormatter.dependencyEdges(in: PackageGraph(packages: [app, core]))
    #expect(
      edges.map { "\($0.dependent) -> \($0.dependency)" } == [
        "\(TargetRef(package: ".", name: "Feature")) -> \(TargetRef(package: "Packages/Core", name: "Net"))",
        "\(TargetRef(package: ".", name: "FeatureTests")) -> \(TargetRef(package: ".", name: "Feature"))",
      ])
  }
}
