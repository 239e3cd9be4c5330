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

  /// A passed run, as a possible base for a later one.
  package struct PassedRun: Sendable, Equatable {
    package var id: Int64
    package var branch: String
    package var head: String
    /// What it compared with; nil: it ran every test.
    package var base: String?
    package var selectedTestTargets: Int?

    package init(id: Int64, branch: String, head: String, base: String?, selectedTestTargets: Int?) {
      self.id = id
      self.branch = branch
      self.head = head
      self.base = base
      self.selectedTestTargets = selectedTestTargets
    }
  }

  /// What a run compares with. A run's base is always a strict ancestor of its head, chosen by ancestry, never by
  /// time (a re-run of an old commit, a force push, a run of an older commit must not compare with a descendant,
  /// which would make the diff empty and the run a pass that tested nothing):
  /// - a canary tests everything;
  /// - a re-run (`original`: the run it repeats, when that one recorded its analysis) compares with the original
  ///   run's base, or tests everything when the original did, or when that base is gone from the repository;
  /// - otherwise the newest commit among the head's ancestors whose run passed and proved something, from the
  ///   branch's own passed runs and the primary branch's (a new branch then compares with main, as a pull
  ///   request would); with none, everything.
  ///
  /// A passed run proves its commit only when it tested something (`selectedTestTargets` > 0 with no base) or
  /// compared with a base that is an ancestor of its head: a pass that compared with a descendant tested
  /// nothing and makes no base.
  /// - Parameters:
  ///   - passedRuns: a branch's passed runs, newest first.
  ///   - ancestry: whether the first commit is the second or one of its ancestors; nil when either commit is not
  ///     in the repository (garbage-collected, never fetched).
  package static func base(
    for run: RunRecord, rules: [BranchRule], original: RunRecord? = nil,
    passedRuns: (String) throws -> [PassedRun], ancestry: (String, String) -> Bool?
  ) rethrows -> Base {
    if run.trigger == .canary {
      return .everything(reason: "canary: every test runs, to measure selection misses (docs/DESIGN.md)")
    }
    if let original, original.selectedTestTargets != nil {
      guard let base = original.base else {
        return .everything(reason: "re-run of run \(original.id), which ran every test: every test runs")
      }
      switch ancestry(base, run.head) {
      case nil:
        return .everything(
          reason: "re-run of run \(original.id): its base \(short(base)) is no longer in the repository "
            + "(garbage-collected?): every test runs")
      case true? where base != run.head:
        return .compare(
          base: base, note: "re-run of run \(original.id): comparing with \(short(base)), the base it compared with")
      default:
        break  // A base recorded before bases were chosen by ancestry: choose again.
      }
    }
    var candidates = try passedRuns(run.branch)
    if let primary = primaryBranch(rules), primary != run.branch { candidates += try passedRuns(primary) }
    var best: PassedRun?
    for candidate in candidates
    where candidate.head != run.head && ancestry(candidate.head, run.head) == true && proves(candidate, ancestry) {
      // Newer by ancestry replaces; unrelated lines (a merge of two) keep the first found, the branch's own.
      if let current = best, current.head == candidate.head || ancestry(current.head, candidate.head) != true {
        continue
      }
      best = candidate
    }
    guard let best else {
      return .everything(reason: "no passing run among the ancestors of \(short(run.head)) yet: every test runs")
    }
    let whose = best.branch == run.branch ? "" : " (a commit of \(best.branch): \(run.branch) has none of its own)"
    return .compare(
      base: best.head,
      note: "comparing with \(short(best.head)), the newest ancestor of \(short(run.head)) whose run passed "
        + "(run \(best.id))\(whose)")
  }

  /// Whether a passed run makes its head a base: it tested something, or compared with one of its ancestors.
  static func proves(_ run: PassedRun, _ ancestry: (String, String) -> Bool?) -> Bool {
    guard let base = run.base else { return (run.selectedTestTargets ?? 0) > 0 }
    return base != run.head && ancestry(base, run.head) == true
  }

  static func short(_ commit: String) -> String { String(commit.prefix(10)) }

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
