import Foundation
import SystemClients
import Testing

@testable import TestRunner

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A small run: one target with a pass, a failure (awkward characters), a skip and a flaky test, plus a
/// package that failed to build.
func sampleResult() -> TestRunResult {
  let tests = [
    TestCaseResult(suite: "MathTests", name: "testAdd", framework: .xctest, status: .passed, duration: 0.5),
    TestCaseResult(
      suite: "MathTests", name: "testFails", framework: .xctest, status: .failed, duration: 0.25,
      failures: [TestFailure(message: "wrong <sum> & \"quote\" 'x'\u{1}", file: "/r/Tests/M.swift", line: 5)]),
    TestCaseResult(suite: "", name: "later()", framework: .swiftTesting, status: .skipped, skipReason: "not today"),
    TestCaseResult(
      suite: "Net", name: "flaky()", framework: .swiftTesting, status: .passed, duration: 0.1,
      failures: [TestFailure(message: "timed out", file: "N.swift", line: 9)], flaky: true, attempts: 2),
  ]
  return TestRunResult(
    packages: [
      PackageResult(
        path: ".", status: .failed, filter: #"^(CoreTests)\."#, targets: [TargetResult(name: "CoreTests", tests: tests)]
      ),
      PackageResult(
        path: "Packages/UI", status: .buildFailed, buildDuration: 3,
        buildErrors: ["/r/Packages/UI/Sources/UI/V.swift:3:1: error: expected '}'"]),
    ], duration: 4.2)
}

/// Element names with their attributes, in document order.
final class XMLCollector: NSObject, XMLParserDelegate {
  var elements: [(name: String, attributes: [String: String])] = []
  var text: [String: String] = [:]
  private var stack: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    elements.append((element, attributes))
    stack.append(element)
  }
  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if let top = stack.last { text[top, default: ""] += string }
  }
  func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
    stack.removeLast()
  }

  static func parse(_ xml: String) throws -> XMLCollector {
    let collector = XMLCollector()
    let parser = XMLParser(data: Data(xml.utf8))
    parser.delegate = collector
    try #require(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
    return collector
  }
}

