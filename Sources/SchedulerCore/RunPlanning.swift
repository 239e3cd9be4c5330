import Affected
import PackageModel
import RippleConfig
import RunModel

/// How a run's own work ended (the scheduler adds why a cancelled run stopped).
package enum RunOutcome: Sendable, Equatable {
  case passed(String?)
  case failed(String)
  /// Ripple could not do its part (git, manifests, bootstrap): not the code's fault.
  case error(String)
  /// The task was cancelled before or while tests ran.
  case cancelled
  /// Like `error`, but for want of a resource of the daemon's own (file descriptors): worth trying again later.
  case retryLater(String)
}

/// Why a running run was stopped from outside.
package enum RunStopCause: Sendable, Equatable {
  case superseded(by: Int64)
  /// The run outlasted the limit that applies to it (`RunTimeLimit`).
  case timedOut(RunTimeLimit)
  case shutdown
  case cancelledByUser
}

/// The executor's and the scheduler's decisions that need no I/O: what a run compares with, what its analysis
/// records, and what its ending is recorded as.
package enum RunPlanning {
  /// What a run of a remote branch is compared with.
  package enum Base: Sendable, Equatable {
    /// Compare with the commit `base`; `note` says which one and why (a line of the run's log).
    case compare(base: String, note: String)
    /// No base: every test runs, for `reason`.
    case everything(reason: String)
  }

  /// A canary tests everything; otherwise the branch's last passing commit, else (a new branch) the primary
  /// branch's last passing commit, as a pull request would; only when there is none, everything.
  /// `lastPassedHead(branch)`: the head of that branch's last passing run.
  package static func base(
    for run: RunRecord, rules: [BranchRule], lastPassedHead: (String) throws -> String?
  ) rethrows -> Base {
    if run.trigger == .canary {
      return .everything(reason: "canary: every test runs, to measure selection misses (docs/DESIGN.md)")
    }
    if let base = try lastPassedHead(run.branch) {
      return .compare(
        base: base,
        note: "comparing with \(String(base.prefix(10))), the last commit of \(run.branch) whose run passed")
    }
    if let primary = primaryBranch(rules), primary != run.branch, let base = try lastPassedHead(primary) {
      return .compare(
        base: base,
        note:
          "first run of \(run.branch): comparing with \(String(base.prefix(10))), the last passing commit of \(primary)"
      )
    }
    return .everything(reason: "no passing run of \(run.branch) yet: every test runs")
  }

  /// The first followed branch named without wildcards (`main` in `[main, "feature/*"]`).
  package static func primaryBranch(_ rules: [BranchRule]) -> String? {
    rules.first { !$0.pattern.contains(where: { "*?[{".contains($0) }) }?.pattern
  }

  /// The affected report as the store keeps it; `headGraph` gives the total and the edges among the targets.
  package static func analysis(of report: AffectedReport, base: String, headGraph: PackageGraph?) -> RunAnalysis {
    let tests = Set(report.testTargets.map(\.ref))
    var targets = report.targets.map {
      RunTarget(package: $0.package, name: $0.name, kind: $0.kind, isTest: tests.contains($0.ref), reasons: $0.reasons)
    }
    let known = Set(report.targets.map(\.ref))
    for test in report.testTargets where !known.contains(test.ref) {
      targets.append(
        RunTarget(package: test.package, name: test.name, kind: "test", isTest: true, reasons: test.reasons))
    }
    let total = headGraph?.testTargets.count ?? report.testTargets.count
    return RunAnalysis(
      base: base, changedFiles: report.changedFiles.map(\.path),
      runAllReasons: report.runAllReasons, warnings: report.warnings, targets: targets,
      edges: headGraph.map { edges(in: $0, among: targets) } ?? [],
      selectedTestTargets: report.testTargets.count, totalTestTargets: total)
  }

  /// Every test target of `graph`, each for `reason`.
  package static func everything(in graph: PackageGraph, reason: String) -> RunAnalysis {
    let targets = AffectedResult.everything(in: graph, reasons: [reason]).testTargets.map {
      RunTarget(package: $0.package, name: $0.name, kind: $0.kind.rawValue, isTest: true, reasons: $0.reasons)
    }
    return RunAnalysis(
      base: nil, changedFiles: [], runAllReasons: [reason], targets: targets, edges: [],
      selectedTestTargets: targets.count, totalTestTargets: targets.count)
  }

  static func edges(in graph: PackageGraph, among targets: [RunTarget]) -> [RunEdge] {
    let refs = Set(targets.map { TargetRef(package: $0.package, name: $0.name) })
    return AffectedFormatter.dependencyEdges(in: graph, among: refs).map {
      RunEdge(from: $0.dependent.description, to: $0.dependency.description)
    }
  }

  /// What the store records for a run that ended: a cause from outside wins over what the work itself says.
  package static func ending(cause: RunStopCause?, outcome: RunOutcome) -> (state: RunState, reason: String?) {
    switch (cause, outcome) {
    case (.superseded(let by), _): (.superseded, "superseded by run \(by) while it ran")
    case (.timedOut(let limit), _): (.error, limit.reason)
    case (.shutdown, _): (.interrupted, "the daemon stopped before the run finished (grace period over)")
    case (.cancelledByUser, _): (.cancelled, "cancelled through the API")
    case (nil, .passed(let note)): (.passed, note)
    case (nil, .failed(let message)): (.failed, message)
    case (nil, .error(let message)): (.error, message)
    case (nil, .retryLater(let message)): (.error, message)
    case (nil, .cancelled): (.interrupted, "stopped without a recorded cause")
    }
  }
}
