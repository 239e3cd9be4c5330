import Affected
import PackageModel
import RippleConfig
import RippleCore
import Testing

/// Files a target reaches through a symbolic link in its directory are its sources (rule 3; the links are
/// resolved by PackageLoading's `LinkedSources`, which fills `Target.linkedPaths`).
@Suite("Linked paths → targets (rule 3)")
struct LinkedPathTests {
  /// Two plugins sharing `Shared` through `Sources/PluginA/Shared -> ../../Shared`, and `Sources/PluginB/Util.swift
  /// -> ../../Shared/Util.swift`; PluginATests and PluginBTests test them, OtherTests tests neither.
  static var graph: PackageGraph {
    var package = pkg(
      ".",
      [
        lib("PluginA"), lib("PluginB"), lib("Other"), test("PluginATests", .target("PluginA")),
        test("PluginBTests", .target("PluginB")), test("OtherTests", .target("Other")),
      ])
    package.targets[0].linkedPaths = [LinkedPath(path: "Shared", link: "Sources/PluginA/Shared")]
    package.targets[1].linkedPaths = [LinkedPath(path: "Shared/Util.swift", link: "Sources/PluginB/Util.swift")]
    return PackageGraph(packages: [package])
  }

  @Test func aChangeInALinkedFolderSelectsTheTargetsReachingItNotEverything() {
    let result = analyze([.modified("Shared/X.swift")], base: Self.graph)
    #expect(!result.runAll, "\(result.runAllReasons)")
    #expect(result.targetNames == ["PluginA", "PluginATests"])
    #expect(result.reasons("PluginA") == ["changed Shared/X.swift (through Sources/PluginA/Shared)"])
    #expect(result.reasons("PluginATests") == ["depends on PluginA"])
    #expect(result.warnings.isEmpty)
  }

  @Test func aLinkedFileSelectsEveryTargetReachingIt() {
    let result = analyze([.modified("Shared/Util.swift")], base: Self.graph)
    #expect(result.targetNames == ["PluginA", "PluginATests", "PluginB", "PluginBTests"])
    #expect(result.reasons("PluginB") == ["changed Shared/Util.swift (through Sources/PluginB/Util.swift)"])
  }

  @Test func eachSideJudgesWithItsOwnLinks() {
    // Deleted: the base graph's links decide; added: the head's. Without the link the file is unowned.
    var head = Self.graph
    head.packages[0].targets[0].linkedPaths = nil
    let deleted = analyze([.deleted("Shared/X.swift")], base: Self.graph, head: head)
    #expect(deleted.reasons("PluginA") == ["deleted Shared/X.swift (through Sources/PluginA/Shared)"])
    let added = analyze([.added("Shared/X.swift")], base: Self.graph, head: head)
    #expect(added.runAllReasons == ["unowned file Shared/X.swift"])
  }
}
