import Foundation
import PackageModel
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import PackageLoading

/// A nested package that reaches the root with `.package(path: "../")` names it by the checkout's folder
/// (SwiftPM takes a path dependency's identity from its folder name). Runs the real `dump-package`.
@Suite struct RootFolderNameTests {
  static let repository = [
    "Package.swift": """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
      name: "server-kit",
      products: [.library(name: "KitCore", targets: ["KitCore"])],
      targets: [.target(name: "KitCore"), .testTarget(name: "KitCoreTests", dependencies: ["KitCore"])]
    )
    """,
    "Sources/KitCore/KitCore.swift": "public let kit = 1\n",
    "Tests/KitCoreTests/KitCoreTests.swift": "import KitCore\n",
    "Benchmarks/Package.swift": """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
      name: "Benchmarks",
      dependencies: [.package(path: "../")],
      targets: [.executableTarget(name: "Bench", dependencies: [.product(name: "KitCore", package: "server-kit")])]
    )
    """,
    "Benchmarks/Sources/Bench/main.swift": "import KitCore\n",
  ]

  @Test(arguments: [true, false])
  func inAFolderNamedLikeThePackageBothSidesEvaluate(inPlace: Bool) async throws {
    try await withTemporaryDirectory { parent in
      let root = parent + "/server-kit"
      try write(Self.repository, under: root)
      let graph = try await GraphLoader(process: .live, cache: ManifestCache(directory: parent + "/cache"))
        .loadGraph(snapshot(of: root, inPlace: inPlace), environments: [[:]], excludePackages: [])
      #expect(graph.packages.map(\.path) == [".", "Benchmarks"])
      #expect(graph.package(at: "Benchmarks")?.target(named: "Bench")?.dependencies.isEmpty == false)
    }
  }

  @Test(arguments: [true, false])
  func inAnotherFolderTheErrorNamesBothAndTheOtherPackagesEvaluate(inPlace: Bool) async throws {
    try await withTemporaryDirectory { parent in
      let root = parent + "/repo-123"
      try write(Self.repository, under: root)
      let loader = GraphLoader(process: .live, cache: ManifestCache(directory: parent + "/cache"))
      let tree = snapshot(of: root, inPlace: inPlace)
      let partial = try await loader.loadPartialGraph(tree, environments: [[:]], excludePackages: [])
      #expect(partial.graph.packages.map(\.path) == ["."])
      #expect(partial.failedPackages == ["Benchmarks"])
      #expect(
        partial.failures == [
          .rootFolderNameMismatch(
            packagePath: "Benchmarks", revision: tree.label, packageName: "server-kit", folderName: "repo-123")
        ])

      let error = await #expect(throws: PackageGraphError.self) {
        try await loader.loadGraph(tree, environments: [[:]], excludePackages: [])
      }
      #expect(error?.category == .environment)
      let message = error?.description ?? ""
      #expect(message.contains("names the repository's root package 'server-kit'"))
      #expect(message.contains("this checkout's folder is 'repo-123'"))
      #expect(message.contains("clone into a folder named 'server-kit'"))
    }
  }

  /// The same manifest bytes evaluate differently in a clone with another folder name: a cache entry
  /// made in `server-kit` must not answer for `repo-123`.
  @Test func theCacheKeyHoldsTheFolderName() async throws {
    try await withTemporaryDirectory { parent in
      let cache = ManifestCache(directory: parent + "/cache")
      try write(Self.repository, under: parent + "/server-kit")
      try write(Self.repository, under: parent + "/repo-123")
      _ = try await GraphLoader(process: .live, cache: cache)
        .loadGraph(snapshot(of: parent + "/server-kit", inPlace: false), environments: [[:]], excludePackages: [])
      let counter = ScriptedProcess.toolchain()
      let partial = try await GraphLoader(process: counter.client, cache: cache)
        .loadPartialGraph(snapshot(of: parent + "/repo-123", inPlace: false), environments: [[:]], excludePackages: [])
      #expect(counter.dumpPackageCount == 2)
      #expect(partial.failedPackages == ["Benchmarks"])
    }
  }

  @Test func swiftPMsRefusalIsReadOnlyWhenTheValidPackageIsTheRoot() {
    let message = """
      error: 'benchmarks': unknown package 'server-kit' in dependencies of target 'B'; valid packages are: \
      'repo-123' (at '/ci/work/repo-123')
      error: invalid manifests at [<AbsolutePath:"/ci/work/repo-123/Benchmarks">]
      """
    #expect(ManifestEvaluator.rootNamedByAnotherName(errorOutput: message, root: "/ci/work/repo-123") == "server-kit")
    #expect(ManifestEvaluator.rootNamedByAnotherName(errorOutput: message, root: "/ci/work/other") == nil)
    let typo =
      "error: 'app': unknown package 'Sharde' in dependencies of target 'A'; valid packages are: "
      + "'shared' (at '/r/Shared')"
    #expect(ManifestEvaluator.rootNamedByAnotherName(errorOutput: typo, root: "/r") == nil)
  }
}
