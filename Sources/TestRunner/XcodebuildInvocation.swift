import Foundation
import SystemClients

/// How a `runner: xcodebuild` test run calls xcodebuild (docs/DESIGN.md, "Test runs"). Carried by its
/// `TestRunContext`; `TestPlan` turns it into `build-for-testing`, `test-without-building` and
/// `xcresulttool` commands.
public struct XcodebuildInvocation: Sendable, Codable, Hashable {
  public var scheme: String
  /// Repo-relative `.xcodeproj` (`-project`), or nil.
  public var project: String?
  /// Repo-relative `.xcworkspace` (`-workspace`), or nil.
  public var workspace: String?
  public var destination: String
  public var configuration: String?
  public var testPlan: String?
  /// Given to both xcodebuild commands, after Ripple's own.
  public var arguments: [String]
  /// `xcodebuild` and `xcrun`, looked up on PATH, or paths to them.
  public var xcodebuildExecutable: String
  public var xcrunExecutable: String

  public init(
    scheme: String, project: String? = nil, workspace: String? = nil, destination: String,
    configuration: String? = nil, testPlan: String? = nil, arguments: [String] = [],
    xcodebuildExecutable: String = "xcodebuild", xcrunExecutable: String = "xcrun"
  ) {
    self.scheme = scheme
    self.project = project
    self.workspace = workspace
    self.destination = destination
    self.configuration = configuration
    self.testPlan = testPlan
    self.arguments = arguments
    self.xcodebuildExecutable = xcodebuildExecutable
    self.xcrunExecutable = xcrunExecutable
  }

  /// The arguments both xcodebuild actions share: scheme, destination, container, configuration, test
  /// plan and the derived data folder.
  func common(root: String, derivedData: String) -> [String] {
    var arguments = ["-scheme", scheme, "-destination", destination]
    if let workspace { arguments += ["-workspace", TestPlan.absolutePackagePath(workspace, root: root)] }
    if let project { arguments += ["-project", TestPlan.absolutePackagePath(project, root: root)] }
    if let configuration { arguments += ["-configuration", configuration] }
    if let testPlan { arguments += ["-testPlan", testPlan] }
    return arguments + ["-derivedDataPath", derivedData]
  }

  /// The three commands of one step. `targets`: the `-only-testing:` targets, sorted.
  func requests(
    targets: [String], root: String, derivedData: String, resultBundle: String, environment: [String: String?]
  ) -> (build: ProcessRequest, test: ProcessRequest, results: ProcessRequest) {
    let common = common(root: root, derivedData: derivedData)
    let build = ProcessRequest(
      xcodebuildExecutable, ["build-for-testing"] + common + arguments, workingDirectory: root,
      environment: environment)
    let test = ProcessRequest(
      xcodebuildExecutable,
      ["test-without-building"] + common + ["-resultBundlePath", resultBundle] + targets.map { "-only-testing:\($0)" }
        + arguments,
      workingDirectory: root, environment: environment)
    // Xcode 16's JSON; older versions only have `get --legacy --format json` (not read here).
    let results = ProcessRequest(
      xcrunExecutable, ["xcresulttool", "get", "test-results", "tests", "--path", resultBundle, "--compact"],
      workingDirectory: root, environment: environment)
    return (build, test, results)
  }
}
