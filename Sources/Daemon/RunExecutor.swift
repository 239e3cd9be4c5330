import Coverage
import DaemonSources
import DaemonSupport
import Foundation
import Git
import PackageModel
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import RunStore
import SchedulerCore
import SystemClients
import TestRunner

struct RunSetupError: RippleError {
  var description: String
  var category: ErrorCategory { .environment }
}

/// Does one run: private work tree at the right state, bootstrap when the asset manifest changed, the
/// affected analysis against the right base, the selected tests, and everything recorded in the store.
struct RunExecutor: Sendable {
  var paths: DaemonPaths
  var store: RunStore
  var services: RippleServices
  /// Per watched working tree (by repository name): what changed since the last sync.
  var dirtyPaths: [String: DirtyPaths] = [:]
  /// The sandbox and cache layer of each run (nil: neither).
  var isolation: RunIsolation? = nil
  /// Pass records of rippled's own runs (`records:` in rippled.yml); nil: none.
  var passRecords: DaemonPassRecords? = nil

  /// Runs in its lane's private TMPDIR (the same path in every run of the lane, removed afterwards), recording
  /// the process groups of its children while they run so a restart after `kill -9` can stop them.
  /// `repositoryTimeLimit` is told the repository's own `daemon.runTimeout` (its `ripple.yml`, when it sets one)
  /// once the work tree is read, and awaited before anything else runs: the scheduler enforces the shorter of it
  /// and `rippled.yml`'s (`RunTimeLimit`); the executor itself keeps no deadline, and a stopped run is
  /// `.cancelled` here, whatever stopped it.
  func execute(
    _ run: RunRecord, settings: RepositorySettings, logFile: RunLogFile?,
    repositoryTimeLimit: @escaping @Sendable (Duration) async -> Void = { _ in }
  ) async -> RunOutcome {
    let temporary = paths.temporaryDirectory(run.repository, lane: run.branch)
    defer {
      RunTemporaryDirectory.remove(temporary)
      try? store.forgetProcessGroups(run: run.id)
    }
    do {
      try RunTemporaryDirectory.create(temporary)
    } catch {
      let message = "cannot create the run's temporary folder \(temporary): \(error.localizedDescription)"
      logFile?.line("error: \(message)")
      return .error(message)
    }
    let store = store
    let observer = ProcessGroupObserver(
      started: { pgid in try? store.recordProcessGroup(pgid, run: run.id) },
      ended: { pgid in try? store.forgetProcessGroups(run: run.id, pgid: pgid) })
    return await ProcessClient.$groupObserver.withValue(observer) {
      await executeHere(
        run, settings: settings, temporary: temporary, logFile: logFile, repositoryTimeLimit: repositoryTimeLimit)
    }
  }

  /// This executor with the run's services: sandboxed (`isolation`) and given the run's TMPDIR.
  private func isolated(
    _ run: RunRecord, settings: RepositorySettings, temporary: String, say: @escaping @Sendable (String) -> Void
  ) -> RunExecutor {
    var executor = self
    executor.services = isolation?.apply(to: services, run: run, settings: settings, say: say) ?? services
    executor.services.process = executor.services.process.adding(environment: ["TMPDIR": temporary])
    executor.services.environment["TMPDIR"] = temporary
    return executor
  }

  private func executeHere(
    _ run: RunRecord, settings: RepositorySettings, temporary: String, logFile: RunLogFile?,
    repositoryTimeLimit: @Sendable (Duration) async -> Void
  ) async -> RunOutcome {
    let say: @Sendable (String) -> Void = { logFile?.line($0) }
    do {
      let prepared = try await prepare(run, settings: settings, say: say)
      try Task.checkCancellation()
      // Isolated only now: the sandbox's rules name what exists, and a branch's first checkout has just made
      // its work tree's `.git`, which must be read-only from the first run on.
      return try await isolated(run, settings: settings, temporary: temporary, say: say).test(
        run, prepared: prepared, settings: settings, say: say, repositoryTimeLimit: repositoryTimeLimit)
    } catch is CancellationError {
      return .cancelled
    } catch {
      if Task.isCancelled { return .cancelled }
      let message = (error as? any RippleError)?.description ?? "\(error)"
      say("error: \(message)")
      return DescriptorHeadroom.isShortage(error) ? .retryLater(message) : .error(message)
    }
  }

