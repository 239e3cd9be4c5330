import PackageModel
import RippleCore
import Testing

@testable import PackageLoading

@Suite struct ManifestSelectionTests {
  let toolchain = [6, 3, 1]

  @Test func plainManifestWhenNoVersionedOne() {
    #expect(ManifestSelection.select(fileNames: ["Package.swift"], toolchain: toolchain) == "Package.swift")
  }

  @Test func highestVersionNotNewerThanTheToolchainWins() {
    let names = [
      "Package.swift", "Package@swift-5.swift", "Package@swift-6.2.swift", "Package@swift-6.3.1.swift",
      "Package@swift-6.3.2.swift", "Package@swift-7.swift",
    ]
    #expect(ManifestSelection.select(fileNames: names, toolchain: toolchain) == "Package@swift-6.3.1.swift")
  }

  @Test func missingComponentsCountAsZero() {
    let names = ["Package.swift", "Package@swift-6.swift", "Package@swift-6.3.swift"]
    #expect(ManifestSelection.select(fileNames: names, toolchain: toolchain) == "Package@swift-6.3.swift")
    #expect(ManifestSelection.select(fileNames: names, toolchain: [6, 0]) == "Package@swift-6.swift")
  }

  @Test func onlyNewerVersionedManifestsFallBackToPackageSwift() {
    let names = ["Package.swift", "Package@swift-6.4.swift", "Package@swift-7.swift"]
    #expect(ManifestSelection.select(fileNames: names, toolchain: toolchain) == "Package.swift")
  }

  @Test func malformedNamesAreNotManifests() {
    for name in [
      "Package@swift-.swift", "Package@swift-6.x.swift", "Package@swift-1.2.3.4.swift", "Package.swift.orig",
    ] {
      #expect(ManifestSelection.version(ofManifest: name) == nil, "\(name)")
    }
    #expect(ManifestSelection.version(ofManifest: "Package@swift-5.10.swift") == [5, 10])
  }

  @Test func swiftVersionFromVersionOutput() {
    #expect(
      ManifestSelection.swiftVersion(
        fromVersionOutput: "Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu") == [6, 3, 1])
    #expect(
      ManifestSelection.swiftVersion(
        fromVersionOutput: "Apple Swift version 6.0 (swiftlang-6.0.0.9.10 clang-1600.0.26.2)") == [6, 0])
    #expect(ManifestSelection.swiftVersion(fromVersionOutput: "bash: swift: not found") == nil)
  }
}

@Suite struct PackageDiscoveryTests {
  @Test func findsPackagesSkippingBuildDirectoriesAndExcludes() {
    let files = [
      ".build/checkouts/dep/Package.swift", "Fixtures/Broken/Package.swift", "Package.swift",
      "Package@swift-5.9.swift", "Sources/A/A.swift", "Tools/Package.swift", "Tools/.build/x/Package.swift",
      "Tools/Sub/Package.swift.orig",
    ]
    let manifests = files.filter(PackageDiscovery.isManifestPath).map { ManifestFile(path: $0, blobID: nil) }
    let found = PackageDiscovery.packages(in: manifests, excludePackages: [Glob("Fixtures/**")])
    #expect(found.map(\.directory) == [".", "Tools"])
    #expect(found.first?.manifests.map(\.path) == ["Package.swift", "Package@swift-5.9.swift"])
    #expect(PackageDiscovery.isManifestPath("Tools/Package@swift-6.swift"))
    #expect(!PackageDiscovery.isManifestPath("Tools/.build/x/Package.swift"))
    #expect(!PackageDiscovery.isManifestPath("Package@swift-x.swift"))
  }
}
