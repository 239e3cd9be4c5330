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
}
