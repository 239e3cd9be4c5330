import Foundation
import SystemClients

extension TestRunner {
  /// A `runner: xcodebuild` step (docs/DESIGN.md, "Test runs"): `xcodebuild build-for-testing`, then
  /// `test-without-building -only-testing:…` into the result bundle, then `xcresulttool` for the results.
  /// A failed build is a build failure (no test step); a missing bundle or results xcresulttool cannot give
  /// or Ripple cannot read make the step an error naming the bundle. Cancelling stops the running process
  /// as for `swift` steps. Failing tests are not retried here.
  func runXcodebuild(_ step: PackageStep) async throws(TestRunnerError) -> PackageResult {
    var package = PackageResult(path: step.package, run: step.run?.name, status: .cancelled)
    guard let bundle = step.resultBundle, !Task.isCancelled else { return package }

    if let built = try await build(step, &package) { return built }

    // xcodebuild refuses to write a result bundle where one exists.
    try? FileManager.default.removeItem(atPath: bundle)
    onEvent(.testing(package: step.eventName, targets: step.testTargets, attempt: 1))
    let live = LiveParser()
    let onEvent = onEvent
    let targets = step.testTargets
    let streamed = try await execute(step.test) { line in
      // xcodebuild prints XCTest's macOS lines (`Test Case '-[AppTests.T testA]' passed (0.001 seconds).`).
      guard let test = live.consume(line.text) else { return }
      let target = test.module ?? (targets.count == 1 ? targets[0] : "(unknown target)")
      onEvent(
        .testFinished(
          package: step.package, target: target,
          test: TestCaseResult(
            suite: test.suite ?? "", name: test.name, framework: test.framework, status: test.status,
            duration: test.duration, failures: test.failures)))
    }
    guard let test = streamed else { return finish(package) }
    guard FileManager.default.fileExists(atPath: bundle) else {
      package.status = .error
      package.message =
        "xcodebuild test-without-building wrote no result bundle at \(bundle) "
        + "(\(ProcessError.failed(test).description))"
      return finish(package)
    }
    guard let results = try await execute(step.list) else { return finish(package) }
    guard results.succeeded else {
      package.status = .error
      package.message =
        "xcresulttool could not read the result bundle \(bundle): \(ProcessError.failed(results).description)"
      return finish(package)
    }
    do {
      package.targets = try XCResultParser.parse(results.standardOutput, selected: step.testTargets)
    } catch {
      package.status = .error
      package.message =
        "the test results xcresulttool gave for \(bundle) are not readable: \(error.reason) "
        + "(command: \(step.list.commandLine))"
      return finish(package)
    }
    let failed = package.targets.contains { $0.totals.failed > 0 }
    if !test.succeeded && !failed {
      // xcodebuild failed without a failing test: a crash, or an error before any test ran.
      let crashed = TestCaseResult(
        suite: "", name: "(test process)", framework: .xctest, status: .failed,
        failures: [TestFailure(message: ProcessError.failed(test).description)])
      let name = step.testTargets.first ?? "(unknown target)"
      if let index = package.targets.firstIndex(where: { $0.name == name }) {
        let target = package.targets[index]
        package.targets[index] = TargetResult(name: name, tests: target.tests + [crashed], duration: target.duration)
      } else {
        package.targets.append(TargetResult(name: name, tests: [crashed]))
      }
      package.message = ProcessError.failed(test).description
      package.status = .failed
    } else if !package.targets.contains(where: { !$0.tests.isEmpty }) {
      package.status = .noTestsRan
      package.filter = step.testTargets.map { "-only-testing:\($0)" }.joined(separator: " ")
    } else {
      package.status = failed ? .failed : .passed
    }
    return finish(package)
  }
}
