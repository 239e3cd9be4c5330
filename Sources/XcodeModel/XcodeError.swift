import RippleCore

/// Every failure of reading Xcode projects, schemes and test plans, or of choosing one for
/// `ripple affected --format xcodebuild` (docs/DESIGN.md, rule 12).
public enum XcodeError: RippleError, Equatable {
  /// `project.pbxproj` is missing, truncated or not an old-style property list Ripple can read.
  case malformedProject(path: String, revision: String, reason: String)
  /// An object of `project.pbxproj` names an object the file does not hold (a group's child, a build file).
  case missingObject(path: String, revision: String, id: String, referencedBy: String)
  /// A shared scheme that is not XML Ripple can read.
  case malformedScheme(path: String, revision: String, reason: String)
  /// A workspace's `contents.xcworkspacedata` that is not XML Ripple can read.
  case malformedWorkspace(path: String, revision: String, reason: String)
  /// A test plan that is missing or not JSON Ripple can read.
  case malformedTestPlan(path: String, revision: String, reason: String)
  /// `--scheme NAME` names no shared scheme of the project.
  case unknownScheme(name: String, container: String, available: [String])
  /// Several projects or workspaces and no `--project`.
  case ambiguousProject([String])
  /// `--project PATH` is not a project or workspace of the repository.
  case unknownProject(path: String, available: [String])
  /// `--format xcodebuild` in a repository without an Xcode project.
  case noProject
  /// `--write-test-plan` with a scheme that uses no test plan.
  case noTestPlan(scheme: String)
  /// The rewritten test plan could not be written.
  case cannotWriteTestPlan(path: String, reason: String)
  /// Several projects failed (each error in path order).
  indirect case several([XcodeError])

  public var category: ErrorCategory {
    switch self {
    case .malformedProject, .missingObject, .malformedScheme, .malformedWorkspace, .malformedTestPlan,
      .cannotWriteTestPlan:
      .environment
    case .unknownScheme, .ambiguousProject, .unknownProject, .noProject, .noTestPlan: .usage
    case .several(let errors): errors.contains { $0.category == .usage } ? .usage : .environment
    }
  }

  public var description: String {
    switch self {
    case .malformedProject(let path, let revision, let reason):
      "The Xcode project file `\(path)` at \(revision) cannot be read (\(reason)); open the project in Xcode "
        + "to repair it, or leave it out with `excludePackages` in ripple.yml (`--fallback all` runs every test "
        + "meanwhile)."
    case .missingObject(let path, let revision, let id, let referencedBy):
      "The Xcode project file `\(path)` at \(revision) refers to object \(id) (from \(referencedBy)), which it "
        + "does not contain; the file is damaged (a bad merge?): open the project in Xcode to repair it."
    case .malformedScheme(let path, let revision, let reason):
      "The shared scheme `\(path)` at \(revision) cannot be read (\(reason)); open it in Xcode to repair it."
    case .malformedWorkspace(let path, let revision, let reason):
      "The workspace file `\(path)` at \(revision) cannot be read (\(reason)); open the workspace in Xcode to repair it."
    case .malformedTestPlan(let path, let revision, let reason):
      "The test plan `\(path)` at \(revision) cannot be read (\(reason)); open it in Xcode to repair it."
    case .unknownScheme(let name, let container, let available):
      "`\(container)` has no shared scheme named `\(name)`; "
        + (available.isEmpty
          ? "it has no shared scheme at all (share one in Xcode: Manage Schemes, Shared)."
          : "its shared schemes are: \(available.joined(separator: ", ")).")
    case .ambiguousProject(let paths):
      "The repository has several Xcode projects or workspaces (\(paths.joined(separator: ", "))); "
        + "choose one with --project PATH."
    case .unknownProject(let path, let available):
      "`\(path)` is not an Xcode project or workspace of the repository; "
        + (available.isEmpty ? "it has none." : "it has: \(available.joined(separator: ", ")).")
    case .noProject:
      "--format xcodebuild needs an Xcode project (`*.xcodeproj`) or workspace in the repository, and it has none."
    case .noTestPlan(let scheme):
      "The scheme `\(scheme)` uses no test plan, so --write-test-plan has nothing to copy; use the "
        + "-only-testing lines instead, or convert the scheme to a test plan in Xcode."
    case .cannotWriteTestPlan(let path, let reason):
      "Could not write the test plan `\(path)` (\(reason)); check that its folder exists and is writable."
    case .several(let errors):
      "\(errors.count) Xcode projects cannot be read:\n"
        + errors.map { "- " + $0.description.replacingOccurrences(of: "\n", with: "\n  ") }.joined(separator: "\n")
    }
  }

  /// Nil for no failure, the error itself for one, `.several` for more.
  public static func combining(_ errors: [XcodeError]) -> XcodeError? {
    errors.count <= 1 ? errors.first : .several(errors)
  }
}
