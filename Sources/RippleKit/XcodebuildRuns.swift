import Affected
import PackageLoading
import PackageModel
import RippleConfig
import RippleCore
import TestRunner
import XcodeLoading
import XcodeModel

/// A `runner: xcodebuild` run of ripple.yml that does not fit the repository (an unknown scheme, project
/// or test plan): the Xcode error, with the run and where it is declared.
public struct XcodebuildRunError: RippleError {
  public var run: String
  public var location: ConfigLocation?
  public var error: XcodeError

  public var category: ErrorCategory { error.category }

  public var description: String {
    let place = location.map { " (\($0.file)\($0.line.map { ":\($0)" } ?? ""))" } ?? ""
    return "test run `\(run)`\(place): \(error.description)"
  }
}

extension Workspace {
  /// The selected Xcode test targets of `outcome`, planned into the `runner: xcodebuild` runs of
  /// `test.runs` (docs/DESIGN.md, "Test runs"). The schemes are read from the head side (the working tree
  /// unless a head commit was asked for); a run whose scheme, container or test plan is not there is an
  /// error naming the run, also on a host where it would not run.
  func xcodebuildPlan(_ outcome: AffectedOutcome, host: Platform) throws -> TestRunPlanner.Plan {
    let targets = outcome.report.testTargets.filter { XcodeGraphs.isProject($0.package, in: outcome.headGraph) }
      .map { TargetRef(package: $0.package, name: $0.name) }
    let specs = configuration.testRuns.filter { $0.runner == .xcodebuild }
    guard !targets.isEmpty else { return TestRunPlanner.Plan(selection: TestSelection(packages: []), notRunHere: []) }
    var runs: [XcodebuildRunPlanner.Run] = []
    if !specs.isEmpty {
      let tree =
        try outcome.changeSet.head.map { try Snapshots.commit($0, in: repository, cache: services.manifestCache) }
        ?? Snapshots.workingTree(of: repository, cache: services.manifestCache)
      let snapshot = XcodeLoader.load(tree, excludePackages: configuration.selection.excludePackages)
      for spec in specs {
        do {
          runs.append(XcodebuildRunPlanner.Run(spec: spec, tested: try tested(by: spec, in: snapshot, tree: tree)))
        } catch {
          throw XcodebuildRunError(run: spec.name, location: spec.xcodebuild?.location, error: error)
        }
      }
    }
    return XcodebuildRunPlanner.plan(targets, runs: runs, all: configuration.testRuns, host: host)
  }

  /// The test targets an xcodebuild run's scheme tests: its `testPlan`, else its default plan, else its
  /// testables.
  private func tested(by spec: TestRunSpec, in snapshot: XcodeSnapshot, tree: TreeSnapshot) throws(XcodeError)
    -> Set<TargetRef>
  {
    guard let xcodebuild = spec.xcodebuild else { return [] }
    let container = try XcodebuildJob.chooseContainer(
      xcodebuild.container, in: snapshot.containers, root: root, workingDirectory: root)
    let schemePath = container + "/xcshareddata/xcschemes/" + xcodebuild.scheme + ".xcscheme"
    if let failure = snapshot.failures.first(where: { $0.mentions(schemePath) }) { throw failure }
    guard let scheme = snapshot.schemes.first(where: { $0.container == container && $0.name == xcodebuild.scheme })
    else {
      let available = snapshot.schemes.filter { $0.container == container }.map(\.name).sorted()
      throw .unknownScheme(name: xcodebuild.scheme, container: container, available: available)
    }
    let entries: [TestEntry]
    if let name = xcodebuild.testPlan {
      guard let reference = scheme.testPlans.first(where: { Self.planName($0.path) == name }) else {
        throw .malformedTestPlan(
          path: name + ".xctestplan", revision: tree.label,
          reason: "the scheme \(scheme.name) has no test plan named \(name); it has: "
            + (scheme.testPlans.map { Self.planName($0.path) }.joined(separator: ", ").nonEmpty ?? "none"))
      }
      guard let plan = snapshot.testPlans[reference.path] else {
        throw snapshot.failures.first { $0.mentions(reference.path) }
          ?? .malformedTestPlan(path: reference.path, revision: tree.label, reason: "the file is missing")
      }
      entries = plan.targets.filter(\.enabled)
    } else {
      guard let tested = scheme.testedTargets(plans: snapshot.testPlans) else {
        let path = scheme.defaultTestPlan?.path ?? schemePath
        throw snapshot.failures.first { $0.mentions(path) }
          ?? .malformedTestPlan(
            path: path, revision: tree.label, reason: "the scheme \(scheme.name) names it, but the file is missing")
      }
      entries = tested
    }
    let projects = snapshot.projectsByPath
    return Set(
      entries.map { entry in
        let ref = XcodeGraphMapper.ref(of: entry, projects: projects)
        return TargetRef(package: ref.package, name: ref.name)
      })
  }

  private static func planName(_ path: String) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    return file.hasSuffix(".xctestplan") ? String(file.dropLast(".xctestplan".count)) : file
  }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
