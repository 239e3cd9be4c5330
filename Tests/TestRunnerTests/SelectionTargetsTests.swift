import RippleCore
import Testing

@testable import TestRunner

/// `ripple test --targets`: a CI job runs exactly the units its plan gave it.
@Suite struct SelectionTargetsTests {
  let selection = TestSelection(packages: [
    PackageSelection(path: ".", testTargets: ["AppTests", "UITests"]),
    PackageSelection(path: "Packages/Core", testTargets: ["CoreTests"]),
    PackageSelection(path: "Packages/Broken", testTargets: [], runAll: true),
  ])

  @Test func keepsOnlyTheListedTargets() throws {
    let (kept, unmatched) = try selection.restricted(to: ["Packages/Core:CoreTests", ".:UITests"])
    #expect(unmatched.isEmpty)
    #expect(kept.units.map(\.id) == [".:UITests", "Packages/Core:CoreTests"])
  }

  @Test func aWholePackageIsKeptWholeOrNarrowedToTheListedNames() throws {
    #expect(try selection.restricted(to: ["Packages/Broken:*"]).selection.packages.map(\.runAll) == [true])
    let (narrowed, unmatched) = try selection.restricted(to: ["Packages/Broken:BrokenTests"])
    #expect(unmatched.isEmpty)
    #expect(narrowed.packages == [PackageSelection(path: "Packages/Broken", testTargets: ["BrokenTests"])])
  }

  @Test func namesTheIdsNothingMatches() throws {
    let (kept, unmatched) = try selection.restricted(to: [
      ".:AppTests", "Packages/Core:AppTests", ".:Missing", ".:*", ".:Missing", ".:Gone/MathTests",
    ])
    #expect(unmatched == ["Packages/Core:AppTests", ".:Missing", ".:*", ".:Gone/MathTests"])
    #expect(kept.units.map(\.id) == [".:AppTests"])
  }

  @Test func suiteIdsRunTheirTargetInPart() throws {
    let (kept, unmatched) = try selection.restricted(to: [
      ".:AppTests/MathTests", ".:AppTests/ParserTests", ".:UITests/-SlowTests", "Packages/Broken:BrokenTests/Edge",
    ])
    #expect(unmatched.isEmpty)
    #expect(
      kept.packages[0].suites == ["AppTests": .only(["MathTests", "ParserTests"]), "UITests": .allBut(["SlowTests"])])
    #expect(
      kept.packages[1]
        == PackageSelection(
          path: "Packages/Broken", testTargets: ["BrokenTests"], suites: ["BrokenTests": .only(["Edge"])]))
    #expect(
      kept.suiteScopes[".:UITests"] == .allBut(["SlowTests"]) && kept.suiteScopes["Packages/Broken:BrokenTests"] != nil)
  }

  @Test(arguments: [
    "Packages/Core", ":AppTests", ".:", ".:AppTests/", ".:AppTests/-", ".:AppTests/A/", ".:AppTests/A.1/b",
    ".:AppTests/9Lives",
    ".:AppTests/Math Tests", "Packages/Broken:*/Edge", ".:AppTests/test()",
  ])
  func malformedIdsAreUsageErrors(id: String) {
    #expect {
      try selection.restricted(to: [".:AppTests", id])
    } throws: { error in
      guard let error = error as? ShardEntryError else { return false }
      return error.category == .usage && error.description.contains(id) && error.id == id
    }
  }

  @Test func aTargetNamedWholeAndBySuiteIsAUsageError() {
    for ids in [[".:AppTests", ".:AppTests/MathTests"], [".:AppTests/MathTests", ".:AppTests/-ParserTests"]] {
      #expect {
        try selection.restricted(to: ids)
      } throws: { error in
        guard let error = error as? ShardEntryError else { return false }
        return error.category == .usage && ids.allSatisfy(error.description.contains)
      }
    }
  }
}
