import Foundation
import PackageLoading
import PackageModel
import Testing
import XcodeFixtures
import XcodeModel

@testable import XcodeLoading

/// The Xcode cache (docs/DESIGN.md, section 7): a tree whose projects, workspaces, schemes and test plans
/// have the blob ids of a stored snapshot is not parsed; any of them changed is a miss.
@Suite(.serialized) struct XcodeCacheTests {
  let directory: String

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-cache-\(UUID().uuidString)").path
  }

  func load(_ app: ThinApp, forget: Bool = true) -> XcodeSnapshot {
    if forget { XcodeCache.forgetRecent() }
    return XcodeLoader.load(app.tree(), excludePackages: [], cache: XcodeCache(directory: directory))
  }

  func same(_ a: XcodeSnapshot, _ b: XcodeSnapshot) -> Bool {
    a.projects == b.projects && a.workspaces == b.workspaces && a.schemes == b.schemes && a.testPlans == b.testPlans
      && a.containers == b.containers && a.planInputs == b.planInputs
  }

  @Test func aWarmRunParsesNothingAndGivesTheSameSnapshot() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = ImplicitDependencyTests.app()
    let cold = load(app)
    #expect(!cold.fromCache)
    #expect(cold.failures.isEmpty)
    let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(entries.count == 1 && entries[0].hasPrefix("snapshot-"))
    let warm = load(app)
    #expect(warm.fromCache)
    #expect(same(cold, warm))
    #expect(warm.planInputs.map(\.path) == ["App/MyApp/MyApp.xctestplan"])
    // Base and head of one run share the snapshot in memory too.
    #expect(load(app, forget: false).fromCache)
  }

  @Test func aChangedProjectWorkspaceSchemeOrTestPlanIsAMiss() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = ImplicitDependencyTests.app()
    _ = load(app)
    let edits: [String: (inout ThinApp) -> Void] = [
      "project": { $0.files["Library/Library.xcodeproj/project.pbxproj"]! += "\n" },
      "workspace": { $0.files["MyApp.xcworkspace/contents.xcworkspacedata"]! += "\n" },
      "scheme": { $0.files["App/MyApp.xcodeproj/xcshareddata/xcschemes/MyApp.xcscheme"]! += "\n" },
      "test plan": { $0.files["App/MyApp/MyApp.xctestplan"]! += "\n" },
    ]
    for (what, edit) in edits {
      var changed = app
      edit(&changed)
      #expect(!load(changed).fromCache, "\(what)")
      #expect(load(changed).fromCache, "\(what)")
    }
  }

  @Test func aCorruptEntryIsAMissAndIsOverwritten() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = ThinApp()
    let cold = load(app)
    let entry = directory + "/" + (try FileManager.default.contentsOfDirectory(atPath: directory))[0]
    let bytes = try #require(FileManager.default.contents(atPath: entry))
    try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: entry))
    let again = load(app)
    #expect(!again.fromCache)
    #expect(same(cold, again))
    #expect(load(app).fromCache)
  }

  @Test func anEntryShorterThanItsHeaderOrWithAnAlteredByteIsAMiss() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = ImplicitDependencyTests.app()
    let cold = load(app)
    let entry = directory + "/" + (try FileManager.default.contentsOfDirectory(atPath: directory))[0]
    let bytes = try #require(FileManager.default.contents(atPath: entry))
    #expect(bytes.count > XcodeCache.headerLength)
    var altered = [UInt8](bytes)
    altered[altered.count - 5] ^= 0x20
    for damaged in [Array(bytes.prefix(10)), Array(bytes.prefix(XcodeCache.headerLength)), altered] {
      try Data(damaged).write(to: URL(fileURLWithPath: entry))
      let again = load(app)
      #expect(!again.fromCache)
      #expect(same(cold, again))
      #expect(load(app).fromCache)
    }
  }

  /// An entry written by version 1 (a SHA-1 header over the same payload) at the path of the current key
  /// is a miss, read again and overwritten in the current format.
  @Test func anEntryOfTheFormerFormatIsReadAgain() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let app = ImplicitDependencyTests.app()
    let cold = load(app)
    let entry = directory + "/" + (try FileManager.default.contentsOfDirectory(atPath: directory))[0]
    let bytes = [UInt8](try #require(FileManager.default.contents(atPath: entry)))
    let payload = Array(bytes.dropFirst(XcodeCache.headerLength))
    let former = "ripple-xcode-snapshot-1 " + ManifestCache.gitBlobID(of: payload) + "\n"
    try Data(Array(former.utf8) + payload).write(to: URL(fileURLWithPath: entry))
    let again = load(app)
    #expect(!again.fromCache)
    #expect(same(cold, again))
    let rewritten = [UInt8](try #require(FileManager.default.contents(atPath: entry)))
    #expect(rewritten.starts(with: Array((XcodeCache.format + " ").utf8)))
    #expect(load(app).fromCache)
  }

  /// The merge kept for the head side is reused only for the same Xcode key, test plans, manifests and
  /// package graph.
  @Test func aMergeIsReusedOnlyForTheSameInputs() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let snapshot = load(ImplicitDependencyTests.app())
    #expect(snapshot.key != nil && !snapshot.testPlans.isEmpty)
    let empty = PackageGraph(packages: [])
    let first = XcodeLoader.merge(snapshot, into: empty, files: [])
    #expect(XcodeLoader.merge(snapshot, into: empty, files: []) == first)
    // Another package graph: its package is in the result.
    let other = PackageGraph(packages: [
      Package(path: "Core", name: "Core", manifestFile: "Package.swift", packageFingerprint: "", targets: [])
    ])
    let withCore = XcodeLoader.merge(snapshot, into: other, files: ["Core/Package.swift"])
    #expect(withCore.packages.contains { $0.path == "Core" })
    #expect(withCore.packages.count == first.packages.count + 1)
    // The same key with other test plans (a plan changed between the sides): merged again, without the
    // paths the plan gave its targets.
    var planless = snapshot
    planless.testPlans = [:]
    planless.planInputs = []
    let owned = { (graph: PackageGraph) in graph.packages.flatMap(\.targets).flatMap { $0.ownedPaths ?? [] } }
    let withoutPlans = XcodeLoader.merge(planless, into: empty, files: [])
    #expect(owned(first).contains("App/MyApp/MyApp.xctestplan"))
    #expect(!owned(withoutPlans).contains("App/MyApp/MyApp.xctestplan"))
    #expect(XcodeLoader.merge(snapshot, into: empty, files: []) == first)
  }

  /// rippled's branch layers: an unprotected branch reads the shared layer and writes only its own; a
  /// damaged entry in its layer falls back to the shared one.
  @Test func anOverlayReadsTheSharedLayerAndWritesOnlyItsOwn() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let overlay = directory + "-branch"
    defer { try? FileManager.default.removeItem(atPath: overlay) }
    let layered = XcodeCache(directory: directory, overlay: overlay)
    func loadLayered(_ app: ThinApp) -> XcodeSnapshot {
      XcodeCache.forgetRecent()
      return XcodeLoader.load(app.tree(), excludePackages: [], cache: layered)
    }
    let app = ThinApp()
    _ = load(app)  // the shared layer holds the entry
    #expect(loadLayered(app).fromCache, "read from the shared layer")
    var changed = app
    changed.files[changed.files.keys.first { $0.hasSuffix("project.pbxproj") }!]! += "\n"
    #expect(!loadLayered(changed).fromCache)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1, "the shared layer is unchanged")
    let written = try FileManager.default.contentsOfDirectory(atPath: overlay)
    #expect(written.count == 1 && written[0].hasPrefix("snapshot-"))
    #expect(loadLayered(changed).fromCache)
    // The branch's copy of the shared entry, damaged: the shared one is read.
    let shared = try FileManager.default.contentsOfDirectory(atPath: directory)[0]
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: overlay + "/" + shared))
    #expect(loadLayered(app).fromCache)
  }

  @Test func aSnapshotWithFailuresIsNotStored() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var app = ThinApp()
    app.files["Broken/Broken.xcodeproj/project.pbxproj"] = "{ objects = {"
    let first = load(app)
    #expect(first.failures.count == 1)
    #expect(!load(app).fromCache)
    #expect((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] == [])
  }

  @Test func findingProjectsByMarkersGivesWhatTheFileListGives() throws {
    for app in [ThinApp(), ImplicitDependencyTests.app(extraLibrary: true)] {
      let tree = app.tree()
      let listed = XcodeLoader.load(tree, files: try tree.files(), excludePackages: [])
      let marked = XcodeLoader.load(tree, markers: try tree.xcodeMarkers(), excludePackages: [])
      #expect(same(listed, marked))
      #expect(!marked.schemes.isEmpty)
    }
  }

  @Test func theArchiveKeepsEveryField() throws {
    for app in [ThinApp(), CrossProjectTests.app(), ImplicitDependencyTests.app(extraLibrary: true)] {
      var snapshot = XcodeLoader.load(app.tree(), excludePackages: [])
      snapshot.planInputs = []
      let decoded = try #require(XcodeArchive.decode(XcodeArchive.encode(snapshot)[...]))
      #expect(same(snapshot, decoded))
      #expect(XcodeArchive.decode(XcodeArchive.encode(snapshot).dropLast(3)) == nil)
    }
  }
}
