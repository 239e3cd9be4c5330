import PackageModel
import RippleCore
import TestSupport
import Testing

@testable import Affected

/// The attribution index answers what a scan of every target answered before issue 50 (the rules of
/// docs/DESIGN.md, rules 2, 3 and 12, written here as they were: linear and obviously right), on generated
/// graphs with nested packages, nested and shared target folders, links and Xcode-listed paths.
@Suite struct AttributionIndexTests {
  /// Rule 2 as a scan: the innermost SwiftPM package holding the path, then its deepest target folder.
  static func scannedOwner(of path: String, in graph: PackageGraph) -> TargetRef? {
    guard let package = graph.owningPackage(of: path) else { return nil }
    let depth = { (directory: String) in directory == "." ? 0 : directory.split(separator: "/").count }
    let holders = package.targets.filter { RepoPath.isInside(path, directory: $0.directory) }
    guard let deepest = holders.max(by: { (depth($0.directory), $1.name) < (depth($1.directory), $0.name) }) else {
      return nil
    }
    return TargetRef(package: package.path, name: deepest.name)
  }

  static func scannedLinkedOwners(of path: String, in graph: PackageGraph) -> [String] {
    graph.packages.flatMap { package in
      package.targets.compactMap { target in
        target.link(reaching: path).map { "\(TargetRef(package: package.path, name: target.name))<\($0)" }
      }
    }
  }

  static func scannedListedOwners(of path: String, in graph: PackageGraph) -> [TargetRef] {
    graph.packages.flatMap { package in
      package.targets.filter { $0.ownsListed(path) }.map { TargetRef(package: package.path, name: $0.name) }
    }.sorted()
  }

  /// A graph of `count` packages, some nested in others' target folders, with targets sharing folders, nested
  /// target folders, links into other packages and an Xcode project listing paths.
  static func graph(seed: UInt64, count: Int) -> (PackageGraph, [String]) {
    var random = SplitMix64(seed: seed)
    var packages: [Package] = []
    var paths: [String] = []
    for index in 0..<count {
      let path = index == 0 ? "." : index % 4 == 3 ? "P\(index - 1)/Sources/T0/Nested\(index)" : "P\(index)"
      var targets: [Target] = []
      for number in 0..<(2 + Int(random.next() % 4)) {
        let folder = RepoPath.join(path, number == 3 ? "Sources/T0/Inner" : "Sources/T\(number % 3)")
        var links: [LinkedPath]? = nil
        if random.next() % 3 == 0 {
          links = [LinkedPath(path: "Shared/S\(random.next() % 3)", link: folder + "/Link")]
        }
        targets.append(Target(name: "T\(number)", kind: .library, directory: folder, linkedPaths: links))
        for file in 0..<3 { paths.append(folder + "/f\(file).swift") }
      }
      packages.append(Package(path: path, name: "P\(index)", packageFingerprint: "", targets: targets))
    }
    let listed = Target(
      name: "App", kind: .library, directory: "App.xcodeproj",
      ownedPaths: ["App", "Shared/S1", "P1/Sources/T0/f0.swift"].sorted(),
      excludedPaths: ["App/Skip"])
    packages.append(
      Package(path: "App.xcodeproj", name: "App", packageFingerprint: "", targets: [listed], origin: .xcodeProject))
    paths += [
      "App/main.swift", "App/Skip/x.swift", "Shared/S0/a.swift", "Shared/S1/b/c.swift", "Shared/S2", "README.md",
      "P1", "P1/Sources", ".", "Cafe\u{301}/menu.swift", "Other/deep/er/file.txt",
    ]
    return (PackageGraph(packages: packages), paths)
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func theIndexAgreesWithAScanOfEveryTarget(seed: UInt64) {
    let (graph, paths) = Self.graph(seed: seed, count: 12)
    let index = AttributionIndex(graph)
    for path in paths {
      #expect(index.owner(of: path) == Self.scannedOwner(of: path, in: graph), "owner of \(path)")
      #expect(
        index.linkedOwners(of: path).map { "\($0.target)<\($0.link)" } == Self.scannedLinkedOwners(of: path, in: graph),
        "links reaching \(path)")
      #expect(index.listedOwners(of: path) == Self.scannedListedOwners(of: path, in: graph), "listing \(path)")
    }
  }

  @Test func aNestedPackageWithoutATargetThereOwnsNothingAndSharedFoldersGoToTheFirstName() {
    let graph = PackageGraph(packages: [
      Package(
        path: ".", name: "Root", packageFingerprint: "",
        targets: [
          Target(name: "B", kind: .library, directory: "Sources/Both"),
          Target(name: "A", kind: .library, directory: "Sources/Both"),
        ]),
      Package(path: "Sources/Both/Vendor", name: "Vendor", packageFingerprint: "", targets: []),
    ])
    let index = AttributionIndex(graph)
    #expect(index.owner(of: "Sources/Both/x.swift") == TargetRef(package: ".", name: "A"))
    #expect(index.owner(of: "Sources/Both/Vendor/y.swift") == nil)
    #expect(
      index.owner(of: "Sources/Both/Vendor/y.swift") == Self.scannedOwner(of: "Sources/Both/Vendor/y.swift", in: graph))
  }
}
