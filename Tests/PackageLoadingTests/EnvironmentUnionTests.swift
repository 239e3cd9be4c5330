import PackageModel
import Testing

@testable import PackageLoading

@Suite struct EnvironmentUnionTests {
  func package(fingerprint: String, targets: [Target], dependencies: [PackageDependency] = []) -> Package {
    Package(
      path: ".", name: "App", packageFingerprint: fingerprint, targets: targets,
      products: [Product(name: "Lib", targets: targets.map(\.name))], dependencies: dependencies)
  }

  @Test func singleEnvironmentIsUnchanged() {
    let only = package(
      fingerprint: "p", targets: [Target(name: "A", kind: .library, directory: "Sources/A", fingerprint: "a")])
    #expect(EnvironmentUnion.union([only]) == only)
  }

  @Test func targetsOfAnyEnvironmentAreInTheUnion() {
    let plain = package(
      fingerprint: "p", targets: [Target(name: "A", kind: .library, directory: "Sources/A", fingerprint: "a")])
    let server = package(
      fingerprint: "p",
      targets: [
        Target(name: "A", kind: .library, directory: "Sources/A", dependencies: [.target("S")], fingerprint: "a2"),
        Target(name: "S", kind: .library, directory: "Sources/S", fingerprint: "s"),
      ],
      dependencies: [PackageDependency(identity: "vapor", location: .remote("https://x/vapor"), fingerprint: "v")])
    let union = EnvironmentUnion.union([plain, server])
    #expect(union.targets.map(\.name) == ["A", "S"])
    #expect(union.target(named: "A")?.dependencies == [.target("S")])
    #expect(union.target(named: "A")?.fingerprint == "env[0] a\nenv[1] a2")
    #expect(union.target(named: "S")?.fingerprint == "env[0] <absent>\nenv[1] s")
    #expect(union.packageFingerprint == "env[0] p\nenv[1] p")
    #expect(union.products.first?.targets == ["A", "S"])
    #expect(union.dependencies.map(\.identity) == ["vapor"])
    #expect(union.dependencies.first?.fingerprint == "env[0] <absent>\nenv[1] v")
  }

  @Test func aChangeVisibleInOneEnvironmentIsADifference() {
    func union(serverFingerprint: String) -> Package {
      EnvironmentUnion.union([
        package(fingerprint: "p", targets: []),
        package(
          fingerprint: "p",
          targets: [Target(name: "S", kind: .library, directory: "Sources/S", fingerprint: serverFingerprint)]),
      ])
    }
    #expect(union(serverFingerprint: "s1") != union(serverFingerprint: "s2"))
  }

  @Test func otherEnvironmentsVariablesAreRemoved() {
    let all: [[String: String]] = [[:], ["TEST_SERVER": "1"]]
    #expect(GraphLoader.effectiveEnvironment([:], all: all) == ["TEST_SERVER": String?.none])
    #expect(GraphLoader.effectiveEnvironment(["TEST_SERVER": "1"], all: all) == ["TEST_SERVER": "1"])
  }
}
