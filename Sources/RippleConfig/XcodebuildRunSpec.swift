/// How a `runner: xcodebuild` test run calls xcodebuild (docs/DESIGN.md, "Test runs"): a shared scheme of a
/// project or workspace, tested on one destination.
///
/// ```yaml
/// test:
///   runs:
///     - name: ios
///       runner: xcodebuild
///       project: App/MyApp.xcodeproj      # or workspace: App.xcworkspace; neither: the only one there is
///       scheme: MyApp
///       destination: "platform=iOS Simulator,name=iPhone 16"
///       configuration: Debug              # optional
///       testPlan: MyApp                   # optional
///       arguments: [-parallel-testing-enabled, "NO"]
/// ```
///
/// The test runner takes it as it is (`TestRunContext.xcodebuild`) and adds only the paths of a step
/// (`XcodebuildCommands` in TestRunner).
public struct XcodebuildRunSpec: Sendable, Codable, Hashable {
  public var scheme: String
  /// A repo-relative `.xcodeproj` (`-project`).
  public var project: String?
  /// A repo-relative `.xcworkspace` (`-workspace`).
  public var workspace: String?
  /// `-destination`, as xcodebuild takes it.
  public var destination: String
  public var configuration: String?
  public var testPlan: String?
  /// Given to both xcodebuild commands, after Ripple's own.
  public var arguments: [String]
  /// Where the run is declared, for errors about it (an unknown scheme).
  public var location: ConfigLocation?

  public init(
    scheme: String, project: String? = nil, workspace: String? = nil, destination: String,
    configuration: String? = nil, testPlan: String? = nil, arguments: [String] = [], location: ConfigLocation? = nil
  ) {
    self.scheme = scheme
    self.project = project
    self.workspace = workspace
    self.destination = destination
    self.configuration = configuration
    self.testPlan = testPlan
    self.arguments = arguments
    self.location = location
  }

  /// The container it names, if any.
  public var container: String? { workspace ?? project }
}
