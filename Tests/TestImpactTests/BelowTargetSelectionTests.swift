import Testing

@testable import SourceChanges
@testable import TestImpact

/// One expectation per selection rule, over maps built in code.
@Suite struct BelowTargetSelectionTests {
  let parse = TestID("CoreTests.ParserTests/testParse")
  let other = TestID("CoreTests.ParserTests/testOther")
  let spaced = TestID("CoreTests.Suite/`parse with spaces (and ü)`()")
  let parser = "Sources/Core/Parser.swift"
  let testFile = "Tests/CoreTests/ParserTests.swift"

  var map: CoverageMap {
    CoverageMap(
      target: "CoreTests", key: "k1",
      tests: [
        parse: [
          CoveredRegion(file: parser, lines: LineRange(3, 6)), CoveredRegion(file: testFile, lines: LineRange(4, 4)),
        ],
        other: [
          CoveredRegion(file: parser, lines: LineRange(8, 8)), CoveredRegion(file: testFile, lines: LineRange(5, 5)),
        ],
        spaced: [CoveredRegion(file: parser, lines: LineRange(3, 6))],
      ])
  }

  var current: [TestID] { [parse, other, spaced] }

  func bodies(_ names: [(String, Int, Int)]) -> BelowTargetSelection.FileChange {
    .swift(
      .bodiesOnly(
        names.map { ChangedFunction(name: $0.0, newLines: LineRange($0.1, $0.2), oldLines: LineRange($0.1, $0.2)) }))
  }

