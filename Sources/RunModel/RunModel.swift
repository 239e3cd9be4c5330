import Foundation

/// Where a run is in its life. `queued` and `running` are live; every other state is final.
///
/// Legal transitions (the store rejects any other):
/// queued → running | superseded | cancelled;
/// running → passed | failed | error | superseded | cancelled | interrupted.
public enum RunState: String, Codable, Sendable, CaseIterable, Hashable {
  case queued
  case running
  /// Every selected test passed, or nothing testable was affected.
  case passed
  /// A test or a build failed, or a filter ran no test.
  case failed
  /// Ripple itself could not finish the run (git, manifest, bootstrap, timeout): not the code's fault.
  case error
  /// A newer commit of the same branch replaced it (pending replaced, or running cancelled by policy).
  case superseded
  /// Cancelled by a person (API) or by shutdown before it started.
  case cancelled
  /// The daemon stopped (crash, kill -9, SIGTERM past the grace period) while it ran.
  case interrupted

  public var isFinal: Bool { self != .queued && self != .running }

  public func canMove(to next: RunState) -> Bool {
    switch (self, next) {
    case (.queued, .running), (.queued, .superseded), (.queued, .cancelled): true
    case (.running, .passed), (.running, .failed), (.running, .error), (.running, .superseded),
      (.running, .cancelled), (.running, .interrupted):
      true
    default: false
    }
  }
}

/// What made the daemon queue a run.
public enum RunTrigger: String, Codable, Sendable, Hashable {
  /// A new branch head found by a periodic fetch.
  case fetch
  /// A settled burst of file events in a watched working tree.
  case watch
  /// A verified GitHub push delivery (it queues a fetch; the fetch queues the run).
  case webhook
  /// `POST /api/runs`.
  case api
  /// Re-queued after the daemon was interrupted while the original ran.
  case requeue
  /// A scheduled full run of the primary branch (every test target), to measure selection misses.
  case canary
}

/// One run as listed: what, when, how it ended.
public struct RunRecord: Codable, Sendable, Hashable, Identifiable {
  public var id: Int64
  /// The configured repository name.
  public var repository: String
  /// The branch name, or `worktree` for a watched working tree.
  public var branch: String
  public var trigger: RunTrigger
  /// The commit that changes were measured from (the last passing commit of the branch, or its
  /// merge-base with the head); nil until the analysis ran, or when every test was selected.
  public var base: String?
  /// The commit under test, or `worktree`.
  public var head: String
  public var state: RunState
  /// Why it ended like that, in a sentence: "superseded by run 7", "timed out after 30m", an error.
  public var reason: String?
  public var queuedAt: Date
  public var startedAt: Date?
  public var finishedAt: Date?
  /// Test targets that ran, and test targets in the head graph.
  public var selectedTestTargets: Int?
  public var totalTestTargets: Int?
  /// Of the selected test targets, those a trusted pass record covered (not run); nil when none (read from the
  /// run's targets, never written apart).
  public var cachedTestTargets: Int?
  public var failedTests: Int?
  /// The interrupted run this one repeats, and which attempt this is (1 for an original run).
  public var retryOf: Int64?
  public var attempt: Int
  /// The run's log file (capped), when one was written.
  /// Estimated test time of the whole suite and of the selection (`RunAnalysis`).
  public var fullSuiteSeconds: Double?
  public var selectedSeconds: Double?
  public var logPath: String?
  /// The head commit's subject (its message's first line) and author's name, read from rippled's mirror; nil
  /// until read (or for a working tree), empty when the mirror does not hold the commit.
  public var subject: String?
  public var author: String?
  /// The run's build and test phases (`swift build` of every selected package, then the tests), in seconds: the
  /// test pipeline's time split; nil before results (or for runs recorded before rippled kept it).
  public var buildSeconds: Double?
  public var testSeconds: Double?
  /// The suite's line coverage (`coverage: true`); nil for a run without it.
  public var coverage: RunCoverage?
  /// Asked to read no pass record (a fresh re-run): every selected target runs. Canaries always are.
  public var fresh: Bool

