import Foundation
import PackageModel
import RippleCore
import SystemClients
import TestSupport
import Testing

@testable import PackageLoading

/// `selection.toolchains` with the real `dump-package`: each listed version's manifest is evaluated and
/// the graphs unioned; versions the installed toolchain or a manifest rules out are config errors.
@Suite struct ToolchainMatrixTests {
  static let modern = """
    // swift-tools-version:6.2
    import PackageDescription

    let package = Package(
      name: "Kit",
      targets: [
        .target(name: "A"), .target(name: "B"),
        .testTarget(name: "ATests", dependencies: ["A", "B"]),
      ]
    )
    """
  static let legacy = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
      name: "Kit",
      targets: [
        .target(name: "A"), .target(name: "B"),
        .testTarget(name: "ATests", dependencies: ["A"]),
        .testTarget(name: "LegacyTests", dependencies: ["A"]),
      ]
    )
    """

  static func toolchains(_ versions: String...) -> [ManifestToolchain] {
    versions.enumerated().map { index, text in
      ManifestToolchain(
        version: text.split(separator: ".").map { Int($0)! },
        origin: "ripple.yml:\(3 + index):17: selection.toolchains[\(index)]")
    }
  }

  @Test func eachVersionsManifestIsEvaluatedAndTheGraphsUnioned() async throws {
    try await withTemporaryDirectory { root in
      try write(["Package.swift": Self.modern, "Package@swift-6.0.swift": Self.legacy], under: root)
      for inPlace in [true, false] {
        let counter = ScriptedProcess.toolchain()
        let loader = GraphLoader(process: counter.client, cache: ManifestCache(directory: nil))
        let graph = try await loader.loadGraph(
          snapshot(of: root, inPlace: inPlace), environments: [], excludePackages: [],
          toolchains: Self.toolchains("6.0", "6.1", "6.3"))
        let package = try #require(graph.package(at: "."))
        #expect(package.manifestFile == "Package.swift", "what the installed toolchain reads")
        #expect(package.targets.map(\.name) == ["A", "B", "ATests", "LegacyTests"])
        #expect(package.target(named: "ATests")?.dependencies == [.byName("A"), .byName("B")])
        let legacyTests = try #require(package.target(named: "LegacyTests"))
        let segments = try #require(ToolchainFingerprint.segments(of: legacyTests.fingerprint))
        // SwiftPM 6.1 cannot read Package.swift (tools version 6.2), so it reads Package@swift-6.0.swift.
        #expect(segments.map(\.manifest) == ["Package@swift-6.0.swift", "Package@swift-6.0.swift", "Package.swift"])
        #expect(segments.map(\.version) == ["6.0", "6.1", "6.3"])
        #expect(segments.map { $0.fingerprint == nil } == [false, false, true])
        #expect(counter.dumpPackageCount == 2, "6.0 and 6.1 share one evaluation")
      }
    }
  }

  @Test func aVersionNewerThanTheInstalledToolchainIsAConfigError() async throws {
    try await withTemporaryDirectory { root in
      try write(["Package.swift": Self.modern], under: root)
      let loader = GraphLoader(process: .live, cache: ManifestCache(directory: nil))
      let error = await #expect(throws: PackageGraphError.self) {
        try await loader.loadGraph(
          snapshot(of: root, inPlace: true), environments: [], excludePackages: [],
          toolchains: Self.toolchains("6.3", "99.0"))
      }
      #expect(error?.category == .usage)
      #expect(error?.description.hasPrefix("ripple.yml:4:17: selection.toolchains[1]: Swift 99.0 is newer") == true)
    }
  }

  @Test func aVersionOlderThanTheManifestsToolsVersionIsAConfigError() async throws {
    try await withTemporaryDirectory { root in
      try write(["Package.swift": Self.modern, "Package@swift-6.0.swift": Self.legacy], under: root)
      let loader = GraphLoader(process: ScriptedProcess.versionOnly().client, cache: ManifestCache(directory: nil))
      // 6.1 reads Package@swift-6.0.swift (Package.swift's 6.2 is too new for it): fine. 5.10 reads
      // Package.swift (no version-specific file is old enough), whose tools version 6.2 it cannot read.
      let error = await #expect(throws: PackageGraphError.self) {
        try await loader.loadGraph(
          snapshot(of: root, inPlace: true), environments: [], excludePackages: [],
          toolchains: Self.toolchains("6.1", "5.10"))
      }
      #expect(error?.category == .usage)
      #expect(
        error?.description.hasPrefix(
          "ripple.yml:4:17: selection.toolchains[1]: Swift 5.10 cannot read package `.` at worktree: the manifest "
            + "it would choose, `Package.swift`, declares swift-tools-version 6.2") == true)
    }
  }
}
