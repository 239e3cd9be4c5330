import Foundation
import RippleConfig
import SystemClients

/// The xcodebuild and xcresulttool commands of one `runner: xcodebuild` step (docs/DESIGN.md, "Test runs"):
/// the run's `XcodebuildRunSpec` as ripple.yml declares it, with the paths of this step. Pure.
struct XcodebuildCommands: Sendable, Hashable {
  var spec: XcodebuildRunSpec
  /// The repository root: the working directory, and what the spec's paths are relative to.
  var root: String
  /// `-derivedDataPath`: the run's own, kept like a `.build` so the next run builds incrementally.
  var derivedData: String
  var environment: [String: String?]
  /// `xcodebuild` and `xcrun`, looked up on PATH, or paths to them (`TestRunOptions`).
  var xcodebuildExecutable: String
  var xcrunExecutable: String

  /// The arguments both xcodebuild actions share: scheme, destination, container, configuration, test
  /// plan and the derived data folder.
  var common: [String] {
    var arguments = ["-scheme", spec.scheme, "-destination", spec.destination]
    if let workspace = spec.workspace {
      arguments += ["-workspace", TestPlan.absolutePackagePath(workspace, root: root)]
    }
    if let project = spec.project { arguments += ["-project", TestPlan.absolutePackagePath(project, root: root)] }
    if let configuration = spec.configuration { arguments += ["-configuration", configuration] }
    if let testPlan = spec.testPlan { arguments += ["-testPlan", testPlan] }
    return arguments + ["-derivedDataPath", derivedData]
  }

  /// `xcodebuild build-for-testing`; the spec's `arguments` come after Ripple's own.
  var build: ProcessRequest {
    var request = ProcessRequest(
      xcodebuildExecutable, ["build-for-testing"] + common + spec.arguments, workingDirectory: root,
      environment: environment)
    // Streamed line by line; only the end is kept in memory (the errors are picked out as it comes).
    request.retainedOutput = TestRunner.retainedBuildOutput
    return request
  }

  /// `xcodebuild test-without-building` of `onlyTesting` (the `-only-testing:` arguments) into `resultBundle`.
  func test(_ onlyTesting: [String], _ resultBundle: String) -> ProcessRequest {
    ProcessRequest(
      xcodebuildExecutable,
      ["test-without-building"] + common + ["-resultBundlePath", resultBundle] + onlyTesting + spec.arguments,
      workingDirectory: root, environment: environment)
  }

  /// `xcresulttool` reading a bundle: Xcode 16's JSON (older versions only have `get --legacy --format json`,
  /// not read here).
  func results(_ resultBundle: String) -> ProcessRequest {
    ProcessRequest(
      xcrunExecutable, ["xcresulttool", "get", "test-results", "tests", "--path", resultBundle, "--compact"],
      workingDirectory: root, environment: environment)
  }

  /// `-only-testing:` of a target, or of one test: `Target/Suite/test()` (nested suites separated by `/`),
  /// the target followed by the test's `nodeIdentifier` in the result bundle.
  static func onlyTesting(_ target: String) -> String { "-only-testing:\(target)" }

  static func onlyTesting(_ test: TestCaseResult, target: String) -> String {
    let suites = test.suite.split(separator: ".").map(String.init)
    return "-only-testing:" + ([target] + suites + [test.name]).joined(separator: "/")
  }
}
