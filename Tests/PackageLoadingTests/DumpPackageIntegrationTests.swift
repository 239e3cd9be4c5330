import Foundation
import PackageModel
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import PackageLoading

/// Runs the real `swift package dump-package` (about 0.8 s per call): keep these few.
@Suite struct DumpPackageIntegrationTests {
  static let repository = [
    "Package.swift": """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
      name: "App",
      products: [.library(name: "App", targets: ["AppCore"])],
      dependencies: [
        .package(path: "Shared"),
        .package(url: "https://example.invalid/nowhere/remote.git", from: "1.0.0"),
      ],
      targets: [
        .target(
          name: "AppCore",
          dependencies: [.product(name: "Shared", package: "Shared"), .product(name: "Remote", package: "remote")]),
        .testTarget(name: "AppCoreTests", dependencies: ["AppCore"]),
      ]
    )
    """,
    "Sources/AppCore/AppCore.swift": "public let app = 1\n",
    "Tests/AppCoreTests/AppCoreTests.swift": "import AppCore\n",
    "Shared/Package.swift": """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
      name: "Shared",
      products: [.library(name: "Shared", targets: ["Shared"])],
      targets: [.target(name: "Shared")]
    )
    """,
    "Shared/Sources/Shared/Shared.swift": "public let shared = 1\n",
  ]

