import Foundation
import SystemClients

/// The I/O that differs per `TestBackend`: how results are attributed to targets and read after an attempt.
extension TestRunner {
  /// The assembler of a step's results; nil when cancelled. SwiftPM: `swift test list` (about a second)
  /// tells which target a test belongs to, unless exactly one target is selected. xcodebuild: its console
  /// lines and its result bundle name every test's target.
  func assembler(for step: PackageStep) async throws(TestRunnerError) -> ResultAssembler? {
    var listed: [String] = []
    if case .swiftPM(let swiftPM) = step.backend, step.testTargets.count != 1 {
      guard let list = try await execute(swiftPM.list) else { return nil }
      if list.succeeded { listed = list.outputString.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
    }
    return ResultAssembler(selectedTargets: step.testTargets, listedTests: listed)
  }

  /// The results of an attempt that ran; nil when cancelled meanwhile.
  ///
  /// SwiftPM: the console and the Swift Testing xunit file. xcodebuild (docs/DESIGN.md, "Test runs"):
  /// `xcresulttool` reading the attempt's result bundle; a missing bundle, or results xcresulttool cannot
  /// give or Ripple cannot read, are `unreadable` with a message naming the bundle.
  func results(of attempt: TestAttempt, _ process: ProcessResult, step: PackageStep, assembler: ResultAssembler)
    async throws(TestRunnerError) -> AttemptOutcome?
  {
    switch step.backend {
    case .swiftPM:
      let xunit = FileManager.default.contents(atPath: SwiftPMTests.swiftTestingPath(attempt.output))
        .flatMap { XUnitParser.parse($0) }
      let console = process.outputString + "\n" + process.errorString
      return .ran(process, assembler.assemble(console: console, swiftTestingXunit: xunit))
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