  @Test func testsThatExecutedAChangedFunctionRunAndTheOthersAreListedAsNotRun() {
    let outcome = BelowTargetSelection.select(
      map: .trusted(map), changes: [parser: bodies([("Parser.parse(_:)", 3, 6)])], testTargetFiles: [],
      currentTests: current)
    let reason = BelowTargetSelection.Reason.executed(file: parser, functions: ["Parser.parse(_:)"])
    #expect(outcome == .tests(run: [parse: [reason], spaced: [reason]], notRun: [other]))
    #expect(
      BelowTargetSummary.line(target: "CoreTests", outcome: outcome)
        == "2 of 3 tests of CoreTests: they executed Sources/Core/Parser.swift's `Parser.parse(_:)`")
    #expect(BelowTargetSummary.notRun(outcome) == ["not run: CoreTests.ParserTests/testOther"])
  }

  @Test func aChangedFunctionNoTestExecutedRunsNothing() {
    let outcome = BelowTargetSelection.select(
      map: .trusted(map), changes: [parser: bodies([("Parser.unused()", 20, 22)])], testTargetFiles: [],
      currentTests: current)
    #expect(outcome == .tests(run: [:], notRun: [other, parse, spaced]))
    #expect(
      BelowTargetSummary.line(target: "CoreTests", outcome: outcome)
        == "0 of 3 tests of CoreTests: no test executed what changed")
  }

  @Test func everyTestOfAChangedTestFileRuns() {
    let outcome = BelowTargetSelection.select(
      map: .trusted(map), changes: [testFile: bodies([("ParserTests.testParse()", 4, 4)])],
      testTargetFiles: [testFile], currentTests: current)
    guard case .tests(let run, let notRun) = outcome else {
      Issue.record("whole target")
      return
    }
    #expect(Set(run.keys) == [parse, other])
    #expect(run[other] == [.inChangedTestFile(testFile)])
    #expect(notRun == [spaced])
  }

  @Test func newAndRenamedTestsRunAsNotInTheMap() {
    let renamed = TestID("CoreTests.ParserTests/testParseRenamed")
    let change = BelowTargetSelection.FileChange.swift(
      .declarations(
        DeclarationChange(
          reason: "tests", line: 4,
          testsOnly: TestFunctionChanges(
            added: ["ParserTests.testParseRenamed()"], removed: ["ParserTests.testParse()"], changedBodies: []))))
    let outcome = BelowTargetSelection.select(
      map: .trusted(map), changes: [testFile: change], testTargetFiles: [testFile],
      currentTests: [renamed, other, spaced])
    guard case .tests(let run, _) = outcome else {
      Issue.record("whole target")
      return
    }
    #expect(run[renamed] == [.notInMap])
    #expect(run[other] == [.inChangedTestFile(testFile)])
    #expect(run[parse] == nil)  // no longer a test
  }

  @Test func testsOnlyChangesOutsideTheTestTargetRunWhole() {
    let change = BelowTargetSelection.FileChange.swift(
      .declarations(
        DeclarationChange(
          reason: "test functions changed", line: 4,
          testsOnly: TestFunctionChanges(added: ["A.testX()"], removed: [], changedBodies: []))))
    #expect(
      BelowTargetSelection.select(
        map: .trusted(map), changes: [parser: change], testTargetFiles: [], currentTests: current)
        == .wholeTarget("Sources/Core/Parser.swift:4: test functions changed"))
  }

  @Test func alwaysRunTestsRun() {
    let outcome = BelowTargetSelection.select(
      map: .trusted(map), changes: [:], testTargetFiles: [], currentTests: current, alwaysRun: [other])
    #expect(outcome == .tests(run: [other: [.alwaysRun]], notRun: [parse, spaced]))
  }

  @Test func everyChangeNotConfinedToBodiesRunsTheWholeTargetSayingWhy() {
    let cases: [(BelowTargetSelection.FileChange, String)] = [
      (
        .swift(.declarations(DeclarationChange(reason: "`Parser.reset()` was added", line: 9))),
        "Sources/Core/Parser.swift:9: `Parser.reset()` was added"
      ),
      (
        .swift(.unparseable("the new text does not parse: line 2: expected `)`")),
        "Sources/Core/Parser.swift cannot be compared: the new text does not parse: line 2: expected `)`"
      ),
      (.swiftFileAdded, "Sources/Core/Parser.swift was added"),
      (.swiftFileRemoved, "Sources/Core/Parser.swift was removed"),
      (.other("a resource"), "Sources/Core/Parser.swift changed (a resource)"),
    ]
    for (change, reason) in cases {
      let outcome = BelowTargetSelection.select(
        map: .trusted(map), changes: [parser: change], testTargetFiles: [], currentTests: current)
      #expect(outcome == .wholeTarget(reason))
      #expect(BelowTargetSummary.line(target: "CoreTests", outcome: outcome) == "CoreTests runs whole: \(reason)")
    }
  }

  @Test func aMissingUntrustedOrPartialMapRunsWhole() {
    let changes = [parser: bodies([("Parser.parse(_:)", 3, 6)])]
    #expect(
      BelowTargetSelection.select(map: .missing, changes: changes, testTargetFiles: [], currentTests: current)
        == .wholeTarget("no coverage map at the base"))
    #expect(
      BelowTargetSelection.select(
        map: .untrusted("unsigned on main"), changes: changes, testTargetFiles: [], currentTests: current)
        == .wholeTarget("its coverage map at the base is not trusted: unsigned on main"))
    var partial = map
    partial.unmapped = [other: "it crashed (signal 4)"]
    #expect(
      BelowTargetSelection.select(map: .trusted(partial), changes: changes, testTargetFiles: [], currentTests: current)
        == .wholeTarget(
          "its coverage map is partial: `CoreTests.ParserTests/testOther` could not be mapped (it crashed (signal 4))"))
  }

  @Test func aWholeFileRegionIsSelectedByAnyBodyChangeOfItsFile() {
    var coarse = map
    coarse.tests[other] = [CoveredRegion(file: parser, lines: nil)]
    let outcome = BelowTargetSelection.select(
      map: .trusted(coarse), changes: [parser: bodies([("Parser.unused()", 20, 22)])], testTargetFiles: [],
      currentTests: current)
    #expect(
      outcome
        == .tests(run: [other: [.executed(file: parser, functions: ["Parser.unused()"])]], notRun: [parse, spaced]))
    let commentOnly = BelowTargetSelection.select(
      map: .trusted(coarse), changes: [parser: .swift(.bodiesOnly([]))], testTargetFiles: [], currentTests: current)
    #expect(commentOnly == .tests(run: [:], notRun: [other, parse, spaced]))
  }

  @Test func oneTestNameInTwoSuitesIsTwoTests() {
    let first = TestID("CoreTests.A/testSame")
    let second = TestID("CoreTests.B/testSame")
    let twins = CoverageMap(
      target: "CoreTests", key: "k",
      tests: [first: [CoveredRegion(file: parser, lines: LineRange(3, 6))], second: []])
    let outcome = BelowTargetSelection.select(
      map: .trusted(twins), changes: [parser: bodies([("Parser.parse(_:)", 3, 6)])], testTargetFiles: [],
      currentTests: [first, second])
    #expect(
      outcome
        == .tests(run: [first: [.executed(file: parser, functions: ["Parser.parse(_:)"])]], notRun: [second]))
  }
}
