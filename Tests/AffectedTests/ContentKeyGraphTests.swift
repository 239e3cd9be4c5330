import Affected
import PackageModel
import PassRecords
import Testing

/// Key format 4 holds a closure as a graph: each target's node digests its own lines and its dependencies'
/// digests, and a key holds its test target's node (issue 50).
@Suite("Pass records: a key holds its closure as a graph of target nodes")
struct ContentKeyGraphTests {
  let before = KeyState()
  let tests = ["CoreTests", "NetTests", "ApiTests"]

  private func ref(_ name: String) -> TargetRef { TargetRef(package: ".", name: name) }

  @Test func aKeyHoldsItsTestTargetsNodeAndEveryClosureTargetHasOne() throws {
    let (keys, nodes) = before.graphKeys(tests)
    #expect(
      Set(nodes.keys.map(\.name)) == ["Core", "Net", "Api", "TestSupport", "CoreTests", "NetTests", "ApiTests"])
    for test in tests {
      let closure = try #require(keys[ref(test)]?.inputs.entries.filter { $0.kind == "closure" })
      #expect(closure.map(\.value) == [nodes[ref(test)]?.digest], "\(test)")
    }
    // A node names each direct dependency with that dependency's digest, and its own lines.
    let api = try #require(nodes[ref("Api")])
    #expect(api.inputs.entries.filter { $0.kind == "depends" }.map(\.value) == [nodes[ref("Net")]?.digest])
    #expect(api.inputs.entries.contains { $0.kind == "files" && $0.name == ".:Api" })
    #expect(api.inputs.entries.contains { $0.kind == "package" && $0.name == "." })
    #expect(api.digest == api.inputs.key.hex)
  }

  @Test func aChangeMovesTheNodesAboveItAndNoOthers() {
    var after = before
    after.files["Sources/Net/Net.swift"] = "100644:n2"
    let old = before.graphKeys(tests).nodes
    let new = after.graphKeys(tests).nodes
    let moved = Set(old.keys.filter { old[$0]?.digest != new[$0]?.digest }.map(\.name))
    #expect(moved == ["Net", "Api", "NetTests", "ApiTests"])
  }

  @Test func theSameClosureWithOtherEdgesIsAnotherKey() {
    // Api now also depends on Core directly: the same targets and lines, another build graph.
    var after = before
    after.graph = PackageGraph(packages: [
      appPackage(
        replacing: [
          lib("Api", .target("Net")).with(fingerprint: "Api@1", dependencies: [.target("Net"), .target("Core")])
        ],
        dependencies: [remote("swift-log")])
    ])
    #expect(tests.filter { before.key($0) != after.key($0) } == ["ApiTests"])
  }

  @Test func keysAreTheSameHoweverTheyAreAskedFor() {
    let together = before.graphKeys(tests).keys
    for test in tests { #expect(together[ref(test)] == before.targetKey(test), "\(test)") }
  }

  @Test func aBlockerOrARemoteDependencyBelowReachesTheKeysAbove() {
    var state = before
    state.unkeyablePaths["Sources/Core/Shared"] = "Sources/Core/Shared links outside the repository (/opt/shared)"
    state.files["Sources/Core/Shared"] = "120000:l1"
    let (keys, _) = state.graphKeys(tests)
    for test in tests {
      #expect(keys[ref(test)]?.unkeyable == ["Sources/Core/Shared links outside the repository (/opt/shared)"])
      #expect(keys[ref(test)]?.pinned == true, "swift-log is remote: \(test)")
    }
  }

  @Test func aCycleInTheEdgesEndsWithEveryTargetKeyed() {
    // SwiftPM rejects cycles; edges that hold one anyway must not hang the walk.
    let edges = [ref("CoreTests"): [ref("Core")], ref("Core"): [ref("Net")], ref("Net"): [ref("Core")]]
    let refs = [ref("CoreTests")]
    let (keys, nodes) = ContentKeys.graphKeys(
      for: refs, in: before.graph, context: before.context(for: refs), dependencies: edges)
    #expect(Set(nodes.keys) == [ref("CoreTests"), ref("Core"), ref("Net")])
    #expect(nodes.values.flatMap(\.inputs.entries).contains { $0.kind == "depends" && $0.value == "(cycle)" })
    #expect(keys[ref("CoreTests")]?.inputs.entries.contains { $0.kind == "closure" } == true)
  }
}
