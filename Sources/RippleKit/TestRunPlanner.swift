import PackageModel
import RippleConfig
import RippleCore
import TestRunner

/// Puts each selected test target into the first test run, for this host's platform, whose graph contains
/// it (docs/DESIGN.md, "Test runs"). Pure.
///
/// A target that no run here can test is returned in `notRunHere` with the reason, never dropped. With one
/// run and no variables (every repository without `test.runs` and with one manifest environment) the
/// selection comes back unchanged: no run context, the package's usual `.build`.
public enum TestRunPlanner {
  public struct Plan: Sendable, Hashable {
    public var selection: TestSelection
    public var notRunHere: [NotRunTarget]
  }

  /// - Parameters:
  ///   - graph: the graph the selection was taken from (nil when none evaluated: every package goes to the
  ///     first run here, unfiltered as selected).
  ///   - environments: the environments the graph was evaluated in (`RippleConfiguration.graphEnvironments`);
  ///     a target's `environments` are indices into it.
  public static func plan(
    _ selection: TestSelection, graph: PackageGraph?, runs: [TestRunSpec], environments: [[String: String]],
    host: Platform
  ) -> Plan {
    let here = runs.filter { $0.runs(on: host) }
    if runs.count == 1, runs[0].environment.isEmpty, environments.count <= 1, !here.isEmpty {
      return Plan(selection: selection, notRunHere: [])
    }
    let contexts = Dictionary(
      uniqueKeysWithValues: here.enumerated().map { ($1.name, context(for: $1, order: $0, all: runs)) })
    func index(of run: TestRunSpec) -> Int? { environments.firstIndex(of: run.environment) }

    var byRun: [String: [PackageSelection]] = [:]
    var notRunHere: [NotRunTarget] = []
    for var package in selection.packages {
      let targets = graph?.package(at: package.path)
      if package.runAll, let targets {
        // `--all` with several runs: every test target by name, so each goes to its own run.
        package = PackageSelection(path: package.path, testTargets: targets.targets.filter(\.kind.isTest).map(\.name))
      }
      if package.runAll || targets == nil {
        // Nothing known per target (no graph, or a package that did not evaluate): the first run here.
        guard let first = here.first else {
          notRunHere.append(
            NotRunTarget(
              package: package.path,
              name: package.runAll ? "(every test target)" : package.testTargets.joined(separator: ", "),
              reason: "no test run is for \(host.rawValue)", platform: host.rawValue))
          continue
        }
        var copy = package
        copy.run = contexts[first.name]
        byRun[first.name, default: []].append(copy)
        continue
      }
      var assigned: [String: [String]] = [:]
      for name in package.testTargets {
        let target = targets?.target(named: name)
        let owner = here.first { run in
          guard let environment = index(of: run) else { return false }
          return target?.exists(inEnvironment: environment) ?? true
        }
        if let owner {
          assigned[owner.name, default: []].append(name)
        } else {
          let reason = Self.reason(target: target, runs: runs, environments: environments, host: host)
          notRunHere.append(NotRunTarget(package: package.path, name: name, reason: reason, platform: host.rawValue))
        }
      }
      for run in here {
        guard let names = assigned[run.name] else { continue }
        byRun[run.name, default: []].append(
          PackageSelection(
            path: package.path, testTargets: names, run: contexts[run.name],
            suites: package.suites.filter { names.contains($0.key) }))
      }
    }
    let packages = here.flatMap { byRun[$0.name] ?? [] }
    return Plan(selection: TestSelection(packages: packages), notRunHere: notRunHere)
  }

  /// The environment a run's commands see: its variables set, every variable another run sets removed (so
  /// one exported in the user's shell does not leak in). The first run here keeps the usual build folder.
  static func context(for run: TestRunSpec, order: Int, all runs: [TestRunSpec]) -> TestRunContext {
    var environment: [String: String?] = [:]
    for other in runs { for name in other.environment.keys { environment[name] = .some(nil) } }
    for (name, value) in run.environment { environment[name] = value }
    return TestRunContext(
      name: run.name, environment: environment, scratchFolder: order == 0 ? nil : PathComponent.escaped(run.name))
  }

  /// "exists only in run `client`, platforms: macos", or why no run has it at all.
  static func reason(target: Target?, runs: [TestRunSpec], environments: [[String: String]], host: Platform) -> String {
    let having = runs.filter { run in
      guard let index = environments.firstIndex(of: run.environment) else { return false }
      return target?.exists(inEnvironment: index) ?? true
    }
    if having.isEmpty {
      let where_ = (target?.environments ?? []).filter(environments.indices.contains)
        .map { TestConfig.name(of: environments[$0]) }.joined(separator: ", ")
      return "exists only in manifest environment \(where_.isEmpty ? "(none)" : where_), which no test run uses"
    }
    return having.map { run in
      "exists only in run `\(run.name)`, platforms: \(run.platforms.map(\.rawValue).joined(separator: ", "))"
    }.joined(separator: "; ")
  }
}
