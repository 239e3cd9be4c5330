import Affected
import Coverage
import Foundation
import PackageModel
import PassRecords
import RippleConfig
import RippleCore
import TestRunner

/// Turns what `affected` selected into what `TestRunner` runs.
public enum TestSelectionBuilder {
  /// The affected test targets grouped by package. When the analysis had to give up on a package's
  /// graph (`--fallback all` with a manifest that does not evaluate), that package runs unfiltered, and
  /// so does every package whose own manifest did not evaluate.
  public static func make(_ outcome: AffectedOutcome) -> TestSelection {
    var byPackage: [String: [String]] = [:]
    // Xcode test targets run through xcodebuild (`ripple affected --format xcodebuild`), not `swift test`.
    for target in outcome.report.testTargets where !XcodeGraphs.isProject(target.package, in: outcome.headGraph) {
      byPackage[target.package, default: []].append(target.name)
    }
    var packages = byPackage.keys.sorted().map { PackageSelection(path: $0, testTargets: byPackage[$0]!.sorted()) }
    if outcome.report.runAll && outcome.headGraph == nil {
      let known = Set(byPackage.keys)
      let others = ((outcome.baseGraph?.packages ?? []).map(\.path) + outcome.unevaluatedPackages).filter {
        !XcodeGraphs.isProject($0, in: outcome.baseGraph)
      }
      packages += Set(others).subtracting(known).sorted().map {
        PackageSelection(path: $0, testTargets: [], runAll: true)
      }
    }
    return TestSelection(packages: packages)
  }

  /// `--all`: every package that has test targets, unfiltered (plain `swift test`); `byTarget` (with
  /// `--shard`) names each package's test targets instead, so shards can hold single targets (and suites).
  public static func everything(in graph: PackageGraph, byTarget: Bool = false) -> TestSelection {
    let targets = AffectedResult.everything(in: graph, reasons: []).testTargets
    let packages = Set(targets.map(\.package)).sorted()
    guard byTarget else {
      return TestSelection(packages: packages.map { PackageSelection(path: $0, testTargets: [], runAll: true) })
    }
    return TestSelection(
      packages: packages.map { path in
        PackageSelection(path: path, testTargets: targets.filter { $0.package == path }.map(\.name))
      })
  }
}

extension TimingHistory {
  /// Recorded seconds per `package:Target`, the keys `--format matrix` balances on.
  public var durationsByTarget: [String: Double] {
    var out: [String: Double] = [:]
    for (package, targets) in packages {
      for (target, seconds) in targets { out[TestUnit(package: package, target: target).id] = seconds }
    }
    return out
  }
}

extension TimingHistory {
  /// Recorded seconds per top-level suite, keyed by `package:Target` like `durationsByTarget`.
  public var suiteDurationsByTarget: [String: [String: Double]] {
    var out: [String: [String: Double]] = [:]
    for (package, targets) in suites {
      for (target, seconds) in targets { out[TestUnit(package: package, target: target).id] = seconds }
    }
    return out
  }
}

extension TimingHistory {
  /// Recorded seconds per test by top-level suite, keyed by `package:Target` like `durationsByTarget`.
  public var testDurationsByTarget: [String: [String: [String: Double]]] {
    var out: [String: [String: [String: Double]]] = [:]
    for (package, targets) in tests {
      for (target, times) in targets { out[TestUnit(package: package, target: target).id] = Self.bySuite(times) }
    }
    return out
  }
}

extension TimingStore {
  /// `<repo>/.build/ripple/timings.json` unless configured: next to SwiftPM's own build output,
  /// ignored by git like the rest of `.build`.
  public static func defaultPath(repositoryRoot: String) -> String {
    repositoryRoot + "/.build/ripple/timings.json"
  }
}

/// What `ripple test` and a rippled run ask for: which tests, and how to run them.
public struct TestRequest: Sendable {
  public enum Scope: Sendable {
    /// The test targets a change can reach.
    case affected(AffectedRequest)
    /// Every test target of the working tree's graph (`--all`; a branch with nothing to compare with).
    case everything
  }

