import Affected
import PackageModel
import RippleCore
import Testing

/// Parser uses Yams, Net uses Collections, only SnapshotTests uses SnapshotTesting; Core uses nothing remote.
/// The nested `Packages/Shared` (reached by `.package(path:)`) declares swift-log.
private let pinnedGraph = PackageGraph(packages: [
  pkg(
    ".",
    [
      lib("Core"), lib("Parser", .product("Yams", package: "Yams")),
      lib("Net", .product("Collections", package: "swift-collections"), .product("Shared", package: "Shared")),
      test("ParserTests", .target("Parser")), test("NetTests", .target("Net")),
      test("SnapshotTests", .target("Core"), .product("SnapshotTesting", package: "swift-snapshot-testing")),
    ],
    dependencies: [
      remote("yams"), remote("swift-collections"), remote("swift-snapshot-testing"), local("Packages/Shared"),
    ]),
  pkg(
    "Packages/Shared", [lib("Shared", .product("Logging", package: "swift-log")), lib("Plain")],
    products: [Product(name: "Shared", targets: ["Shared"])], dependencies: [remote("swift-log")]),
])

private func bump(_ identity: String, _ old: String?, _ new: String?) -> [String: (
  base: ResolvedPins?, head: ResolvedPins?
)] {
  var before = [
    "yams": "6.2.1", "swift-collections": "1.1.0", "swift-snapshot-testing": "1.17.0", "swift-log": "1.6.0",
  ]
  var after = before
  before[identity] = old
  after[identity] = new
  return ["Package.resolved": (ResolvedPins(pins: before), ResolvedPins(pins: after))]
}

@Suite("Package.resolved pins (rule 5)")
struct PinTests {
  @Test func pinBumpChangesTheTargetsUsingThatPackage() {
    let result = analyze([.modified("Package.resolved")], base: pinnedGraph, resolved: bump("yams", "6.2.1", "6.2.2"))
    #expect(result.reasons("Parser") == ["Package.resolved: yams 6.2.1 → 6.2.2"])
    #expect(result.targetNames == ["Parser", "ParserTests"])
    #expect(!result.runAll)
  }

  @Test func pinUsedOnlyByATestTargetSelectsOnlyThatTest() {
    let result = analyze(
      [.modified("Package.resolved")], base: pinnedGraph, resolved: bump("swift-snapshot-testing", "1.17.0", "1.18.0"))
    #expect(result.targetNames == ["SnapshotTests"])
  }

  @Test func pinOfALocalPackagesDependencyChangesItsUsers() {
    let result = analyze(
      [.modified("Package.resolved")], base: pinnedGraph, resolved: bump("swift-log", "1.6.0", "1.6.1"))
    #expect(result.reasons("Shared", package: "Packages/Shared") == ["Package.resolved: swift-log 1.6.0 → 1.6.1"])
    #expect(result.reasons("Net") == ["depends on Packages/Shared:Shared"])
    #expect(result.reasons("Plain", package: "Packages/Shared") == nil)
  }

  @Test func transitivePinChangesEveryTargetUsingARemoteProduct() {
    let result = analyze(
      [.modified("Package.resolved")], base: pinnedGraph, resolved: bump("swift-syntax", nil, "600.0.0"))
    let reason = "Package.resolved: transitive pin swift-syntax changed"
    #expect(result.reasons("Parser") == [reason])
    #expect(result.reasons("Net") == [reason, "depends on Packages/Shared:Shared"])
    #expect(result.reasons("SnapshotTests") == [reason])
    #expect(result.reasons("Shared", package: "Packages/Shared") == [reason])
    #expect(result.reasons("Core") == nil)
  }

  @Test func unchangedPinsChangeNothing() {
    let result = analyze([.modified("Package.resolved")], base: pinnedGraph, resolved: bump("yams", "6.2.1", "6.2.1"))
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
  }
}
