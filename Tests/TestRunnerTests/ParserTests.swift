import Foundation
import Testing

@testable import TestRunner

@Suite struct ParserTests {
  @Test func readsXCTestConsoleLinesFromARealRun() throws {
    let tests = ConsoleParser.parse(Fixtures.console).filter { $0.framework == .xctest }
    #expect(tests.map(\.name) == ["testAdd", "testFails", "testSkipped"])
    #expect(tests.map(\.status) == [.passed, .failed, .skipped])
    #expect(tests.allSatisfy { $0.suite == "MathTests" && $0.module == nil })
    let failure = try #require(tests[1].failures.first)
    #expect(failure.file == "/tmp/trsample/Tests/XTests/XTests.swift")
    #expect(failure.line == 5)
    #expect(failure.message.hasPrefix("XCTAssertEqual failed: (\"3\") is not equal to (\"4\")"))
    #expect(tests[2].skipReason == "not today")
  }

  @Test func readsSwiftTestingConsoleLinesFromARealRun() throws {
    let tests = ConsoleParser.parse(Fixtures.console).filter { $0.framework == .swiftTesting }
    #expect(Set(tests.map(\.name)) == ["freeFunction()", "adds()", "failsToo()", "param(x:)", "disabled()"])
    let failing = try #require(tests.first { $0.name == "failsToo()" })
    #expect(failing.status == .failed)
    #expect(failing.failures.count == 1)
    #expect(failing.failures[0].file == "STests.swift")
    #expect(failing.failures[0].line == 5)
    #expect(failing.failures[0].message == "Expectation failed: (add(1, 2) → 3) == 4\nbad <sum>")
    #expect(tests.first { $0.name == "disabled()" }?.status == .skipped)
    #expect(tests.first { $0.name == "disabled()" }?.skipReason == "later")
    #expect(tests.first { $0.name == "param(x:)" }?.status == .passed)
  }

  @Test func readsMacOSStyleXCTestLines() throws {
    let tests = ConsoleParser.parse(Fixtures.macOSXCTest)
    #expect(tests.count == 2)
    #expect(tests.allSatisfy { $0.module == "XTests" && $0.suite == "MathTests" })
    #expect(tests[1].status == .failed)
    #expect(tests[1].failures.first?.line == 5)
    #expect(tests[0].duration == 0.002)
  }

  @Test func readsTheSwiftTestingXunitFile() throws {
    let tests = try #require(XUnitParser.parse(Data(Fixtures.swiftTestingXunit.utf8)))
    #expect(tests.count == 5)
    #expect(tests.allSatisfy { $0.module == "STests" })
    let failing = try #require(tests.first { $0.name == "failsToo()" })
    #expect(failing.suite == "AddSuite")
    #expect(failing.failures.first?.message == "Expectation failed: (add(1, 2) → 3) == 4 (error): bad <sum>")
    #expect(tests.first { $0.name == "freeFunction()" }?.suite == "")
    #expect(tests.first { $0.name == "disabled()" }?.skipReason == "later")
    #expect(XUnitParser.parse(Data("<testsuites><oops".utf8)) == nil)
  }

  @Test func attributesResultsToTargetsWithLocationsFromTheConsole() throws {
    let assembler = ResultAssembler(
      selectedTargets: ["STests", "XTests"], listedTests: Fixtures.listing.split(separator: "\n").map(String.init))
    let targets = assembler.assemble(
      console: Fixtures.console, swiftTestingXunit: XUnitParser.parse(Data(Fixtures.swiftTestingXunit.utf8)))
    #expect(targets.map(\.name) == ["STests", "XTests"])
    let s = targets[0].totals
    #expect((s.tests, s.passed, s.failed, s.skipped) == (5, 3, 1, 1))
    let x = targets[1].totals
    #expect((x.tests, x.passed, x.failed, x.skipped) == (3, 1, 1, 1))
    let failsToo = try #require(targets[0].tests.first { $0.name == "failsToo()" })
    #expect(failsToo.identifier(target: "STests") == "STests.AddSuite/failsToo()")
    #expect(failsToo.failures.first?.location == "STests.swift:5")
  }

  @Test func fallsBackToTheConsoleWithoutXunit() throws {
    let assembler = ResultAssembler(
      selectedTargets: ["STests"], listedTests: Fixtures.listing.split(separator: "\n").map(String.init))
    let targets = assembler.assemble(console: Fixtures.console, swiftTestingXunit: nil)
    #expect(targets.map(\.name) == ["STests"])
    #expect(targets[0].tests.count == 5)
    #expect(targets[0].tests.first { $0.name == "failsToo()" }?.suite == "AddSuite")
    #expect(targets[0].tests.first { $0.name == "freeFunction()" }?.suite == "")
  }

  @Test func aSelectedTargetWithoutResultsIsReportedEmpty() {
    let assembler = ResultAssembler(selectedTargets: ["Missing", "XTests"], listedTests: [])
    let targets = assembler.assemble(console: Fixtures.macOSXCTest, swiftTestingXunit: [])
    #expect(targets.map(\.name) == ["Missing", "XTests"])
    #expect(targets[0].tests.isEmpty)
  }

  @Test func extractsCompilerErrorLines() {
    #expect(
      BuildLog.errorLines(Fixtures.buildFailure) == [
        "/tmp/pkg/Sources/Lib/Lib.swift:1:52: error: cannot find 'c' in scope", "error: fatalError",
      ])
  }
}