  /// The work tree at the run's head, and what to compare it with.
  struct Prepared: Sendable {
    /// The private work tree, already open: the workspace is made from it, not discovered again.
    var repository: GitRepository
    var root: String
    var lane: String
    var change: ChangeRequest?
    /// Why every test runs (no base to compare with).
    var everythingReason: String?
    /// Which base and why (`RunPlanning.base`), for the run page.
    var baseNote: String?
  }

  private func prepare(_ run: RunRecord, settings: RepositorySettings, say: @Sendable (String) -> Void) async throws
    -> Prepared
  {
    switch settings.source {
    case .remote:
      let mirror = try GitRepository.open(at: paths.mirror(run.repository))
      let root = paths.worktree(
        run.repository, lane: run.branch,
        checkoutName: DaemonPaths.checkoutName(of: settings.source, repository: run.repository))
      let work = try GitRepository.openOrCreateWorktree(at: root, objectsOf: mirror)
      let head = ObjectID(hex: run.head)
      do {
        try work.checkOut(head)
      } catch GitError.missingCommit {
        // A re-run of a commit force-pushed away and collected: an error, never a run that tests nothing.
        throw RunSetupError(
          description: "commit \(head.short) of \(run.branch) is no longer in the mirror of \(run.repository) "
            + "(force-pushed away and garbage-collected?): there is nothing to test")
      }
      say("checked out \(head.short) of \(run.branch) in \(root)")
      let base = try Self.base(of: run, in: work, store: store, rules: settings.branches)
      switch base {
      case .compare(let base, let note):
        say(note)
        return Prepared(
          repository: work, root: root, lane: run.branch, change: ChangeRequest(base: base, head: run.head),
          baseNote: note)
      case .everything(let reason):
        say(reason)
        return Prepared(
          repository: work, root: root, lane: run.branch, change: nil, everythingReason: reason, baseNote: reason)
      }
    case .workingTree(let path):
      let developer = try GitRepository.discover(from: path)
      let root = paths.worktree(
        run.repository, lane: "worktree",
        checkoutName: DaemonPaths.checkoutName(of: settings.source, repository: run.repository))
      let dirty = dirtyPaths[run.repository]
      let copy =
        try dirty?.copy(at: root, objectsOf: developer)
        ?? GitRepository.openOrCreateWorktree(at: root, objectsOf: developer)
      let (synced, delta) = try WorktreeSync.prepare(from: developer, to: copy, dirty: dirty)
      let head = delta.head
      say(
        "synced the working tree of \(path) into \(root) (\(synced.full ? "full" : "changed paths"): "
          + "\(synced.copied) copied, \(synced.removed) removed)")
      // The developer's default branch decides the base, as `ripple test` would in that checkout.
      let base: ObjectID
      if let defaultBranch = try? developer.defaultBranch() {
        base = try developer.mergeBase(defaultBranch.commit, head)
      } else {
        base = head
      }
      return Prepared(
        repository: copy, root: root, lane: "worktree",
        change: ChangeRequest(
          base: base.hex, head: nil, noMergeBase: true, knownChanges: try delta.changes(from: base, in: copy)),
        baseNote: "comparing with \(base.short), the merge-base of HEAD and the default branch of \(path)")
    }
  }

  /// What a run of a remote branch compares with (`RunPlanning.base`): the store's passed runs and the original
  /// of a re-run, ancestry from the work tree's objects (the mirror's).
  static func base(of run: RunRecord, in work: GitRepository, store: RunStore, rules: [BranchRule]) throws
    -> RunPlanning.Base
  {
    let original = try run.retryOf.flatMap { try store.run($0) }
    return try RunPlanning.base(
      for: run, rules: rules, original: original,
      passedRuns: { branch in
        try store.passedRuns(repository: run.repository, branch: branch).map {
          RunPlanning.PassedRun(
            id: $0.id, branch: $0.branch, head: $0.head, base: $0.base, selectedTestTargets: $0.selectedTestTargets)
        }
      },
      ancestry: { ancestor, commit in
        let isObjectName = { (text: String) in text.count == 40 && text.allSatisfy(\.isHexDigit) }
        guard isObjectName(ancestor), isObjectName(commit) else { return nil }
        return try? work.isAncestor(ObjectID(hex: ancestor), of: ObjectID(hex: commit))
      })
  }

