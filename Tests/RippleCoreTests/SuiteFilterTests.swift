import RippleCore
import Testing

/// The `swift test --filter` of targets split by suites, checked against identifiers as `swift test list`
/// prints them (Swift 6.3.1: XCTest `T.Class/test`, Swift Testing `T.Suite/test()`, `T.Outer/Inner/test()`,
/// `T.free()`).
@Suite struct SuiteFilterTests {
  let ids = [
    "XT.A/testA", "XT.AB/testAB", "XT.B/testB1", "ST.S1/s1a()", "ST.Outer/Inner/inner()", "ST.Outer/outer()",
    "ST.free()", "ST.S1x/other()", "Other.A/testA",
  ]

  func matched(_ pattern: String) throws -> [String] {
    let regex = try Regex(pattern)
    return ids.filter { (try? regex.prefixMatch(in: $0)) != nil }
  }

  @Test func wholeTargetsKeepTheirOldFilter() {
    #expect(SuiteFilter.pattern(targets: ["XT", "ST", "XT"], scopes: [:]) == #"^(ST|XT)\."#)
  }

  @Test func suitesAreAnchoredAtTheirWholeName() throws {
    let pattern = SuiteFilter.pattern(
      targets: ["XT", "ST"], scopes: ["XT": .only(["A"]), "ST": .only(["S1", "Outer"])])
    #expect(pattern == #"^(ST\.(Outer|S1)(/|\.|$)|XT\.(A)(/|\.|$))"#)
    #expect(try matched(pattern) == ["XT.A/testA", "ST.S1/s1a()", "ST.Outer/Inner/inner()", "ST.Outer/outer()"])
  }

  @Test func theRemainderLeavesOutTheNamedSuitesAndKeepsEverythingElse() throws {
    let pattern = SuiteFilter.pattern(
      targets: ["XT", "ST"], scopes: ["XT": .allBut(["A"]), "ST": .allBut(["S1", "Outer"])])
    #expect(pattern == #"^(ST\.(?!(Outer|S1)(/|\.|$))|XT\.(?!(A)(/|\.|$)))"#)
    #expect(try matched(pattern) == ["XT.AB/testAB", "XT.B/testB1", "ST.free()", "ST.S1x/other()"])
  }

  @Test func aSuiteAndTheRemainderThatLeavesItOutPartitionTheTarget() throws {
    let some = try Set(matched(SuiteFilter.pattern(targets: ["ST"], scopes: ["ST": .only(["S1", "Gone"])])))
    let rest = try Set(matched(SuiteFilter.pattern(targets: ["ST"], scopes: ["ST": .allBut(["S1", "Gone"])])))
    #expect(some.isDisjoint(with: rest))
    #expect(some.union(rest) == Set(ids.filter { $0.hasPrefix("ST.") }))
  }

  @Test func entriesPrintAndParseBack() throws {
    for id in ["Packages/Net:NetTests", "a:b:CoreTests/MathTests", ".:AppTests/-SlowTests", "Packages/X:*"] {
      #expect(try ShardEntry(parsing: id).description == id)
    }
    #expect(try ShardEntry(parsing: "a:b:CoreTests/MathTests").package == "a:b")
    #expect(try SuiteScope.of([ShardEntry(parsing: ".:T/B"), ShardEntry(parsing: ".:T/A")]) == .only(["A", "B"]))
    #expect(try SuiteScope.of([ShardEntry(parsing: ".:T")]) == nil)
  }
}
