import PackageModel
import RippleConfig
import TestRunner

/// Puts each selected Xcode test target into the first `runner: xcodebuild` run whose scheme tests it
/// (docs/DESIGN.md, "Test runs"). Pure. A target tested by a run that is not for this host (xcodebuild runs
/// only on macOS), or by no run's scheme, is returned in `notRunHere` with the reason, never dropped.
public enum XcodebuildRunPlanner {
  /// An xcodebuild run with what its scheme tests.
  public struct Run: Sendable, Hashable {
    public var spec: TestRunSpec
    /// The Xcode test targets its scheme (or its `testPlan`) tests, enabled ones only.
    public var tested: Set<TargetRef>

    public init(spec: TestRunSpec, tested: Set<TargetRef>) {
      self.spec = spec
      self.tested = tested
    }
  }

  /// - Parameters:
  ///   - targets: the selected test targets of Xcode projects.
  ///   - all: every run of `test.runs`, for the variables a run's commands must not inherit.
  public static func plan(_ targets: [TargetRef], runs: [Run], all: [TestRunSpec], host: Platform)
    -> TestRunPlanner.Plan
  {
    var assigned: [String: [String: [String]]] = [:]  // run → project → targets
    var notRunHere: [NotRunTarget] = []
    for target in targets.sorted() {
      guard let run = runs.first(where: { $0.tested.contains(target) }) else {
        notRunHere.append(
          NotRunTarget(
            package: target.package, name: target.name, reason: reasonUntested(runs), platform: host.rawValue))
        continue
      }
      guard run.spec.runs(on: host) else {
        let platforms = run.spec.platforms.map(\.rawValue).joined(separator: ", ")
        notRunHere.append(
          NotRunTarget(
            package: target.package, name: target.name,
            reason: "tested by the xcodebuild run `\(run.spec.name)` (scheme \(run.spec.xcodebuild?.scheme ?? "?")), "
              + "platforms: \(platforms)",
            platform: host.rawValue))
        continue
      }
      assigned[run.spec.name, default: [:]][target.package, default: []].append(target.name)
    }
    var packages: [PackageSelection] = []
    for run in runs {
      guard let projects = assigned[run.spec.name], let spec = run.spec.xcodebuild else { continue }
      var context = TestRunPlanner.context(for: run.spec, order: 1, all: all)
      context.xcodebuild = spec
      for project in projects.keys.sorted() {
        packages.append(PackageSelection(path: project, testTargets: projects[project]!.sorted(), run: context))
      }
    }
    return TestRunPlanner.Plan(selection: TestSelection(packages: packages), notRunHere: notRunHere)
  }

  private static func reasonUntested(_ runs: [Run]) -> String {
    guard !runs.isEmpty else {
      return "an Xcode test bundle and no `runner: xcodebuild` run in test.runs: add one, or run it with "
        + "xcodebuild and `ripple affected --format xcodebuild --scheme NAME`"
    }
    let schemes = runs.map { "`\($0.spec.name)`: scheme \($0.spec.xcodebuild?.scheme ?? "?")" }
    return "not tested by the scheme of any xcodebuild run (" + schemes.joined(separator: "; ") + ")"
  }
}