  /// Whether the run reads pass records: never a canary (it measures the full suite and selection misses,
  /// docs/DESIGN.md) nor a fresh re-run.
  public var readsPassRecords: Bool { trigger != .canary && !fresh }

  public init(
    id: Int64, repository: String, branch: String, trigger: RunTrigger, base: String? = nil, head: String,
    state: RunState = .queued, reason: String? = nil, queuedAt: Date, startedAt: Date? = nil,
    finishedAt: Date? = nil, selectedTestTargets: Int? = nil, totalTestTargets: Int? = nil,
    failedTests: Int? = nil, retryOf: Int64? = nil, attempt: Int = 1, logPath: String? = nil,
    fullSuiteSeconds: Double? = nil, selectedSeconds: Double? = nil, subject: String? = nil, author: String? = nil,
    buildSeconds: Double? = nil, testSeconds: Double? = nil, coverage: RunCoverage? = nil, fresh: Bool = false,
    cachedTestTargets: Int? = nil
  ) {
    self.cachedTestTargets = cachedTestTargets
    self.fresh = fresh
    self.coverage = coverage
    self.buildSeconds = buildSeconds
    self.testSeconds = testSeconds
    self.subject = subject
    self.author = author
    self.fullSuiteSeconds = fullSuiteSeconds
    self.selectedSeconds = selectedSeconds
    self.id = id
    self.repository = repository
    self.branch = branch
    self.trigger = trigger
    self.base = base
    self.head = head
    self.state = state
    self.reason = reason
    self.queuedAt = queuedAt
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.selectedTestTargets = selectedTestTargets
    self.totalTestTargets = totalTestTargets
    self.failedTests = failedTests
    self.retryOf = retryOf
    self.attempt = attempt
    self.logPath = logPath
  }

  /// Seconds from start to finish (or nil while it has not both started and finished).
  public var duration: Double? {
    guard let startedAt, let finishedAt else { return nil }
    return finishedAt.timeIntervalSince(startedAt)
  }
}

/// A commit as people name it: the first line of its message and its author's name.
public struct CommitSummary: Codable, Sendable, Hashable {
  public var subject: String
  public var author: String

  public init(subject: String, author: String) {
    self.subject = subject
    self.author = author
  }

  /// What is recorded for a commit the mirror does not hold, so it is not looked up again.
  public static let unknown = CommitSummary(subject: "", author: "")
}

/// What the daemon asks the store to queue.
public struct NewRun: Sendable, Hashable {
  public var repository: String
  public var branch: String
  public var head: String
  public var trigger: RunTrigger
  public var retryOf: Int64?
  public var attempt: Int
  /// Reads no pass record: every selected target runs (records are still written).
  public var fresh: Bool

  public init(
    repository: String, branch: String, head: String, trigger: RunTrigger, retryOf: Int64? = nil, attempt: Int = 1,
    fresh: Bool = false
  ) {
    self.repository = repository
    self.branch = branch
    self.head = head
    self.trigger = trigger
    self.retryOf = retryOf
    self.attempt = attempt
    self.fresh = fresh
  }
}

/// The outcome of a test target in a run.
public enum TargetStatus: String, Codable, Sendable, Hashable {
  case passed, failed, skipped
  /// Selected, but its package did not build, or the run stopped first.
  case notRun
  /// Selected, not run: a trusted pass record exists at its content key (docs/DESIGN.md, "Pass records").
  case cached
}

/// A target the analysis selected, with its reasons and, for test targets, what happened.
public struct RunTarget: Codable, Sendable, Hashable {
  /// Package directory relative to the repo root ("." for the root).
  public var package: String
  public var name: String
  /// library, executable, test, plugin, macro, …
  public var kind: String
  public var isTest: Bool
  /// "changed Sources/Net/Client.swift", "depends on Net", …
  public var reasons: [String]
  /// Test targets only, once results are in.
  public var status: TargetStatus?
  public var duration: Double?
  /// "Suite.test: message" for each failing test (capped by the recorder).
  public var failures: [String]
  /// Why a target that did not run did not (cached: where and when it passed; not run here: which runs have it):
  /// shown apart from failures, never in `failures`.
  public var note: String?

