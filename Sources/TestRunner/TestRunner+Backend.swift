import Foundation
import SystemClients

/// The I/O that differs per `TestBackend`: how results are attributed to targets and read after an attempt.
extension TestRunner {
  /// What a step's results are read with: the assembler and, for SwiftPM, the tests the built product holds.
  enum ResultsSetup {
    /// `listed`: `swift test list`'s identifiers (nil for xcodebuild, whose result bundle names every test).
    case ready(ResultAssembler, listed: [String]?)
    /// `swift test list` failed: without it a test that never ran cannot be told from one that passed.
    case unlisted(String)
  }

  /// The assembler of a step's results and the tests it expects; nil when cancelled. SwiftPM: `swift test
  /// list` of the built product (about a second) names every test, so each one the attempt selects must end
  /// with an outcome (`TestCompleteness`), and tells which target a test belongs to. xcodebuild: its console
  /// lines and its result bundle name every test's target.
  func resultsSetup(for step: PackageStep) async throws(TestRunnerError) -> ResultsSetup? {
    guard case .swiftPM(let swiftPM) = step.backend else {
      return .ready(ResultAssembler(selectedTargets: step.testTargets, listedTests: []), listed: nil)
    }
    if let listing = swiftPM.binaryListing, let binary = listing.binary() {
      let (xctest, swiftTesting) = listing.requests(binary: binary)
      // Side by side: each listing starts the binary, and both lie between the build and the tests.
      async let xctestRun = executeCatching(xctest)
      async let swiftTestingRun = executeCatching(swiftTesting)
      let (xctestResult, swiftTestingResult) = await (xctestRun, swiftTestingRun)
      guard let dumped = try xctestResult.get(), let listedBySwiftTesting = try swiftTestingResult.get() else {
        return nil
      }
      if dumped.succeeded, listedBySwiftTesting.succeeded,
        let xctestTests = XCTestListParser.parse(Array(dumped.standardOutput))
      {
        let listed =
          xctestTests
          + listedBySwiftTesting.outputString.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
          .filter { !$0.isEmpty }
        return .ready(ResultAssembler(selectedTargets: step.testTargets, listedTests: listed), listed: listed)
      }
      // Not what was expected of the binary: SwiftPM's own listing decides.
    }
    guard let list = try await execute(swiftPM.list) else { return nil }
    guard list.succeeded else {
      return .unlisted(
        "could not list the tests of the built product, so Ripple cannot tell a test that never ran from one "
          + "that passed: \(ProcessError.failed(list).description)")
    }
    let listed = list.outputString.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    return .ready(ResultAssembler(selectedTargets: step.testTargets, listedTests: listed), listed: listed)
  }

  /// `execute(_:)`, its error kept as a value (an `async let` would lose the error's type).
  private func executeCatching(_ request: ProcessRequest) async -> Result<ProcessResult?, TestRunnerError> {
    do {
      return .success(try await execute(request))
    } catch {
      return .failure(error)
    }
  }

  /// The results of an attempt that ran; nil when cancelled meanwhile.
  ///
  /// SwiftPM: the console and the Swift Testing xunit file. xcodebuild (docs/DESIGN.md, "Test runs"):
  /// `xcresulttool` reading the attempt's result bundle; a missing bundle, or results xcresulttool cannot
  /// give or Ripple cannot read, are `unreadable` with a message naming the bundle.
  /// SwiftPM: every test of `expected` (the listed identifiers) that the attempt's command selects and that
  /// reported nothing is a failure (`TestCompleteness`).
  func results(
    of attempt: TestAttempt, _ process: ProcessResult, step: PackageStep, assembler: ResultAssembler,
    expected: [String]?
  ) async throws(TestRunnerError) -> AttemptOutcome? {
    switch step.backend {
    case .swiftPM:
      let xunit = FileManager.default.contents(atPath: SwiftPMTests.swiftTestingPath(attempt.output))
        .flatMap { XUnitParser.parse($0) }
      let console = process.outputString + "\n" + process.errorString
      let results = assembler.assemble(console: console, swiftTestingXunit: xunit)
      guard let listed = expected else { return .ran(process, results) }
      return .ran(
        process,
        TestCompleteness.account(
          results, expected: ExpectedTests(listed: listed, arguments: attempt.request.arguments),
          unfinished: ConsoleParser.unfinished(in: console), ending: TestProcessEnding(process)))
    case .xcodebuild(let xcodebuild):
      let bundle = attempt.output
      guard FileManager.default.fileExists(atPath: bundle) else {
        return .unreadable(
          "xcodebuild test-without-building wrote no result bundle at \(bundle) "
            + "(\(ProcessError.failed(process).description))")
      }
      let request = xcodebuild.commands.results(bundle)
      guard let results = try await execute(request) else { return nil }
      guard results.succeeded else {
        return .unreadable(
          "xcresulttool could not read the result bundle \(bundle): \(ProcessError.failed(results).description)")
      }
      do {
        return .ran(process, try assembler.assemble(xcresult: results.standardOutput))
      } catch {
        return .unreadable(
          "the test results xcresulttool gave for \(bundle) are not readable: \(error.reason) "
            + "(command: \(request.commandLine))")
      }
    }
  }
}
