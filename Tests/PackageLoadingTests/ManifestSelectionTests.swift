import PackageModel
import RippleCore
import Testing

@testable import PackageLoading

@Suite struct ManifestSelectionTests {
  let toolchain = [6, 3, 1]

  /// SwiftPM's choice for files named with the tools versions they declare.
  func choice(_ files: [String: String], toolchain: [Int] = [6, 3, 1]) -> ManifestSelection.Choice {
    ManifestSelection.choose(fileNames: Array(files.keys), toolchain: toolchain) { name in
      ManifestSelection.declaredToolsVersion(in: Array("// swift-tools-version:\(files[name]!)\n".utf8))
    }
  }

  @Test func plainManifestWhenNoVersionedOne() {
    #expect(choice(["Package.swift": "6.0"]) == .file("Package.swift"))
    var asked: [String] = []
    _ = ManifestSelection.choose(fileNames: ["Package.swift"], toolchain: toolchain) { name in
      asked.append(name)
      return .version([6, 0, 0])
    }
    #expect(asked == [], "a warm run reads no manifest of a package without version-specific ones")
  }

  @Test func anOlderVersionSpecificToolsVersionLosesToPackageSwift() {
    // The issue's layout: SwiftPM 6.3 reads Package.swift (6.2), not Package@swift-6.1.swift (6.1).
    #expect(choice(["Package.swift": "6.2", "Package@swift-6.1.swift": "6.1"]) == .file("Package.swift"))
    #expect(choice(["Package.swift": "6.1", "Package@swift-6.1.swift": "6.1"]) == .file("Package.swift"))
    #expect(choice(["Package.swift": "6.0", "Package@swift-6.1.swift": "6.1"]) == .file("Package@swift-6.1.swift"))
  }

  @Test func theToolchainsOwnVersionIsReadWhateverItsToolsVersion() {
    let files = ["Package.swift": "6.2", "Package@swift-6.3.swift": "5.9", "Package@swift-6.swift": "5.8"]
    #expect(choice(files) == .file("Package@swift-6.3.swift"))
    #expect(choice(files, toolchain: [6, 0]) == .file("Package@swift-6.swift"))
    #expect(choice(["Package.swift": "6.2", "Package@swift-6.3.1.swift": "5.9"]) == .file("Package@swift-6.3.1.swift"))
  }

  @Test func highestVersionNotNewerThanTheToolchainIsTheCandidate() {
    let files = [
      "Package.swift": "5.0", "Package@swift-5.swift": "5.5", "Package@swift-6.2.swift": "6.2",
      "Package@swift-6.3.2.swift": "6.3", "Package@swift-7.swift": "6.3",
    ]
    #expect(choice(files) == .file("Package@swift-6.2.swift"))
    #expect(choice(files, toolchain: [6, 1]) == .file("Package@swift-5.swift"))
  }

  @Test func aPackageSwiftTooNewForTheToolchainFallsBackToTheCandidate() {
    #expect(choice(["Package.swift": "6.4", "Package@swift-6.1.swift": "6.1"]) == .file("Package@swift-6.1.swift"))
    #expect(choice(["Package.swift": "6.4", "Package@swift-6.4.swift": "6.4"]) == .file("Package.swift"))
  }

  @Test func malformedToolsVersionLinesStopSwiftPM() {
    let malformed = ["Package.swift": "6.2", "Package@swift-6.1.swift": "six"]
    #expect(choice(malformed, toolchain: [6, 1]).fileName == "Package@swift-6.1.swift")
    guard case .unreadable = choice(["Package.swift": "6.2", "Package@swift-6.1.swift": "six"]) else {
      Issue.record("a malformed candidate stops SwiftPM")
      return
    }
    guard case .unreadable(let file, _) = choice(["Package.swift": "x.y", "Package@swift-6.1.swift": "6.1"]) else {
      Issue.record("a malformed Package.swift stops SwiftPM")
      return
    }
    #expect(file == "Package.swift")
  }

  @Test func declaredToolsVersionLines() {
    func declared(_ text: String) -> ManifestSelection.DeclaredToolsVersion {
      ManifestSelection.declaredToolsVersion(in: Array(text.utf8))
    }
    #expect(declared("// swift-tools-version:6.2\nimport PackageDescription") == .version([6, 2, 0]))
    #expect(declared("//swift-tools-version: 5.10.1; (experimental)\n") == .version([5, 10, 1]))
    #expect(declared("\u{FEFF}// Swift-Tools-Version:6.0\r\n") == .version([6, 0, 0]))
    #expect(declared("// A comment first\n\n// swift-tools-version:6.1\n") == .version([6, 1, 0]))
    #expect(declared("/* A block\n comment */\n// swift-tools-version:6.1\n") == .version([6, 1, 0]))
    #expect(declared("import PackageDescription\n// swift-tools-version:6.1\n") == .missing)
    #expect(declared("") == .missing)
    for text in [
      "// swift-tools-version:six\n", "// swift-tools-version:6\n", "// x\n// swift-tools-version:5.9\n",
      "// no tools version here\nimport PackageDescription\n",
    ] {
      guard case .malformed = declared(text) else {
        Issue.record("\(text) is malformed")
        continue
      }
    }
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
