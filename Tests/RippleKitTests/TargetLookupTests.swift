import PackageModel
import Testing

@testable import RippleKit

@Suite struct TargetLookupTests {
  let known = [".:AppTests", "Packages/Shared:GreetingTests", "Packages/Other:AppTests"]

  @Test func aUniqueBareNameIsQualifiedWithItsSuite() throws {
    #expect(try TargetLookup.qualify(["GreetingTests"], among: known) == ["Packages/Shared:GreetingTests"])
    #expect(try TargetLookup.qualify(["GreetingTests/Math"], among: known) == ["Packages/Shared:GreetingTests/Math"])
    #expect(try TargetLookup.qualify([".:AppTests"], among: known) == [".:AppTests"])
  }

  @Test func anAmbiguousNameListsTheQualifiedCandidates() {
    #expect {
      try TargetLookup.qualify(["AppTests"], among: known)
    } throws: { error in
      "\(error)".contains("`AppTests` names more than one target: .:AppTests, Packages/Other:AppTests")
    }
  }

  @Test func anUnknownNameSuggestsTheClosest() {
    #expect {
      try TargetLookup.qualify(["GretingTests"], among: known)
    } throws: { error in
      "\(error)".contains("did you mean `Packages/Shared:GreetingTests`?")
    }
    #expect(TargetLookup.suggestions(for: ["Zzz"], among: known).isEmpty)
  }

  /// `ripple mcp`'s graph tools: one target of the graph, by `package:Name` or a bare name only one package has.
  @Test func resolveFindsOneTargetOrSaysWhyNot() throws {
    func package(_ path: String, _ names: [String]) -> Package {
      Package(
        path: path, name: path, packageFingerprint: "",
        targets: names.map { Target(name: $0, kind: .library, directory: path + "/Sources/" + $0) })
    }
    let graph = PackageGraph(packages: [
      package(".", ["App", "AppTests"]), package("Packages/Other", ["AppTests", "Greeting"]),
    ])
    #expect(try TargetLookup.resolve("Greeting", in: graph) == TargetRef(package: "Packages/Other", name: "Greeting"))
    #expect(try TargetLookup.resolve(".:AppTests", in: graph) == TargetRef(package: ".", name: "AppTests"))
    for (name, message) in [
      ("AppTests", "`AppTests` names more than one target: .:AppTests, Packages/Other:AppTests"),
      ("Greting", "no target is named `Greting`; did you mean `Greeting`?"),
      (".:Greeting", "no target is named `.:Greeting`; did you mean `Greeting`?"),
    ] {
      #expect("\(name)") {
        try TargetLookup.resolve(name, in: graph)
      } throws: { error in
        "\(error)".contains(message)
      }
    }
  }
}
