import PackageModel
import RippleCore
import Testing

@testable import PackageLoading

/// The working tree (or a new commit) described as an old tree plus changes must answer exactly as a
/// listing of its files would.
@Suite struct TreeOverlayTests {
  static let old = [
    "Package.swift", "Sources/A/a.swift", "Sources/B/b1.swift", "Sources/B/b2.swift", "Sources/C/c.swift",
    "Tools/Package.swift", "Tools/Sources/T/t.swift", "Gone/Package.swift", "Gone/Sources/G/g.swift",
  ]

  /// The overlay's answers against a list-backed snapshot of the new file list, for every directory of
  /// either tree.
  func check(_ changes: [ChangedFile], new: [String]) throws {
    let before = TreeSnapshot(label: "old", rootName: "r", files: Self.old, workingDirectoryRoot: nil) { _ in nil }
    let after = TreeSnapshot(label: "new", rootName: "r", files: new, workingDirectoryRoot: nil) { _ in nil }
    let overlay = TreeOverlay(changes: changes)
    let directories = before.directories().union(after.directories()).union(["Missing", "Sources/Z"])
    for directory in directories.sorted() {
      let answer = try overlay.subdirectories(of: directory, old: before.subdirectories(directory)) { under in
        Self.old.filter { $0.hasPrefix(under + "/") }
      }
      #expect(answer == (try after.subdirectories(directory)), "subdirectories of \(directory)")
    }
    let manifests = try overlay.manifests(over: before.manifestFiles()) { ManifestFile(path: $0, blobID: nil) }
    #expect(manifests.map(\.path) == (try after.manifestFiles().map(\.path)))
  }

  @Test func addedDeletedAndRenamedFiles() throws {
    try check(
      [
        ChangedFile(path: "Sources/A/a.swift", status: .deleted),
        ChangedFile(path: "Sources/B/b1.swift", status: .modified),
        ChangedFile(path: "Sources/D/New/d.swift", status: .added),
        ChangedFile(path: "Sources/E/c.swift", status: .renamed, oldPath: "Sources/C/c.swift"),
      ],
      new: [
        "Package.swift", "Sources/B/b1.swift", "Sources/B/b2.swift", "Sources/D/New/d.swift", "Sources/E/c.swift",
        "Tools/Package.swift", "Tools/Sources/T/t.swift", "Gone/Package.swift", "Gone/Sources/G/g.swift",
      ])
  }

  @Test func packagesAddedAndRemoved() throws {
    try check(
      [
        ChangedFile(path: "Gone/Package.swift", status: .deleted),
        ChangedFile(path: "Gone/Sources/G/g.swift", status: .deleted),
        ChangedFile(path: "New/Package.swift", status: .added),
        ChangedFile(path: "New/Package@swift-6.swift", status: .added),
        ChangedFile(path: "New/.build/x/Package.swift", status: .added),
        ChangedFile(path: "Moved/Package.swift", status: .renamed, oldPath: "Tools/Package.swift"),
        ChangedFile(path: "Moved/Sources/T/t.swift", status: .renamed, oldPath: "Tools/Sources/T/t.swift"),
      ],
      new: [
        "Package.swift", "Sources/A/a.swift", "Sources/B/b1.swift", "Sources/B/b2.swift", "Sources/C/c.swift",
        "New/Package.swift", "New/Package@swift-6.swift", "New/.build/x/Package.swift", "Moved/Package.swift",
        "Moved/Sources/T/t.swift",
      ])
  }

  @Test func aDirectoryEmptiedAndRefilled() throws {
    try check(
      [
        ChangedFile(path: "Sources/B/b1.swift", status: .deleted),
        ChangedFile(path: "Sources/B/b2.swift", status: .deleted),
        ChangedFile(path: "Sources/C/c.swift", status: .deleted),
        ChangedFile(path: "Sources/C/Sub/c.swift", status: .added),
      ],
      new: [
        "Package.swift", "Sources/A/a.swift", "Sources/C/Sub/c.swift", "Tools/Package.swift",
        "Tools/Sources/T/t.swift", "Gone/Package.swift", "Gone/Sources/G/g.swift",
      ])
  }
}

@Suite struct GraphArchiveTests {
  static let graph = PackageGraph(packages: [
    Package(
      path: ".", name: "App", manifestFile: "Package@swift-6.swift", packageFingerprint: "{\"p\":1}",
      targets: [
        Target(
          name: "Ä", kind: .library, declaredPath: "Custom/ä", directory: "Custom/ä",
          dependencies: [.target("B"), .product("Net", package: nil), .product("X", package: "remote"), .byName("C")],
          pluginUsages: [.product("Lint", package: "tools")], fingerprint: "f"),
        Target(name: "ATests", kind: .test, directory: "Tests/ATests"),
        // Present in one manifest environment only (issue 12's test runs read it back from the cache).
        Target(name: "ServerTests", kind: .test, directory: "Tests/ServerTests", environments: [1]),
        Target(
          name: "Owned", kind: .library, directory: "Owned", ownedPaths: ["Owned/Info.plist"], excludedPaths: []),
      ],
      products: [Product(name: "Ä", kind: "library", targets: ["Ä"])],
      dependencies: [
        PackageDependency(
          identity: "shared", name: "Shared", location: .local(path: "Packages/Shared"), fingerprint: "d"),
        PackageDependency(identity: "outside", location: .local(path: nil)),
        PackageDependency(identity: "remote", location: .remote("https://example.invalid/remote.git")),
      ]),
    Package(path: "Packages/Shared", name: "Shared", packageFingerprint: "", targets: []),
  ])

  @Test func roundTrips() {
    let bytes = GraphArchive.encode(Self.graph)
    #expect(GraphArchive.decode(bytes[...]) == Self.graph)
  }

  @Test func truncatedOrExtendedIsNil() {
    let bytes = GraphArchive.encode(Self.graph)
    for cut in [1, 2, 10, bytes.count / 2, bytes.count - 1] {
      #expect(GraphArchive.decode(bytes.dropLast(cut)) == nil, "cut \(cut)")
    }
    #expect(GraphArchive.decode((bytes + [0])[...]) == nil)
  }
}

@Suite struct DirectoryLayoutTests {
  /// A target without a directory yet makes the resolver ask every candidate root, absent ones too:
  /// those answers come from the listings, so the graph stays cacheable.
  @Test func absentRootsAreAnsweredFromTheListings() throws {
    let files = ["Package.swift", "Sources/A/a.swift", "Tests/ATests/t.swift", "Sub/Package.swift"]
    let tree = TreeSnapshot(label: "t", rootName: "r", files: files, workingDirectoryRoot: nil) { _ in nil }
    let layout = try DirectoryLayout(packages: [".", "Sub"], tree: tree)
    #expect(layout.contains("Sources/A"))
    #expect(layout.contains("Sources"))
    #expect(!layout.contains("Source/A"))
    #expect(!layout.contains("Source"))
    #expect(!layout.contains("Sub/Plugins/P"))
    #expect(
      TargetDirectoryResolver.directory(
        name: "New", kind: .test, declaredPath: nil, packagePath: ".", aloneOfItsKind: false, toolsVersion: [5, 9],
        isDirectory: layout.contains) == "Tests/New")
    #expect(!layout.listedOutsideRoots)
    #expect(layout.listings["Source"] != nil, "an absent root is listed as absent, not missing")
    _ = layout.contains("Sources/A/Deeper")
    #expect(layout.listedOutsideRoots, "a path below a listing is asked of the tree")
  }
}
