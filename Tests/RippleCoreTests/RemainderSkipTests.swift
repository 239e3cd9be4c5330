import RippleCore
import Testing

/// A split target's remainder against Swift Testing's filtering as `swift test` 6.3.1 applies it: a test runs when
/// a `--filter` matches its identifier or the identifier of a suite that holds it (`ST.Outer`, `ST.Outer/Inner`),
/// unless a `--skip` matches it or such a suite. XCTest's identifiers have no suites of their own to match.
@Suite struct RemainderSkipTests {
  let ids = [
    "XT.A/testA", "XT.A/testB", "XT.B/testB1", "ST.S1/s1a()", "ST.S1/s1b()", "ST.S1/param(x:)",
    "ST.Outer/Inner/inner()", "ST.Outer/outer()", "ST.free()",
  ]

  /// `ST.Outer/Inner/inner()` → `ST.Outer`, `ST.Outer/Inner`, itself.
  static func withSuites(_ id: String) -> [String] {
    guard let dot = id.firstIndex(of: "."), id.contains("/") else { return [id] }
    let target = id[..<dot]
    let parts = id[id.index(after: dot)...].split(separator: "/").map(String.init)
    return (1...parts.count).map { "\(target)." + parts.prefix($0).joined(separator: "/") }
  }

  /// What Swift Testing (and XCTest, whose suites never match alone) runs of `ids`.
  func ran(filter: String, skip: String?) throws -> Set<String> {
    let filter = try Regex(filter)
    let skip = try skip.map { try Regex($0) }
    return Set(
      ids.filter { id in
        let chain = id.hasPrefix("ST.") ? Self.withSuites(id) : [id]
        let selected = chain.contains { (try? filter.firstMatch(in: $0)) != nil }
        let skipped = skip.map { skip in chain.contains { (try? skip.firstMatch(in: $0)) != nil } } ?? false
        return selected && !skipped
      })
  }

  @Test func theLookAheadAloneLetsTheSuiteRunWhole() throws {
    // The bug this replaces: the suite `ST.S1` passes the look-ahead, and Swift Testing runs all of it.
    let scopes: [String: SuiteScope] = ["ST": .allBut(["S1/s1a()"])]
    let filter = SuiteFilter.pattern(targets: ["ST"], scopes: scopes)
    #expect(try ran(filter: filter, skip: nil).contains("ST.S1/s1a()"))
  }

  @Test func theRemainderRunsExactlyWhatNoOtherShardRuns() throws {
    let placed = ["S1/s1a()", "S1/param(x:)", "Outer.Inner/inner()"]
    let remainder: [String: SuiteScope] = ["ST": .allBut(placed), "XT": .allBut(["A/testA"])]
    let skip = try #require(SuiteFilter.skipPattern(targets: ["ST", "XT"], scopes: remainder))
    let rest = try ran(filter: SuiteFilter.pattern(targets: ["ST", "XT"], scopes: remainder), skip: skip)
    let elsewhere: [String: SuiteScope] = ["ST": .only(placed), "XT": .only(["A/testA"])]
    let some = try ran(filter: SuiteFilter.pattern(targets: ["ST", "XT"], scopes: elsewhere), skip: nil)
    #expect(some == ["ST.S1/s1a()", "ST.S1/param(x:)", "ST.Outer/Inner/inner()", "XT.A/testA"])
    #expect(rest.isDisjoint(with: some))
    #expect(rest.union(some) == Set(ids))
  }

  @Test func wholeSuitesLeftOutAreSkippedWithTheirNestedSuites() throws {
    let scopes: [String: SuiteScope] = ["ST": .allBut(["Outer", "S1"])]
    let skip = try #require(SuiteFilter.skipPattern(targets: ["ST"], scopes: scopes))
    #expect(skip == #"^(ST\.(Outer|S1)(/|\.|$))"#)
    #expect(try ran(filter: SuiteFilter.pattern(targets: ["ST"], scopes: scopes), skip: skip) == ["ST.free()"])
  }

  @Test func noRemainderNoSkip() {
    #expect(SuiteFilter.skipPattern(targets: ["ST", "XT"], scopes: ["ST": .only(["S1"])]) == nil)
    #expect(SuiteFilter.skipPattern(targets: ["ST"], scopes: [:]) == nil)
  }

  @Test func aNestedSuitesTestMatchesSwiftTestingsIdentifier() throws {
    #expect(SuiteFilter.escapeTest("Outer.Inner/inner()") == #"Outer[./]Inner/inner\(\)"#)
    let pattern = SuiteFilter.pattern(targets: ["ST"], scopes: ["ST": .only(["Outer.Inner/inner()"])])
    #expect(try ran(filter: pattern, skip: nil) == ["ST.Outer/Inner/inner()"])
  }
}