  private func test(
    _ run: RunRecord, prepared: Prepared, settings: RepositorySettings, say: @escaping @Sendable (String) -> Void,
    repositoryTimeLimit: @Sendable (Duration) async -> Void
  ) async throws -> RunOutcome {
    let workspace = try Workspace.open(repository: prepared.repository, services: services)
    if isolation != nil, let problem = RunIsolation.ownedVariableProblem(workspace.configuration) {
      throw RunSetupError(description: problem)
    }
    if let limit = workspace.configuration.daemon.runTimeout {
      say("ripple.yml sets daemon.runTimeout: \(limit) (the shorter of it and rippled.yml's runTimeout applies)")
      await repositoryTimeLimit(limit)
      try Task.checkCancellation()
    }
    try await bootstrapIfNeeded(workspace, settings: settings, say: say)
    try Task.checkCancellation()

    // The repository's own ripple.yml (`daemon:`) may override rippled.yml's settings for it.
    let effective = settings.applying(workspace.configuration.daemon)
    // `fallbackAll`: a manifest that does not evaluate on one side still gives a run (every test of the
    // other side's graph, whose build then shows the error) instead of no run at all.
    var request = TestRequest(
      scope: prepared.change.map { .affected(AffectedRequest(changes: $0, fallbackAll: true)) } ?? .everything,
      scratchPath: paths.scratch(run.repository, lane: prepared.lane), timingsPath: paths.timings(run.repository),
      extraArguments: effective.testArguments)
    // The run's TMPDIR is its lane's and no other run uses it meanwhile: the same children's TMPDIR every run.
    request.runFolderName = "ripple-test"
    request.resultCache = passRecords?.use(for: run, settings: settings) ?? ResultCacheUse(enabled: false)
    // A canary measures the full suite and selection misses; a fresh re-run asks for every selected target:
    // neither reads a record (both still write them).
    if !run.readsPassRecords {
      request.resultCache.rerunCached = true
      say(run.trigger == .canary ? "canary: no pass record is read" : "fresh re-run: no pass record is read")
    }
    if effective.coverage { request.coverage = CoverageRequest() }
    // Test-level selection when the operator turned it on (else the repository's ripple.yml decides); a canary
    // runs everything whole, so it is the run that makes the coverage maps.
    request.granularity = settings.granularity
    request.refreshMaps = run.trigger == .canary
    request.retryFailed = effective.retryFailed
    let plan: TestJob
    do {
      plan = try await workspace.planTests(request)
    } catch let error as CoverageSetupError {
      // As `ripple test --coverage`: an environment error before anything runs, never a run without coverage.
      throw RunSetupError(description: "coverage is on for \(run.repository) (coverage: true), but \(error)")
    }
    var analysis: RunAnalysis
    if let outcome = plan.affected {
      if outcome.headGraph == nil && outcome.baseGraph == nil {
        // Never "passed, 0 tests" because nothing could be evaluated.
        throw RunSetupError(
          description: "no package graph could be evaluated at either side: "
            + outcome.report.warnings.joined(separator: "; "))
      }
      analysis = Self.analysis(of: outcome)
    } else {
      analysis = RunPlanning.everything(
        in: plan.graph ?? PackageGraph(packages: []), reason: prepared.everythingReason ?? "every test")
    }
    // What selective testing saves, from the recorded timings: every test target of the graph vs the selection.
    if let graph = plan.affected?.headGraph ?? plan.graph {
      analysis.fullSuiteSeconds = plan.history.estimate(
        graph.testTargets.map { TestUnit(package: $0.package, target: $0.name) })
      analysis.selectedSeconds = plan.history.estimate(plan.selection.units)
    }
    analysis.baseNote = prepared.baseNote
    // Below the target: the run page lists each target's tests selected and why, or why it ran whole.
    for report in plan.belowTarget {
      guard let index = analysis.targets.firstIndex(where: { $0.package == report.package && $0.name == report.target })
      else { continue }
      analysis.targets[index].reasons.append("below the target: " + report.sentence)
      say(report.sentence)
    }
    try store.recordAnalysis(run.id, analysis)
    say(
      "\(analysis.selectedTestTargets) of \(analysis.totalTestTargets) test targets selected, "
        + "\(analysis.changedFiles.count) changed files")
    for warning in plan.warnings { say("warning: \(warning)") }
    try Task.checkCancellation()

    let hint = NetworkHint(isolated: isolation?.bwrap != nil && isolation?.network == .isolated)
    let result = try await workspace.runTests(
      plan,
      onEvent: { event in
        say(Self.describe(event))
        if case .output(_, let line) = event, let note = hint.note(after: line.text) { say(note) }
      })
    // What the run's records, history, coverage and maps said after the tests (a store down, a map not made).
    for warning in result.warnings { say("warning: \(warning)") }
    let selection = plan.selection
    let outcomes = Self.targetOutcomes(result, selection: selection)
    // The packages' builds add up to the build phase (capped at the run's time); the rest is the tests'.
    let buildSeconds = min(result.packages.reduce(0) { $0 + $1.buildDuration }, result.duration)
    try store.recordResults(
      run.id, outcomes, failedTests: result.totals.failed, buildSeconds: buildSeconds,
      testSeconds: max(0, result.duration - buildSeconds))
    try store.recordTestOutcomes(run.id, TestOutcomeRecording.outcomes(result))
    if result.cancelled { return .cancelled }
    if let document = result.coverage {
      let coverage = Self.coverage(of: document)
      try store.recordCoverage(run.id, coverage)
      say(Self.describe(coverage))
    }
    if result.nothingAffected { return .passed("nothing testable is affected") }
    do {
      try result.check()
      return .passed(nil)
    } catch {
      return .failed(Self.reason(for: error))
    }
  }

