import Foundation
import RippleCore
import Testing

@testable import SourceChanges
@testable import TestImpact

@Suite struct CoverageMapTests {
  let map = CoverageMap(
    target: "CoreTests", key: "abc",
    tests: [
      TestID("CoreTests.Suite/`naïve name (with spaces)`()"): [
        CoveredRegion(file: "Sources/Core/Parser.swift", lines: LineRange(3, 6)),
        CoveredRegion(file: "Sources/Core/Lexer.swift", lines: nil),
      ],
      TestID("CoreTests.ParserTests/testParse"): [
        CoveredRegion(file: "Sources/Core/Parser.swift", lines: LineRange(3, 6))
      ],
    ],
    unmapped: [TestID("CoreTests.ParserTests/testCrash"): "it crashed (signal 4)"])

  @Test func roundTripsThroughCanonicalJSON() throws {
    let data = try map.encoded()
    #expect(try CoverageMap.decode(data, origin: "test") == map)
    // The same map is the same bytes, whatever order it was built in.
    var rebuilt = CoverageMap(target: "CoreTests", key: "abc", tests: [:], unmapped: map.unmapped)
    for (test, regions) in map.tests.sorted(by: { $0.key > $1.key }) { rebuilt.tests[test] = regions }
    #expect(try rebuilt.encoded() == data)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"files":["Sources/Core/Lexer.swift","Sources/Core/Parser.swift"],"key":"abc","#
        + #""regions":[[0],[1,3,6]],"schemaVersion":1,"target":"CoreTests","#
        + #""tests":{"CoreTests.ParserTests/testParse":[1],"CoreTests.Suite/`naïve name (with spaces)`()":[0,1]},"#
        + #""unmapped":{"CoreTests.ParserTests/testCrash":"it crashed (signal 4)"}}"#)
  }

  @Test func aMapOverTheLimitIsRefusedNamingTheTarget() throws {
    let size = try map.encoded().count
    #expect(throws: CoverageMapError.tooLarge(target: "CoreTests", size: 4, limit: 3, unit: "entries")) {
      try map.encoded(limits: .init(maxBytes: 1 << 20, maxEntries: 3))
    }
    #expect(throws: CoverageMapError.tooLarge(target: "CoreTests", size: size, limit: 100, unit: "bytes")) {
      try map.encoded(limits: .init(maxBytes: 100, maxEntries: 10))
    }
    let error = CoverageMapError.tooLarge(target: "CoreTests", size: 4, limit: 3, unit: "entries")
    #expect(error.category == .usage)
    #expect(
      error.description
        == "the coverage map of CoreTests has 4 entries, over the store's limit of 3: it is not stored and CoreTests "
        + "runs whole; raise the limit or split the target")
  }

  @Test func aStoredMapOverTheLimitOrDamagedIsRefused() throws {
    let data = try map.encoded()
    #expect(throws: CoverageMapError.tooLarge(target: "store entry x", size: data.count, limit: 10, unit: "bytes")) {
      try CoverageMap.decode(data, origin: "store entry x", limits: .init(maxBytes: 10, maxEntries: 10))
    }
    let damaged = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "[0,1]", with: "[0,7]").utf8)
    #expect(
      throws: CoverageMapError.unreadable(
        target: "x", detail: "test `CoreTests.Suite/`naïve name (with spaces)`()` names a region that is not in the map"
      )
    ) { try CoverageMap.decode(damaged, origin: "x") }
    let future = Data(#"{"schemaVersion":2}"#.utf8)
    #expect(throws: CoverageMapError.unsupportedSchema(origin: "x", version: 2)) {
      try CoverageMap.decode(future, origin: "x")
    }
    #expect(throws: CoverageMapError.self) { try CoverageMap.decode(Data("[]".utf8), origin: "x") }
  }

  @Test func testIDsSplitIntoSuiteAndNameOutsideQuotesAndParentheses() {
    #expect(TestID("CoreTests.ParserTests/testParse").suite == "CoreTests.ParserTests")
    #expect(TestID("CoreTests.ParserTests/testParse").name == "testParse")
    #expect(TestID("CoreTests.Outer/Inner/thing(a:)").suite == "CoreTests.Outer/Inner")
    #expect(TestID("CoreTests.S/`a/b (ü)`()").name == "`a/b (ü)`()")
    #expect(TestID("CoreTests.S/`a/b (ü)`()").suite == "CoreTests.S")
    #expect(TestID(suite: "M.S", name: "f()") == TestID("M.S/f()"))
  }
}
