import PackageModel
import PassRecords
import TestSupport
import Testing

@testable import Affected

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

  @Test func nodesHashedLevelByLevelAreTheNodesOfTheRecursiveDefinition() {
    // 600 targets, each depending on up to 4 earlier ones (a layered graph, ~30 levels deep), with a blocker on
    // one: every node must be its own lines plus each direct dependency's digest, as a plain recursion makes it.
    var generator = SplitMix64(seed: 50)
    let targets = (0..<600).map { TargetRef(package: "Packages/P\($0 % 7)", name: "T\($0)") }
    var dependencies: [TargetRef: [TargetRef]] = [:]
    var own: [TargetRef: (inputs: KeyInputs, remote: Bool)] = [:]
    for (index, target) in targets.enumerated() {
      let count = index == 0 ? 0 : Int.random(in: 0...min(4, index), using: &generator)
      dependencies[target] =
        (0..<count).map { _ in targets[Int.random(in: max(0, index - 40)..<index, using: &generator)] }
        + (index == 6 ? [targets[5], targets[0]] : [])
      var inputs = KeyInputs()
      inputs.add("target", target.description, "fingerprint \(index)")
      inputs.add("files", target.description, "digest \(index)")
      own[target] = (inputs, index % 97 == 0)
    }
    let unkeyable = [targets[5]: ["T5 links outside the repository"]]
    let nodes = ContentKeys.nodes(
      of: targets.shuffled(using: &generator), own: own, dependencies: dependencies, unkeyable: unkeyable)

    var expected: [TargetRef: ContentKeys.TargetNode] = [:]
    func node(_ target: TargetRef) -> ContentKeys.TargetNode {
      if let made = expected[target] { return made }
      var inputs = own[target]!.inputs
      var remote = own[target]!.remote
      var blockers = Set(unkeyable[target] ?? [])
      for dependency in Set(dependencies[target] ?? []).sorted() {
        let made = node(dependency)
        inputs.add("depends", dependency.description, made.digest)
        remote = remote || made.remote
        blockers.formUnion(made.unkeyable)
      }
      let made = ContentKeys.TargetNode(
        inputs: inputs, digest: inputs.key.hex, remote: remote, unkeyable: blockers.sorted())
      expected[target] = made
      return made
    }
    for target in targets { _ = node(target) }
    #expect(nodes.count == targets.count)
    for target in targets { #expect(nodes[target] == expected[target], "\(target)") }
    #expect(nodes[targets[6]]?.unkeyable == ["T5 links outside the repository"])
    #expect(nodes[targets[6]]?.remote == true, "T0 is remote")
  }
}