  @Test func nestedLocalAndOfflineRemoteDependenciesInPlaceAndFromScratchAgree() async throws {
    try await withTemporaryDirectory { root in
      try write(Self.repository, under: root)
      let before = listFiles(under: root)
      let counter = ScriptedProcess.toolchain()
      let inPlace = try await GraphLoader(process: counter.client, cache: ManifestCache(directory: nil))
        .loadGraph(snapshot(of: root, inPlace: true), environments: [[:]], excludePackages: [])
      #expect(counter.dumpPackageCount == 2)
      #expect(listFiles(under: root) == before, "dump-package leaves no files in the package directories")
      let rootName = URL(fileURLWithPath: root).lastPathComponent
      let litter = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        .filter { $0.contains(rootName) && $0 != rootName }
      #expect(litter == [], "SwiftPM's lock files stay out of the user's TMPDIR")

      #expect(inPlace.packages.map(\.path) == [".", "Shared"])
      let app = try #require(inPlace.package(at: "."))
      #expect(app.name == "App")
      #expect(
        app.dependencies.map(\.location) == [
          .local(path: "Shared"), .remote("https://example.invalid/nowhere/remote.git"),
        ])
      #expect(app.target(named: "AppCore")?.directory == "Sources/AppCore")
      #expect(app.target(named: "AppCoreTests")?.directory == "Tests/AppCoreTests")
      #expect(inPlace.package(at: "Shared")?.target(named: "Shared")?.directory == "Shared/Sources/Shared")
      #expect(!app.packageFingerprint.contains(root))

      let fromScratch = try await GraphLoader(process: .live, cache: ManifestCache(directory: nil))
        .loadGraph(snapshot(of: root, inPlace: false), environments: [[:]], excludePackages: [])
      #expect(fromScratch == inPlace)
    }
  }

  @Test func secondLoadComesFromTheCacheAndCorruptEntriesAreReevaluated() async throws {
    try await withTemporaryDirectory { root in
      let repository = root + "/repo"
      let cache = ManifestCache(directory: root + "/cache")
      try write(Self.repository, under: repository)
      let tree = snapshot(of: repository, inPlace: true)

      let counter = ScriptedProcess.toolchain()
      let cold = try await GraphLoader(process: counter.client, cache: cache)
        .loadGraph(tree, environments: [[:]], excludePackages: [])
      #expect(counter.dumpPackageCount == 2)
      #expect(counter.requests.count == 3, "two manifests and one `swift --version`")

      let warm = try await GraphLoader(process: ProcessClient.forbidden, cache: cache)
        .loadGraph(tree, environments: [[:]], excludePackages: [])
      #expect(warm == cold)

      let files = try FileManager.default.contentsOfDirectory(atPath: root + "/cache")
      let entries = files.filter { $0.hasSuffix(".json") }
      let graphs = files.filter { $0.hasPrefix("graph-") }
      #expect(entries.count == 2)
      #expect(graphs.count == 1, "one graph for the one set of manifests")
      // A corrupt graph entry is a miss; the manifest entries behind it are then read, and a corrupt one
      // is evaluated again.
      for name in [entries[0]] + graphs {
        let corrupted = URL(fileURLWithPath: root + "/cache/" + name)
        try Data(try Data(contentsOf: corrupted).dropLast(10)).write(to: corrupted)
      }

      let recounter = ScriptedProcess.toolchain()
      let repaired = try await GraphLoader(process: recounter.client, cache: cache)
        .loadGraph(tree, environments: [[:]], excludePackages: [])
      #expect(repaired == cold)
      #expect(recounter.requests.count == 1 && recounter.dumpPackageCount == 1)
      let again = try await GraphLoader(process: ProcessClient.forbidden, cache: cache)
        .loadGraph(tree, environments: [[:]], excludePackages: [])
      #expect(again == cold, "the corrupt entry was overwritten")
    }
  }

  @Test func environmentsAreUnioned() async throws {
    try await withTemporaryDirectory { root in
      try write(
        [
          "Package.swift": """
          // swift-tools-version:5.9
          import Foundation
          import PackageDescription

          var targets: [Target] = [.target(name: "Core")]
          if ProcessInfo.processInfo.environment["TEST_SERVER"] != nil {
            targets.append(.testTarget(name: "ServerTests", dependencies: ["Core"]))
          }
          let package = Package(name: "Server", targets: targets)
          """
        ], under: root)
      let loader = GraphLoader(process: .live, cache: ManifestCache(directory: nil))
      let graph = try await loader.loadGraph(
        snapshot(of: root, inPlace: true), environments: [[:], ["TEST_SERVER": "1"]], excludePackages: [])
      let package = try #require(graph.package(at: "."))
      #expect(package.targets.map(\.name) == ["Core", "ServerTests"])
      let serverTests = try #require(package.target(named: "ServerTests"))
      #expect(serverTests.fingerprint.hasPrefix("env[0] <absent>\nenv[1] {"))
      #expect(serverTests.directory == "Tests/ServerTests")
      #expect(serverTests.dependencies == [.byName("Core")])
    }
  }

  @Test func commentOnlyEditChangesNothing() async throws {
    try await withTemporaryDirectory { root in
      let manifest = """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(name: "Lib", targets: [.target(name: "Lib")])
        """
      try write(["Package.swift": manifest], under: root)
      let counter = ScriptedProcess.toolchain()
      let loader = GraphLoader(process: counter.client, cache: ManifestCache(directory: root + "/.cache"))
      let tree = { snapshot(of: root, inPlace: true) }
      let before = try await loader.loadGraph(tree(), environments: [], excludePackages: [Glob(".cache/**")])
      try write(["Package.swift": manifest + "\n// Lib will grow a second target.\n"], under: root)
      let after = try await loader.loadGraph(tree(), environments: [], excludePackages: [Glob(".cache/**")])
      #expect(counter.dumpPackageCount == 2, "the edited manifest was evaluated again")
      #expect(after == before)
      #expect(after.packages.first?.target(named: "Lib")?.fingerprint.isEmpty == false)
    }
  }

  @Test func failingManifestNamesThePackageRevisionAndSwiftPMsMessage() async throws {
    try await withTemporaryDirectory { root in
      try write(
        [
          "Tools/Broken/Package.swift": """
          // swift-tools-version:5.9
          import PackageDescription

          let package = Package(name: 42)
          """
        ], under: root)
      let loader = GraphLoader(process: .live, cache: ManifestCache(directory: nil))
      let error = await #expect(throws: PackageGraphError.self) {
        try await loader.loadGraph(
          snapshot(of: root, inPlace: false), environments: [["TEST_SERVER": "1"]], excludePackages: [])
      }
      guard case .manifestFailed(let path, let revision, let environment, let message) = error else {
        Issue.record("unexpected error \(String(describing: error))")
        return
      }
      #expect(path == "Tools/Broken")
      #expect(revision == "abc1234")
      #expect(environment == ["TEST_SERVER": "1"])
      #expect(message.contains("error:"))
      #expect(error?.category == .environment)
      #expect(error?.description.contains("TEST_SERVER=1") == true)
    }
  }

  @Test func missingSwiftIsAnEnvironmentError() async throws {
    let loader = GraphLoader(
      process: ProcessClient.forbidden, cache: ManifestCache(directory: nil),
      swiftExecutable: "/nonexistent/ripple/swift")
    let tree = TreeSnapshot(label: "worktree", rootName: "repo", files: [], workingDirectoryRoot: nil) { _ in nil }
    let error = await #expect(throws: PackageGraphError.self) {
      try await loader.loadGraph(tree, environments: [], excludePackages: [])
    }
    #expect(error == .swiftNotFound(executable: "/nonexistent/ripple/swift"))
    #expect(error?.category == .environment)
  }
}