  /// Runs `ripple bootstrap` in the work tree when the asset section of the config differs from what was
  /// last installed there (a marker next to the work tree remembers it).
  private func bootstrapIfNeeded(
    _ workspace: Workspace, settings: RepositorySettings, say: @escaping @Sendable (String) -> Void
  ) async throws {
    let configuration = workspace.configuration
    let enabled = settings.applying(configuration.daemon).bootstrap
    let assets = configuration.assets
    guard enabled, !assets.assets.isEmpty || !assets.secrets.isEmpty || !assets.generate.isEmpty else { return }
    let marker = workspace.root + ".assets"
    let fingerprint = String(describing: configuration.assets)
    // A generate entry's inputs are files of the tree, not of the manifest: with any, bootstrap always runs
    // and its up-to-date keys decide (an unchanged entry costs reading its inputs).
    let unchanged = (try? String(contentsOfFile: marker, encoding: .utf8)) == fingerprint
    if unchanged && assets.generate.isEmpty { return }
    say(
      unchanged
        ? "bootstrapping (generated resources are checked on every run)" : "the asset manifest changed: bootstrapping")
    // A branch's `file:` sources stay inside its repository and the operator's folders (issue 39).
    let report = try await workspace.bootstrap(
      .init(fileSources: .confined(folders: settings.assetFolders)), makeFetcher: services.makeFetcher,
      onEvent: BootstrapJob.runLog(say))
    if let failure = report.failures.first { throw failure }
    try? fingerprint.write(toFile: marker, atomically: true, encoding: .utf8)
  }

  /// A failed run's reason for the dashboard: the CLI's sentences point at output "above", the daemon's at
  /// its targets table and log.
  static func reason(for error: TestRunnerError) -> String {
    func packages(_ paths: [String]) -> String {
      paths.map { $0 == "." ? "the root package" : $0 }.joined(separator: ", ")
    }
    switch error {
    case .testsFailed(let count, let paths):
      return "\(count) test\(count == 1 ? "" : "s") failed in \(packages(paths))"
    case .buildFailed(let paths): return "\(packages(paths)) did not build; the compiler errors are in the log"
    case .noTestsRan(let package, let filter):
      return "no test ran in \(packages([package])) although targets were selected (filter \(filter))"
    default: return error.description
    }
  }