  public var scope: Scope
  public var shard: Shard?
  public var retryFailed: Int
  public var jobs: Int
  /// Build directory base; nil: each package's own `.build`.
  public var scratchPath: String?
  /// Timing history; nil: `<root>/.build/ripple/timings.json`.
  public var timingsPath: String?
  /// Given to both `swift build` and `swift test`.
  public var extraArguments: [String]
  /// A selected target that no run on this host can test fails the run (otherwise it is only named).
  public var requireAll: Bool
  /// `--targets`: only these units of the selection (`package:Name`, `package:*`); nil: all of it.
  public var targets: [String]?
  /// The platform runs are planned for: this host's, or another one's in tests (an xcodebuild run planned
  /// as on macOS while the tests run on Linux).
  public var platform: Platform = .host
  /// Apply `test.quarantine` (`--no-quarantine` turns it off for release gates).
  public var quarantine = true
  /// `--fail-on-flaky`: a test that passed only on a retry fails the run.
  public var failOnFlaky = false
  /// See `TestRunOptions.runFolderName` (rippled's runs; nil for `ripple test`).
  public var runFolderName: String?
  /// Pass records: read, skip and write (`--no-cache-results`, `--rerun-cached`).
  public var resultCache = ResultCacheUse()
  /// `--coverage`: per-target coverage, recorded with pass records and merged (CoverageMerging.swift).
  public var coverage: CoverageRequest?
  /// `--plan FILE`: the sharded job's one plan (`ShardPlanSnapshot`); nil: the job's default snapshot.
  public var shardPlanPath: String?
  /// `--granularity`; nil: `test.granularity` of ripple.yml.
  public var granularity: TestGranularity?
  /// `--refresh-maps`: make coverage maps after the run on any branch (protected branches always do, with test
  /// granularity).
  public var refreshMaps = false
  /// The plan is only read (`ripple affected --granularity test`): nothing runs, so no map is made after it and a
  /// protected branch plans tests below the target as any other branch does.
  public var plansOnly = false

  public init(
    scope: Scope, shard: Shard? = nil, retryFailed: Int = 0, jobs: Int = 1, scratchPath: String? = nil,
    timingsPath: String? = nil, extraArguments: [String] = [], requireAll: Bool = false, targets: [String]? = nil
  ) {
    self.requireAll = requireAll
    self.targets = targets
    self.scope = scope
    self.shard = shard
    self.retryFailed = retryFailed
    self.jobs = jobs
    self.scratchPath = scratchPath
    self.timingsPath = timingsPath
    self.extraArguments = extraArguments
  }
}

/// A planned test run: what runs and how, and what it was chosen from. `ripple test --dry-run` prints its
/// commands; `Workspace.runTests` runs it.
public struct TestJob: Sendable {
  public var selection: TestSelection
  public var options: TestRunOptions
  public var history: TimingHistory
  public var timingStore: TimingStore
  public var warnings: [String]
  /// Printed when nothing is selected: "no test target is affected by N changed files".
  public var nothingMessage: String
  /// The analysis the selection came from (`.affected`).
  public var affected: AffectedOutcome?
  /// The graph every test was taken from (`.everything`).
  public var graph: PackageGraph?
  /// Selected test targets no run on this host can test, with the reason.
  public var notRunHere: [NotRunTarget] = []
  public var requireAll = false
  /// `test.requires`: checked before anything is built.
  public var requirements: [TestRequirement] = []
  /// `test.quarantine` as the run applies it (empty with `--no-quarantine`); see TestContainment.swift.
  public var quarantine: [QuarantineRule] = []
  public var failOnFlaky = false
  /// Where each test's outcomes are kept (`ripple flaky`); nil: nowhere.
  public var outcomeStore: OutcomeStore?
  /// Selected targets taken out of `selection` for a trusted pass record at their key.
  public var cached: [CachedTarget] = []
  /// The keys of what runs and where records go; nil when pass records are off.
  public var passRecording: PassRecording?
  /// The shard whose part `selection` already is (pass records are looked up after the split).
  public var appliedShard: Shard?
  /// The team's history from the result store (merged into `history`), and where this run's part goes.
  public var sharedHistory: SharedHistoryContext?
  /// `--targets` named part of the selection: the run proves nothing of the commit as a whole.
  public var restricted = false
  /// `--coverage`; nil: none.
  public var coverage: CoverageRequest?
  /// The keys of every test target of the suite, when `--coverage` made them: the selection's are among them, so
  /// the pass records' lookup takes those rather than walking the closures again.
  var suiteKeys: KeyedUnits?
  /// `--shard`: the file the job's plan is kept in (`ShardPlanSnapshot`); nil when not sharding.
  public var shardPlanPath: String?
  /// Test granularity: what was chosen below each selected target (`BelowTargetPlanning.swift`).
  public var belowTarget: [BelowTargetReport] = []
  /// Coverage maps are made after the run (`CoverageMapRefresh.swift`).
  public var refreshesMaps = false

