import Testing

@testable import TestRunner

/// `ripple test --targets`: a CI job runs exactly the units its plan gave it.
@Suite struct SelectionTargetsTests {
  let selection = TestSelection(packages: [
    PackageSelection(path: ".", testTargets: ["AppTests", "UITests"]),
    PackageSelection(path: "Packages/Core", testTargets: ["CoreTests"]),
    PackageSelection(path: "Packages/Broken", testTargets: [], runAll: true),
  ])

  @Test func keepsOnlyTheListedTargets() {
    let (kept, unmatched) = selection.restricted(to: ["Packages/Core:CoreTests", ".:UITests"])
    #expect(unmatched.isEmpty)
    #expect(kept.units.map(\.id) == [".:UITests", "Packages/Core:CoreTests"])
  }

  @Test func aWholePackageIsKeptWholeOrNarrowedToTheListedNames() {
    #expect(selection.restricted(to: ["Packages/Broken:*"]).selection.packages.map(\.runAll) == [true])
    let (narrowed, unmatched) = selection.restricted(to: ["Packages/Broken:BrokenTests"])
    #expect(unmatched.isEmpty)
    #expect(narrowed.packages == [PackageSelection(path: "Packages/Broken", testTargets: ["BrokenTests"])])
  }

  @Test func namesTheIdsNothingMatches() {
    let (kept, unmatched) = selection.restricted(to: [
      ".:AppTests", "Packages/Core:AppTests", ".:Missing", ".:*", ".:Missing", "Packages/Core",
    ])
    #expect(unmatched == ["Packages/Core:AppTests", ".:Missing", ".:*", "Packages/Core"])
    #expect(kept.units.map(\.id) == [".:AppTests"])
  }
}