  public init(
    package: String, name: String, kind: String, isTest: Bool, reasons: [String], status: TargetStatus? = nil,
    duration: Double? = nil, failures: [String] = [], note: String? = nil
  ) {
    self.note = note
    self.package = package
    self.name = name
    self.kind = kind
    self.isTest = isTest
    self.reasons = reasons
    self.status = status
    self.duration = duration
    self.failures = failures
  }

  /// `package:name`, the key edges use.
  public var key: String { "\(package):\(name)" }
}

/// A target as one run had it: the target's history page lists these, newest run first.
public struct TargetRun: Sendable, Hashable {
  public var run: RunRecord
  public var target: RunTarget

  public init(run: RunRecord, target: RunTarget) {
    self.run = run
    self.target = target
  }
}

/// `from` depends on `to` (both `package:name` keys of targets in the same run).
public struct RunEdge: Codable, Sendable, Hashable {
  public var from: String
  public var to: String

  public init(from: String, to: String) {
    self.from = from
    self.to = to
  }
}

/// The affected analysis of a run, recorded once it is known.
public struct RunAnalysis: Codable, Sendable, Hashable {
  public var base: String?
  /// Which base and why, in a sentence (`RunPlanning.base`): "comparing with 1a2b3c4d5e, the newest ancestor of
  /// … whose run passed (run 12)", or why every test runs.
  public var baseNote: String?
  public var changedFiles: [String]
  public var runAllReasons: [String]
  public var warnings: [String]
  public var targets: [RunTarget]
  public var edges: [RunEdge]
  public var selectedTestTargets: Int
  public var totalTestTargets: Int
  /// Recorded test time of every test target of the graph, and of the selected ones (estimates from the
  /// timing history; nil before anything was timed): what selective testing saves.
  public var fullSuiteSeconds: Double?
  public var selectedSeconds: Double?

  public init(
    base: String?, changedFiles: [String], runAllReasons: [String] = [], warnings: [String] = [],
    targets: [RunTarget], edges: [RunEdge], selectedTestTargets: Int, totalTestTargets: Int,
    fullSuiteSeconds: Double? = nil, selectedSeconds: Double? = nil, baseNote: String? = nil
  ) {
    self.fullSuiteSeconds = fullSuiteSeconds
    self.selectedSeconds = selectedSeconds
    self.base = base
    self.baseNote = baseNote
    self.changedFiles = changedFiles
    self.runAllReasons = runAllReasons
    self.warnings = warnings
    self.targets = targets
    self.edges = edges
    self.selectedTestTargets = selectedTestTargets
    self.totalTestTargets = totalTestTargets
  }
}

/// The result of one test target, recorded when the tests finished.
public struct TargetOutcome: Codable, Sendable, Hashable {
  public var package: String
  public var name: String
  public var status: TargetStatus
  public var duration: Double?
  public var failures: [String]

  public init(package: String, name: String, status: TargetStatus, duration: Double? = nil, failures: [String] = []) {
    self.package = package
    self.name = name
    self.status = status
    self.duration = duration
    self.failures = failures
  }
}

/// One journaled state change.
public struct RunTransition: Codable, Sendable, Hashable {
  public var runID: Int64
  /// nil for the creation of the run (→ queued).
  public var from: RunState?
  public var to: RunState
  public var at: Date
  public var note: String?

  public init(runID: Int64, from: RunState?, to: RunState, at: Date, note: String? = nil) {
    self.runID = runID
    self.from = from
    self.to = to
    self.at = at
    self.note = note
  }
}

/// Everything known about one run: `GET /api/runs/{id}` and the run page.
public struct RunDetail: Codable, Sendable, Hashable {
  public var run: RunRecord
  public var analysis: RunAnalysis?
  public var transitions: [RunTransition]

  public init(run: RunRecord, analysis: RunAnalysis?, transitions: [RunTransition]) {
    self.run = run
    self.analysis = analysis
    self.transitions = transitions
  }
}