@Suite struct ReportTests {
  @Test func junitHasOneSuitePerTargetAndIsWellFormed() throws {
    let xml = try XMLCollector.parse(JUnitRenderer.render(sampleResult()))
    #expect(xml.elements.first?.name == "testsuites")
    #expect(xml.elements.first?.attributes["failures"] == "1")
    let suites = xml.elements.filter { $0.name == "testsuite" }
    #expect(suites.map { $0.attributes["name"] } == ["CoreTests", "Packages/UI (build)"])
    #expect(suites[0].attributes["tests"] == "4")
    #expect(suites[0].attributes["skipped"] == "1")
    let cases = xml.elements.filter { $0.name == "testcase" }
    #expect(cases.count == 5)
    #expect(cases[0].attributes["classname"] == "CoreTests.MathTests")
    #expect(cases[0].attributes["time"] == "0.500")
    #expect(cases[2].attributes["classname"] == "CoreTests")
    let failure = try #require(xml.elements.first { $0.name == "failure" })
    #expect(failure.attributes["message"] == "wrong <sum> & \"quote\" 'x'\u{FFFD}")
    #expect(xml.text["failure"]?.hasPrefix("/r/Tests/M.swift:5: wrong") == true)
    #expect(xml.elements.contains { $0.name == "skipped" && $0.attributes["message"] == "not today" })
    #expect(xml.elements.contains { $0.name == "property" && $0.attributes == ["name": "flaky", "value": "true"] })
    // Surefire's rerun format: the flaky test passes, its first failure in <flakyFailure><stackTrace>.
    #expect(
      xml.elements.contains {
        $0.name == "flakyFailure" && $0.attributes == ["message": "timed out", "type": "failure"]
      })
    #expect(xml.text["stackTrace"]?.contains("N.swift:9: timed out") == true)
    #expect(xml.elements.first { $0.name == "error" }?.attributes["message"] == "build failed")
    #expect(xml.text["error"]?.contains("expected '}'") == true)
  }

  @Test func junitPathsAreRelativeToTheRepository() {
    let relative = JUnitRenderer.render(sampleResult(), repositoryRoot: "/r")
    #expect(relative.contains("Tests/M.swift:5: wrong"), "\(relative)")
    #expect(!relative.contains("/r/Tests/M.swift"))
    #expect(relative.contains("N.swift:9"), "a path outside the root is kept")
    #expect(JUnitRenderer.render(sampleResult()).contains("/r/Tests/M.swift:5"), "no root: as reported")
  }

  @Test func junitForNothingAffectedIsStillADocument() throws {
    let text = JUnitRenderer.render(TestRunResult(packages: [], nothingAffected: true))
    let xml = try XMLCollector.parse(text)
    #expect(xml.elements.map(\.name) == ["testsuites"])
    #expect(xml.elements[0].attributes["tests"] == "0")
    #expect(text.contains("no test target is affected"))
  }

  @Test func summaryShowsTheTableFailuresFlakyAndBuildErrors() {
    let text = SummaryRenderer.render(sampleResult())
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines[0].hasPrefix("package"))
    #expect(
      lines[1].split(separator: " ", omittingEmptySubsequences: true) == [
        ".", "CoreTests", "4", "2", "1", "1", "0.85s",
      ])
    #expect(text.contains("✘ CoreTests.MathTests/testFails\n    /r/Tests/M.swift:5: wrong <sum>"))
    #expect(text.contains("~ CoreTests.Net/flaky() passed on attempt 2"))
    #expect(
      text.contains("Build failed: package Packages/UI\n  /r/Packages/UI/Sources/UI/V.swift:3:1: error: expected '}'"))
    #expect(text.hasSuffix("4 tests, 2 passed, 1 failed, 1 skipped, 1 flaky in 4.20s\n"))
    #expect(
      SummaryRenderer.render(TestRunResult(packages: [], nothingAffected: true)).contains("No test target is affected"))
  }

  @Test func jsonReportRoundTripsAndCarriesTotals() throws {
    let result = sampleResult()
    let text = result.jsonReport()
    let decoded = try JSONDecoder().decode(TestRunResult.self, from: Data(text.utf8))
    #expect(decoded == result)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 1)
    #expect(object["succeeded"] as? Bool == false)
    #expect((object["totals"] as? [String: Any])?["flaky"] as? Int == 1)
  }

  @Test func checkMapsOutcomesToErrors() {
    #expect(throws: TestRunnerError.buildFailed(packages: ["Packages/UI"])) { try sampleResult().check() }
    var onlyTests = sampleResult()
    onlyTests.packages.removeLast()
    #expect(throws: TestRunnerError.testsFailed(count: 1, packages: ["."])) { try onlyTests.check() }
    let empty = TestRunResult(packages: [PackageResult(path: ".", status: .noTestsRan, filter: "^(X)\\.")])
    #expect(throws: TestRunnerError.noTestsRan(package: ".", filter: "^(X)\\.")) { try empty.check() }
    #expect(TestRunnerError.noTestsRan(package: ".", filter: "f").category == .checkFailed)
    #expect(throws: Never.self) { try TestRunResult(packages: [], nothingAffected: true).check() }
  }

  @Test func writesBothReportsToDisk() async throws {
    try await withTemporaryDirectory { dir in
      let junit = dir + "/out/junit.xml"
      let json = dir + "/out/report.json"
      try TestReportWriter.write(sampleResult(), junitPath: junit, jsonPath: json)
      #expect(try String(contentsOfFile: junit, encoding: .utf8).hasPrefix("<?xml"))
      #expect(try String(contentsOfFile: json, encoding: .utf8).contains("\"schemaVersion\" : 1"))
    }
  }

  /// A package run whole (`--all`) names no test target: the first line said "Testing 0 test targets in 1 package".
  @Test func theFirstLineSaysWhatIsTestedWhenPackagesRunWhole() {
    #expect(TestRunEvent.scope(packages: 2, targets: 3, wholePackages: 0) == "3 test targets in 2 packages")
    #expect(TestRunEvent.scope(packages: 1, targets: 0, wholePackages: 1) == "every test target of 1 package")
    #expect(
      TestRunEvent.scope(packages: 3, targets: 1, wholePackages: 2)
        == "1 test target in 1 package and every test target of 2 packages")
    var renderer = ProgressRenderer(interactive: false)
    #expect(
      renderer.render(.started(packages: 1, targets: 0, wholePackages: 1), elapsed: 0) == [
        .line("Testing every test target of 1 package")
      ])
  }

  @Test func progressIsOneUpdatingLineOnATerminalAndPlainLinesOtherwise() {
    let test = TestCaseResult(
      suite: "S", name: "t()", framework: .swiftTesting, status: .failed,
      failures: [TestFailure(message: "m", file: "F.swift", line: 3)])
    let events: [TestRunEvent] = [
      .started(packages: 1, targets: 1, wholePackages: 0), .building(package: "."),
      .built(package: ".", succeeded: true, seconds: 2),
      .testing(package: ".", targets: ["T"], attempt: 1), .testFinished(package: ".", target: "T", test: test),
      .packageFinished(PackageResult(path: ".", status: .failed, targets: [TargetResult(name: "T", tests: [test])])),
    ]
    var tty = ProgressRenderer(interactive: true)
    var plain = ProgressRenderer(interactive: false)
    let ttyOut = events.flatMap { tty.render($0, elapsed: 1) }
    let plainOut = events.flatMap { plain.render($0, elapsed: 1) }
    #expect(!plainOut.contains { if case .status = $0 { true } else { false } })
    #expect(plainOut.contains(.line("Building root package…")))
    #expect(plainOut.contains(.line("✘ T.S/t() failed at F.swift:3")))
    #expect(ttyOut.contains(.status("[1.00s] T S/t() — 0 passed, 1 failed")))
    #expect(!ttyOut.contains(.line("Building root package…")))
    #expect(ttyOut.contains(.line("✘ root package: 0 passed, 1 failed, 0 skipped")))
  }

  @Test func progressNoneWritesNothingAndTTYIsForcedWhenAsked() throws {
    let pipe = Pipe()
    let silent = ProgressWriter(handle: pipe.fileHandleForWriting, interactive: false, silent: true)
    silent.handle(.started(packages: 1, targets: 1, wholePackages: 0))
    silent.handle(.building(package: "."))
    let tty = ProgressWriter(handle: pipe.fileHandleForWriting, interactive: true)
    tty.handle(.building(package: "."))
    try pipe.fileHandleForWriting.close()
    let written = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(!written.contains("Testing 1 test target"), "--progress none: \(written)")
    #expect(written.hasPrefix("\r\u{1B}[2K[") && written.contains("building root package"), "a status line: \(written)")
  }

  @Test func buildStepsShowOnTheStatusLineAndEveryTenthOrTenSecondsInLogs() {
    func output(_ text: String) -> TestRunEvent { .output(package: ".", line: OutputLine(.standardOutput, text)) }
    var tty = ProgressRenderer(interactive: true)
    _ = tty.render(.building(package: "."), elapsed: 0)
    #expect(
      tty.render(output("[3/200] Compiling Core A.swift"), elapsed: 1)
        .contains(.status("[1.00s] building root package [3/200] Compiling Core A.swift — 0 passed, 0 failed")))

    var plain = ProgressRenderer(interactive: false)
    var lines: [String] = []
    for (done, time) in [(1, 0.5), (5, 1.0), (19, 2.0), (20, 3.0), (21, 14.0), (22, 15.0), (200, 16.0)] {
      for case .line(let line) in plain.render(output("[\(done)/200] Compiling X"), elapsed: time) {
        lines.append(line)
      }
    }
    // The first step, the 10 % mark (20/200), 10 s later (21 at 14 s), then 100 %.
    #expect(
      lines == [
        "Building root package: [1/200] Compiling X", "Building root package: [20/200] Compiling X",
        "Building root package: [21/200] Compiling X", "Building root package: [200/200] Compiling X",
      ])
    #expect(plain.render(output("warning: something"), elapsed: 17).isEmpty, "other build lines need --verbose")
    var verbose = ProgressRenderer(interactive: false, verbose: true)
    #expect(verbose.render(output("warning: something"), elapsed: 1) == [.line("warning: something")])
  }
}