  /// The suite's coverage as the store keeps it: the measured lines, and how many targets counted.
  static func coverage(of document: CoverageDocument) -> RunCoverage {
    let notMeasured = document.targets.filter { $0.source == "notMeasured" }.count
    return RunCoverage(
      linesCovered: document.covered, linesTotal: document.lines,
      targetsMeasured: document.targets.count - notMeasured, targetsNotMeasured: notMeasured)
  }

  /// "line coverage 71.3% (812 of 1139 lines; 5 test targets measured, 2 not: partial)".
  static func describe(_ coverage: RunCoverage) -> String {
    let percent = coverage.percent.map { String(format: "%.1f%%", $0) } ?? "not known (no line measured)"
    var text =
      "line coverage \(percent) (\(coverage.linesCovered) of \(coverage.linesTotal) lines; "
      + "\(coverage.targetsMeasured) test targets measured"
    if coverage.isPartial { text += ", \(coverage.targetsNotMeasured) not: partial" }
    return text + ")"
  }

  static func analysis(of outcome: AffectedOutcome) -> RunAnalysis {
    RunPlanning.analysis(of: outcome.report, base: outcome.changeSet.from.hex, headGraph: outcome.headGraph)
  }

  /// Every selected test target with what happened to it (a target whose package did not build: notRun).
  static func targetOutcomes(_ result: TestRunResult, selection: TestSelection) -> [TargetOutcome] {
    var out: [TargetOutcome] = []
    var seen = Set<TargetRef>()
    for package in result.packages {
      for target in package.targets {
        let totals = target.totals
        let status: TargetStatus =
          totals.failed > 0 ? .failed : totals.tests > 0 && totals.skipped == totals.tests ? .skipped : .passed
        let failures = target.tests.filter { $0.status == .failed }.prefix(50).map { test in
          "\(test.qualifiedName): " + (test.failures.first?.message ?? "failed")
        }
        out.append(
          TargetOutcome(
            package: package.path, name: target.name, status: status, duration: target.duration, failures: failures))
        seen.insert(TargetRef(package: package.path, name: target.name))
      }
    }
    for package in selection.packages {
      for name in package.testTargets where !seen.contains(TargetRef(package: package.path, name: name)) {
        out.append(TargetOutcome(package: package.path, name: name, status: .notRun))
      }
    }
    // Skipped for a trusted pass record: listed with where it passed.
    let now = Date()
    for target in result.cached {
      out.append(
        TargetOutcome(
          package: target.package, name: target.name, status: .cached, duration: target.duration,
          failures: [target.sentence(now: now)]))
    }
    // Selected, but no test run of this host's platform has it (`test.runs`): listed with the reason.
    for target in result.notRunHere {
      out.append(
        TargetOutcome(package: target.package, name: target.name, status: .notRun, failures: [target.sentence]))
    }
    return out
  }

  static func describe(_ event: TestRunEvent) -> String {
    switch event {
    case .started(let packages, let targets, let whole):
      "testing " + TestRunEvent.scope(packages: packages, targets: targets, wholePackages: whole)
    case .building(let package): "building \(package)"
    case .output(_, let line): "  " + line.text
    case .built(let package, let succeeded, let seconds):
      "built \(package): \(succeeded ? "ok" : "FAILED") in \(String(format: "%.1f", seconds)) s"
    case .testing(let package, let targets, let attempt):
      "testing \(package): \(targets.joined(separator: ", "))" + (attempt > 1 ? " (attempt \(attempt))" : "")
    case .testFinished(_, let target, let test):
      "\(test.status == .failed ? "FAIL" : test.status.rawValue) \(target).\(test.qualifiedName)"
        + test.failures.map { "\n    \($0.message)" }.joined()
    case .packageFinished(let package): "package \(package.path): \(package.status.rawValue)"
    case .finished(let result): "finished: \(result.totals.passed) passed, \(result.totals.failed) failed"
    }
  }
}