  /// The packages, targets and exact commands, as `--dry-run` prints them.
  public var commands: TestPlan { TestRunner.plan(selection, options: options, history: history) }

  /// `--dry-run` for people: each command with the variables of its run, then what cannot run here.
  public var renderedPlan: String {
    let now = Date()
    return commands.rendered + notRunHere.map { $0.sentence + "\n" }.joined()
      + cached.map { "cached: \(TerminalText.quoted("\($0.package):\($0.name)")) \($0.sentence(now: now))\n" }.joined()
      + belowTarget.map { "below the target: \(TerminalText.quoted($0.sentence))\n" }.joined()
  }

  /// `ripple test --dry-run --format json`: one entry per run and package, and what cannot run here.
  public func planJSON() -> String {
    struct Run: Encodable {
      var name: String
      var package: String
      var environment: [String: String]
      var testTargets: [String]
      var runAll: Bool
      var commands: [String]
    }
    struct Key: Encodable {
      var package: String
      var target: String
      var run: String?
      var key: String
      /// Why it is neither looked up nor recorded; absent when it is keyed.
      var unkeyable: [String]?
    }
    struct Document: Encodable {
      var runs: [Run]
      var notRunHere: [NotRunTarget]
      var keys: [Key]
      var cached: [CachedTarget]
      var belowTarget: [BelowTargetReport]
    }
    let defaultName = TestConfig.name(of: [:])
    let runs = commands.packages.map { step in
      Run(
        name: step.run?.name ?? defaultName, package: step.package,
        environment: (step.run?.environment ?? [:]).compactMapValues { $0 }, testTargets: step.testTargets,
        runAll: step.runAll, commands: [step.build.commandLine, step.test.commandLine])
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let keys = (passRecording?.keys ?? []).map {
      Key(
        package: $0.package, target: $0.target, run: $0.run, key: $0.key.hex,
        unkeyable: $0.isKeyable ? nil : $0.unkeyable)
    }
    encoder.dateEncodingStrategy = .iso8601
    let document = Document(
      runs: runs, notRunHere: notRunHere, keys: keys, cached: cached, belowTarget: belowTarget)
    let data = (try? encoder.encode(document)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}

extension Workspace {
  /// Changes → graphs → selection (or every test), with the timing history shards balance on.
  public func planTests(_ request: TestRequest) async throws -> TestJob {
    // Before anything else: a toolchain without llvm-cov is a setup error, not a run without coverage.
    let coverageTools = try request.coverage.map { _ in
      try CoverageRunOptions.locate(swift: services.swiftExecutable, environment: services.environment)
    }
    var selection: TestSelection
    var warnings: [String] = []
    var nothingMessage = "no test target found"
    var affected: AffectedOutcome?
    var graph: PackageGraph?
    switch request.scope {
    case .everything:
      let loaded = try await self.graph()
      // Targets by name when sharding or keeping pass records: each is then split or keyed on its own.
      let byTarget = request.shard != nil || usesPassRecords(request) || request.coverage != nil
      selection = TestSelectionBuilder.everything(in: loaded, byTarget: byTarget)
      graph = loaded
    case .affected(let affectedRequest):
      let outcome = try await self.affected(affectedRequest)
      selection = TestSelectionBuilder.make(outcome)
      warnings = outcome.report.warnings
      let count = outcome.report.changedFiles.count
      nothingMessage = "no test target is affected by \(count) changed file\(count == 1 ? "" : "s")"
      affected = outcome
    }
    if let ids = request.targets {
      let qualified = try TargetLookup.qualify(ids, among: selection.units.compactMap(\.targetID))
      let restricted = try selection.restricted(to: qualified)
      guard restricted.unmatched.isEmpty else {
        throw RippleKitError.targetsNotSelected(
          restricted.unmatched,
          suggestions: TargetLookup.suggestions(
            for: restricted.unmatched, among: selection.units.compactMap(\.targetID)))
      }
      selection = restricted.selection
    }
    let runs = TestRunPlanner.plan(
      selection, graph: affected?.headGraph ?? graph, runs: configuration.testRuns.filter { $0.runner == .swift },
      environments: configuration.graphEnvironments, host: request.platform)
    // Selected Xcode test targets go to the `runner: xcodebuild` runs (XcodebuildRuns.swift).
    let xcode = try affected.map { try xcodebuildPlan($0, host: request.platform) }
    let store = TimingStore(path: request.timingsPath ?? TimingStore.defaultPath(repositoryRoot: root))
    let (history, warning) = store.load()
    if let warning { warnings.append(warning) }
    var options = TestRunOptions(
      repositoryRoot: root, extraArguments: request.extraArguments, scratchPath: request.scratchPath,
      jobs: request.jobs, retryFailed: request.retryFailed, shard: request.shard,
      swiftExecutable: services.swiftExecutable)
    options.runFolderName = request.runFolderName
    options.coverage = coverageTools
    var job = TestJob(
      selection: TestSelection(packages: runs.selection.packages + (xcode?.selection.packages ?? [])),
      options: options, history: history, timingStore: store, warnings: warnings,
      nothingMessage: nothingMessage, affected: affected, graph: graph,
      notRunHere: runs.notRunHere + (xcode?.notRunHere ?? []),
      requireAll: request.requireAll, requirements: configuration.test.requires)
    job.contain(request, entries: configuration.test.quarantine, today: OutcomeHistory.day(Date()))
    job.restricted = request.targets != nil
    try refuseForeignStoreFolder(request.resultCache)
    // The team's history before anything is split: a fresh runner then plans shards as the others do.
    let slot = request.shard.map { ($0.index - 1) % HistoryRecord.slots } ?? Int.random(in: 0..<HistoryRecord.slots)
    if let shared = await loadSharedHistory(request.resultCache, slot: slot, warnings: &job.warnings) {
      job.sharedHistory = shared
      job.history = job.history.overlaid(with: shared.merged.timingHistory)
    } else if request.shard != nil, usesResultStore(request.resultCache) == false,
      configuration.test.resultCache.enabled, history == TimingHistory()
    {
      job.warnings.append(
        "no timing history here and no result store to read the team's from: shards are planned "
          + "on defaults (every target weighs the same)")
    }
    if let shard = request.shard {
      // One plan per sharded job, from the history as it is now: later shards read it (ShardPlanSnapshot).
      let (plan, path) = try ShardPlanSnapshot.resolve(
        job.selection, shard: shard, history: job.history, explicitPath: request.shardPlanPath, repositoryRoot: root,
        environment: services.environment)
      job.options.shardPlan = plan
      job.shardPlanPath = path
    }
    if var coverage = request.coverage {
      coverage.platform = request.platform
      let (keyed, warnings) = await coverageUnits(job, platform: request.platform)
      (coverage.units, job.warnings) = (keyed?.units, job.warnings + warnings)
      job.coverage = coverage
      job.suiteKeys = keyed
    }
    await applyPassRecords(to: &job, request: request, graph: affected?.headGraph ?? graph)
    // A run that makes the maps runs its targets whole: what it maps is what it tested.
    job.refreshesMaps = refreshesMaps(&job, request: request)
    if !job.refreshesMaps { await applyBelowTarget(to: &job, request: request, graph: affected?.headGraph ?? graph) }
    return job
  }

  /// Builds and runs the plan (`onEvent` sees each step as it happens), then adds this run's durations to
  /// the timing history; a failed history write only costs shard balance, so it does not fail the run.
  public func runTests(_ plan: TestJob, onEvent: @escaping @Sendable (TestRunEvent) -> Void) async throws
    -> TestRunResult
  {
    // Only when something will be built: the checks are for the tests, not for "nothing to run".
    // Whether the working tree is HEAD's commit takes a status of the whole tree (~0.5 s at 100,000 files):
    // found beside the build, since only the records and the history written after the run need it.
    let workspace = self
    let tested: Task<String?, Never>? =
      plan.passRecording == nil && plan.sharedHistory == nil
      ? nil : Task.detached(priority: .utility) { workspace.testedCommit(plan) }
    if !TestRunner.effectiveSelection(plan.selection, options: plan.options, history: plan.history).isEmpty {
      try await TestRequirements.check(
        plan.requirements, in: root, process: services.process, environment: services.environment)
    }
    // The live line of a finished package is contained like the summary (test.quarantine).
    let (rules, today) = (plan.quarantine, OutcomeHistory.day(Date()))
    var runner = TestRunner(process: services.process) { event in
      guard case .packageFinished(let package) = event, !rules.isEmpty else { return onEvent(event) }
      onEvent(.packageFinished(Quarantine.apply(rules, to: package, today: today)))
    }
    if let temporary = services.environment["TMPDIR"], temporary.hasPrefix("/") { runner.temporaryRoot = temporary }
    var result: TestRunResult
    if plan.selection.isEmpty && !plan.cached.isEmpty {
      // Every selected target passed before at this content: nothing is built.
      result = TestRunResult(packages: [], shard: plan.appliedShard)
    } else {
      result = try await runner.run(plan.selection, options: plan.options, history: plan.history)
    }
    if let shard = plan.appliedShard { result.shard = shard }
    if let shard = plan.appliedShard ?? plan.options.shard, let shardPlan = plan.options.shardPlan {
      result.shardPlan = ShardPlanStamp(plan: shardPlan, index: shard.index)
      if let path = plan.shardPlanPath { ShardPlanSnapshot.markRan(shard, path: path) }
    }
    result.cached = plan.cached
    if let recording = plan.passRecording {
      var blobs: [KeyedUnit: RecordKey] = [:]
      if plan.coverage != nil {
        let (saved, warnings) = await saveCoverageBlobs(recording, result: result, job: plan)
        (blobs, result.warnings) = (saved, result.warnings + warnings)
      }
      result.warnings += await writePassRecords(
        recording, result: result, job: plan, tested: await tested?.value, coverage: blobs)
    }
    if let coverage = plan.coverage {
      let (report, warnings) = await mergedCoverage(plan, result: result, coverage: coverage)
      result.warnings += warnings
      result.coverage = CoverageDocument(
        report, gate: coverage.minimum.flatMap { CoverageGate(minimum: $0).check(report) })
      result.coverage?.lineCoverage = report.coverage
    }
    result.wallClock = plan.wallClock(of: result)
    result.comparison = plan.affected.map {
      TestRunResult.Comparison(
        base: $0.report.base, head: $0.report.head, mergeBase: $0.report.mergeBase, baseSource: $0.report.baseSource)
    }
    if let shared = plan.sharedHistory {
      result.warnings += await writeSharedHistory(shared, result: result, job: plan, tested: await tested?.value)
    }
    result.belowTarget = plan.belowTarget
    if plan.refreshesMaps { result.warnings += await refreshMaps(plan, result: result, tested: await tested?.value) }
    result.notRunHere = plan.notRunHere
    result.requireAll = plan.requireAll
    result = plan.finish(result, at: Date())
    var updated = plan.history
    let ran = TestRunner.effectiveSelection(plan.selection, options: plan.options, history: plan.history)
    updated.record(result, scopes: ran.suiteScopes)
    // A passing run of the whole suite, on any branch, measures it for later runs' savings.
    if let clock = result.wallClock, clock.ranEverything, !result.cancelled, (try? result.check()) != nil {
      updated.fullRun = MeasuredFullRun(
        seconds: clock.seconds, buildSeconds: clock.buildSeconds, time: Date(),
        run: plan.passRecording?.runLabel ?? "ripple test on this machine")
    }
    if updated != plan.history { try? plan.timingStore.save(updated) }
    return result
  }
}
