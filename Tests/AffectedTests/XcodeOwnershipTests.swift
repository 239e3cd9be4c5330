import PackageModel
import RippleCore
import Testing

@testable import Affected

/// `XcodeOwnership.listedOwners` searches each target's sorted owned paths by the folders of the path:
/// it gives what `Target.ownsListed` gives, looked at path by path.
@Suite struct XcodeOwnershipTests {
  static let graph = PackageGraph(packages: [
    Package(
      path: "App.xcodeproj", name: "App", manifestFile: "project.pbxproj", packageFingerprint: "",
      targets: [
        target("App", owned: ["App", "App/Info.plist", "Shared/Util.swift"], excluded: ["App/Skip"]),
        target("Core", owned: ["Core/A.swift", "Core/B.swift", "Shared"]),
        target("Kelvin", owned: ["\u{212A}elvin", "Caf\u{E9}"]),
        target("Everything", owned: ["."]),
        target("None", owned: []),
      ], origin: .xcodeProject),
    Package(
      path: "Lib", name: "Lib", manifestFile: "Package.swift", packageFingerprint: "",
      targets: [Target(name: "Lib", kind: .library, directory: "Lib/Sources")]),
  ])

  static func target(_ name: String, owned: [String], excluded: [String]? = nil) -> Target {
    Target(
      name: name, kind: .library, directory: "App.xcodeproj", ownedPaths: owned.sorted(), excludedPaths: excluded)
  }

  static let paths = [
    "App/main.swift", "App/Info.plist", "App/Skip/x.swift", "App", "Apple/x.swift", "AppX", "Shared/Util.swift",
    "Shared/Other.swift", "Shared", "Core/A.swift", "Core/C.swift", "Core/A.swift/inner", "Kelvin/a.swift",
    "Cafe\u{301}/menu.swift", "Caf\u{E9}/menu.swift", "Lib/Sources/x.swift", "README.md", "a/b/c/d.swift",
  ]

  /// The same owners as asking every target with `ownsListed`, for paths inside, beside, equal to and
  /// excluded from owned paths, and for paths whose bytes differ from an owned path's canonically equal text.
  @Test func theSearchGivesWhatEachTargetSays() {
    for path in Self.paths {
      let expected = Self.graph.packages.flatMap { package in
        package.targets.filter { $0.ownsListed(path) }.map { TargetRef(package: package.path, name: $0.name) }
      }.sorted()
      #expect(XcodeOwnership.listedOwners(of: path, in: Self.graph) == expected, "\(path)")
    }
  }

  @Test func ownersOfSomePaths() {
    let names = { (path: String) in XcodeOwnership.listedOwners(of: path, in: Self.graph).map(\.name) }
    #expect(names("App/main.swift") == ["App", "Everything"])
    #expect(names("App/Skip/x.swift") == ["Everything"])
    #expect(names("Apple/x.swift") == ["Everything"])
    #expect(names("Shared/Util.swift") == ["App", "Core", "Everything"])
    #expect(names("Kelvin/a.swift") == ["Everything", "Kelvin"])
    #expect(names("Cafe\u{301}/menu.swift") == ["Everything", "Kelvin"])
  }

  @Test func theFoldersOfAPath() {
    #expect(AttributionIndex.folders(of: "a/b/c.swift") == ["a/b/c.swift", "a/b", "a", "."])
    #expect(AttributionIndex.folders(of: "c.swift") == ["c.swift", "."])
    #expect(AttributionIndex.folders(of: ".") == ["."])
  }
}
