import Affected
import Foundation
import PackageLoading
import PackageModel
import RippleCore
import XcodeLoading
import XcodeModel

/// `ripple affected --format xcodebuild --scheme NAME [--project PATH] [--write-test-plan PATH]`
/// (docs/DESIGN.md, rule 12 and section 5): the affected test targets a shared scheme tests, as
/// `-only-testing:` arguments, and optionally a copy of its test plan with only those enabled.
public enum XcodebuildJob {
  public struct Answer: Sendable {
    /// `-only-testing:NAME` lines, nothing else on stdout; empty when nothing the scheme tests is selected.
    public var lines: [String]
    /// For stderr: selected test targets the scheme does not test, and "nothing to run".
    public var messages: [String]
    /// The test plan written, when asked and something is selected.
    public var writtenTestPlan: String?
  }

  /// `project` and `writeTestPlan` are as given (relative to `workingDirectory` unless absolute).
  static func run(
    _ outcome: AffectedOutcome, in workspace: Workspace, scheme name: String, project: String?,
    writeTestPlan: String?, workingDirectory: String
  ) throws -> Answer {
    let repository = workspace.repository
    let tree =
      try outcome.changeSet.head.map {
        try Snapshots.commit($0, in: repository, cache: workspace.services.manifestCache)
      }
      ?? Snapshots.workingTree(of: repository, cache: workspace.services.manifestCache)
    let snapshot = XcodeLoader.load(tree, excludePackages: workspace.configuration.selection.excludePackages)
    let container = try chooseContainer(
      project, in: snapshot.containers, root: workspace.root, workingDirectory: workingDirectory)
    let schemePath = container + "/xcshareddata/xcschemes/" + name + ".xcscheme"
    if let failure = snapshot.failures.first(where: { $0.mentions(schemePath) }) { throw failure }
    guard let scheme = snapshot.schemes.first(where: { $0.container == container && $0.name == name }) else {
      let available = snapshot.schemes.filter { $0.container == container }.map(\.name).sorted()
      throw XcodeError.unknownScheme(name: name, container: container, available: available)
    }
    let plan = try defaultPlan(of: scheme, in: snapshot, tree: tree)
    if writeTestPlan != nil, plan == nil { throw XcodeError.noTestPlan(scheme: name) }
    let entries = plan?.targets.filter(\.enabled) ?? scheme.testables.filter(\.enabled)
    let projects = snapshot.projectsByPath
    let tested = entries.map { entry in
      let ref = XcodeGraphMapper.ref(of: entry, projects: projects)
      return TargetRef(package: ref.package, name: ref.name)
    }
    let (lines, untested) = AffectedFormatter.xcodebuild(outcome.report, tested: tested)

    var messages: [String] = []
    if !untested.isEmpty {
      messages.append(
        "warning: \(untested.count) selected test target\(untested.count == 1 ? " is" : "s are") not tested by "
          + "scheme \(name) (skipped, disabled or not listed there): \(untested.joined(separator: ", "))")
    }
    guard !lines.isEmpty else {
      messages.append(
        "no test target of scheme \(name) is affected; nothing to run (skip xcodebuild: "
          + "it fails with no test enabled)" + (writeTestPlan == nil ? "" : "; no test plan written"))
      return Answer(lines: [], messages: messages, writtenTestPlan: nil)
    }
    var written: String?
    if let writeTestPlan {
      guard let plan, let reference = scheme.defaultTestPlan else { throw XcodeError.noTestPlan(scheme: name) }
      let keep = Set(lines.map { String($0.dropFirst("-only-testing:".count)) })
      let bytes = try XcodeLoader.read(reference.path, in: tree) {
        .malformedTestPlan(path: $0, revision: tree.label, reason: $1)
      }
      let copy = try TestPlanFile.rewrite(
        bytes, path: plan.path, base: XcodeScheme.referenceBase(ofContainer: container), revision: tree.label
      ) { entry in
        entry.enabled && keep.contains(XcodeGraphMapper.ref(of: entry, projects: projects).name)
      }
      let target = absolute(writeTestPlan, in: workingDirectory)
      do {
        try Data(copy).write(to: URL(fileURLWithPath: target), options: .atomic)
      } catch {
        throw XcodeError.cannotWriteTestPlan(path: writeTestPlan, reason: error.localizedDescription)
      }
      written = writeTestPlan
    }
    return Answer(lines: lines, messages: messages, writtenTestPlan: written)
  }

  /// `--project` (a project or workspace of the repository), else the only one there is.
  static func chooseContainer(
    _ project: String?, in containers: [String], root: String, workingDirectory: String
  ) throws(XcodeError) -> String {
    guard !containers.isEmpty else { throw .noProject }
    guard let project else {
      guard containers.count == 1 else { throw .ambiguousProject(containers) }
      return containers[0]
    }
    let full = URL(fileURLWithPath: absolute(project, in: workingDirectory)).standardizedFileURL.path
    let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
    let relative =
      full.hasPrefix(rootPath + "/") ? RepoPath.normalize(String(full.dropFirst(rootPath.count + 1))) : full
    guard containers.contains(relative) else { throw .unknownProject(path: project, available: containers) }
    return relative
  }

  /// The scheme's default test plan, nil when it has none; a plan it names that is missing or unreadable
  /// is an error (xcodebuild would fail on it too).
  private static func defaultPlan(of scheme: XcodeScheme, in snapshot: XcodeSnapshot, tree: TreeSnapshot)
    throws -> XcodeTestPlan?
  {
    guard let reference = scheme.defaultTestPlan else { return nil }
    if let plan = snapshot.testPlans[reference.path] { return plan }
    if let failure = snapshot.failures.first(where: { $0.mentions(reference.path) }) { throw failure }
    throw XcodeError.malformedTestPlan(
      path: reference.path, revision: tree.label, reason: "the scheme \(scheme.name) names it, but the file is missing")
  }

  private static func absolute(_ path: String, in directory: String) -> String {
    path.hasPrefix("/") ? path : directory + "/" + path
  }
}

extension XcodeError {
  /// Whether this error is about the file at `path`.
  func mentions(_ path: String) -> Bool {
    switch self {
    case .malformedScheme(let p, _, _), .malformedTestPlan(let p, _, _): p == path
    default: false
    }
  }
}

extension Workspace {
  /// `ripple affected --format xcodebuild`: the `-only-testing:` lines of `outcome` for a shared scheme.
  public func xcodebuildTests(
    _ outcome: AffectedOutcome, scheme: String, project: String?, writeTestPlan: String?, workingDirectory: String
  ) throws -> XcodebuildJob.Answer {
    try XcodebuildJob.run(
      outcome, in: self, scheme: scheme, project: project, writeTestPlan: writeTestPlan,
      workingDirectory: workingDirectory)
  }
}
