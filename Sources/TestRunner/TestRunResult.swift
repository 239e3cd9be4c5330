import Coverage
import Foundation

/// The outcome of a `ripple test` run; also the `--report-json` document (schemaVersion 1).
///
/// ```json
/// { "schemaVersion": 1, "succeeded": false, "cancelled": false, "nothingAffected": false,
///   "shard": {"index": 1, "count": 2}, "duration": 12.5,
///   "totals": {"tests": 10, "passed": 8, "failed": 1, "skipped": 1, "flaky": 1},
///   "packages": [{ "path": ".", "status": "failed", "filter": "^(CoreTests)\\.", "buildDuration": 9.1,
///     "buildErrors": [], "message": null,
///     "targets": [{ "name": "CoreTests", "duration": 0.4,
///       "tests": [{ "suite": "MathTests", "name": "testAdd", "framework": "xctest", "status": "failed",
///         "duration": 0.001, "attempts": 1, "flaky": false,
///         "failures": [{"message": "XCTAssertEqual failed", "file": "/repo/Tests/…/MathTests.swift", "line": 5}]
///       }] }] }] }
/// ```
/// `status` of a package: passed, failed (a test failed), buildFailed, noTestsRan (the filter matched
/// nothing), error (swift could not run), cancelled. A flaky test failed first and passed on a retry: its
/// status is passed, `flaky` is true, and `failures` keeps what its first failing attempt reported. A
/// quarantined test (`test.quarantine`) failed every attempt but is contained: status `quarantined`,
/// `quarantine` the entry's reason, `failures` as for a failure; it does not fail its package. `cached`
/// lists the selected targets skipped for a trusted pass record (`CachedTarget`), outside `totals`.
public struct TestRunResult: Sendable, Codable, Hashable {
  public var schemaVersion: Int = 1
  public var packages: [PackageResult]
  public var shard: Shard?
  /// `--shard`: the job's plan this shard ran its part of (`ripple shards check`); nil otherwise.
  public var shardPlan: ShardPlanStamp?
  /// The selection was empty: nothing was built or run (the outputs still say so).
  public var nothingAffected: Bool
  /// Interrupted by Ctrl-C / SIGTERM; `packages` holds what finished.
  public var cancelled: Bool
  /// Wall-clock seconds.
  public var duration: Double
  /// Selected test targets no run on this host can test (`test.runs` platforms), each with the reason.
  public var notRunHere: [NotRunTarget] = []
  /// `--require-all`: a target in `notRunHere` fails the run.
  public var requireAll = false
  /// `--fail-on-flaky`: a test that passed only on a retry fails the run (unless `test.quarantine` covers it).
  public var failOnFlaky = false
  /// Selected targets not run: a trusted pass record exists at their content key.
  public var cached: [CachedTarget] = []
  /// What went wrong around the tests without failing them (a result store that could not be written).
  public var warnings: [String] = []
  /// The run's wall-clock split and what it saved against the whole suite; nil when not worked out.
  public var wallClock: WallClock?
  /// What the selection compared (absent for `--all`): the base, and how it was chosen (`--base auto`).
  public var comparison: Comparison?

  public struct Comparison: Sendable, Codable, Hashable {
    public var base: String
    /// A commit, or `worktree`.
    public var head: String
    public var mergeBase: String?
    public var baseSource: String?

    public init(base: String, head: String, mergeBase: String?, baseSource: String?) {
      self.base = base
      self.head = head
      self.mergeBase = mergeBase
      self.baseSource = baseSource
    }
  }
  /// `test.granularity: test`: per selected target, the tests chosen below it (or why it ran whole).
  public var belowTarget: [BelowTargetReport] = []
  /// `--coverage`: the suite's merged coverage (docs/DESIGN.md, "Coverage"); nil without.
  public var coverage: CoverageDocument?
  /// `--coverage`: each target's coverage as this run measured it (not in the JSON report: `coverage` is).
  public var freshCoverage: [TargetCoverageMeasurement] = []

  public init(
    packages: [PackageResult], shard: Shard? = nil, nothingAffected: Bool = false, cancelled: Bool = false,
    duration: Double = 0
  ) {
    self.packages = packages
    self.shard = shard
    self.nothingAffected = nothingAffected
    self.cancelled = cancelled
    self.duration = duration
  }

  public var totals: TestTotals { TestTotals(packages.flatMap(\.targets).flatMap(\.tests)) }
  public var succeeded: Bool { !cancelled && packages.allSatisfy { $0.status == .passed } }

  /// Throws the error the run amounts to (build failure first, then failed tests, then empty filters,
  /// then cancellation), or returns when everything passed. Its category gives the exit status.
  public func check() throws(TestRunnerError) {
    if let failed = packages.first(where: { $0.status == .error }), let message = failed.message {
      throw .couldNotStart(command: failed.package, reason: message)
    }
    let unbuilt = packages.filter { $0.status == .buildFailed }.map(\.path)
    if !unbuilt.isEmpty { throw .buildFailed(packages: unbuilt) }
    let failing = packages.filter { $0.status == .failed }
    if !failing.isEmpty {
      throw .testsFailed(
        count: failing.map { TestTotals($0.targets.flatMap(\.tests)).failed }.reduce(0, +),
        packages: failing.map(\.path))
    }
    if let empty = packages.first(where: { $0.status == .noTestsRan }) {
      throw .noTestsRan(package: empty.path, filter: empty.filter ?? "(none)")
    }
    let flaky = packages.flatMap(\.targets).flatMap(\.tests).filter { $0.flaky && $0.quarantine == nil }.count
    if failOnFlaky, flaky > 0 { throw .flakyTests(count: flaky) }
    if requireAll, !notRunHere.isEmpty { throw .notRunHere(notRunHere) }
    if cancelled { throw .cancelled }
  }

  private enum CodingKeys: String, CodingKey {
    case schemaVersion, succeeded, cancelled, nothingAffected, shard, shardPlan, duration, totals, packages, notRunHere,
      cached,
      warnings, wallClock, comparison, coverage, belowTarget
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(schemaVersion, forKey: .schemaVersion)
    try c.encode(succeeded, forKey: .succeeded)
    try c.encode(cancelled, forKey: .cancelled)
    try c.encode(nothingAffected, forKey: .nothingAffected)
    try c.encode(shard, forKey: .shard)
    try c.encodeIfPresent(shardPlan, forKey: .shardPlan)
    try c.encode(duration, forKey: .duration)
    try c.encode(totals, forKey: .totals)
    try c.encode(packages, forKey: .packages)
    try c.encode(notRunHere, forKey: .notRunHere)
    try c.encode(cached, forKey: .cached)
    try c.encode(warnings, forKey: .warnings)
    try c.encodeIfPresent(wallClock, forKey: .wallClock)
    try c.encodeIfPresent(comparison, forKey: .comparison)
    try c.encodeIfPresent(coverage, forKey: .coverage)
    if !belowTarget.isEmpty { try c.encode(belowTarget, forKey: .belowTarget) }
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
    cancelled = try c.decode(Bool.self, forKey: .cancelled)
    nothingAffected = try c.decode(Bool.self, forKey: .nothingAffected)
    shard = try c.decodeIfPresent(Shard.self, forKey: .shard)
    shardPlan = try c.decodeIfPresent(ShardPlanStamp.self, forKey: .shardPlan)
    duration = try c.decode(Double.self, forKey: .duration)
    packages = try c.decode([PackageResult].self, forKey: .packages)
    notRunHere = try c.decodeIfPresent([NotRunTarget].self, forKey: .notRunHere) ?? []
    cached = try c.decodeIfPresent([CachedTarget].self, forKey: .cached) ?? []
    warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
    wallClock = try c.decodeIfPresent(WallClock.self, forKey: .wallClock)
    comparison = try c.decodeIfPresent(Comparison.self, forKey: .comparison)
    coverage = try c.decodeIfPresent(CoverageDocument.self, forKey: .coverage)
    belowTarget = try c.decodeIfPresent([BelowTargetReport].self, forKey: .belowTarget) ?? []
  }

  /// The `--report-json` text.
  public func jsonReport() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self) + "\n"
  }
}

/// A selected test target that no test run on this host can test: named, never silently dropped.
public struct NotRunTarget: Sendable, Codable, Hashable {
  public var package: String
  public var name: String
  /// "exists only in run `client`, platforms: macos".
  public var reason: String
  /// The host platform, for "not run on linux: …".
  public var platform: String

  public init(package: String, name: String, reason: String, platform: String) {
    self.package = package
    self.name = name
    self.reason = reason
    self.platform = platform
  }

  /// "not run on linux: ClientOnlyTests (exists only in run `client`, platforms: macos)".
  public var sentence: String { "not run on \(platform): \(name) (\(reason))" }
}

public struct TestTotals: Sendable, Codable, Hashable {
  public var tests: Int
  public var passed: Int
  public var failed: Int
  public var skipped: Int
  public var flaky: Int
  /// Failed, but contained by `test.quarantine`: not counted in `failed`.
  public var quarantined: Int

  public init(_ tests: [TestCaseResult]) {
    self.tests = tests.count
    self.passed = tests.filter { $0.status == .passed }.count
    self.failed = tests.filter { $0.status == .failed }.count
    self.skipped = tests.filter { $0.status == .skipped }.count
    self.flaky = tests.filter(\.flaky).count
    self.quarantined = tests.filter { $0.status == .quarantined }.count
  }
}

public struct PackageResult: Sendable, Codable, Hashable {
  public enum Status: String, Sendable, Codable, Hashable {
    case passed, failed, buildFailed, noTestsRan, error, cancelled
  }

  /// Repo-relative package directory.
  public var path: String
  /// The test run (`test.runs`) it belongs to; nil: the one default run.
  public var run: String?
  public var status: Status
  /// The `--filter` used (nil: every test of the package).
  public var filter: String?
  public var buildDuration: Double
  /// The compiler's `error:` lines when the build failed.
  public var buildErrors: [String]
  /// For build failures and errors: the command, its exit status and the tail of its output.
  public var message: String?
  public var targets: [TargetResult]

  public init(
    path: String, run: String? = nil, status: Status, filter: String? = nil, buildDuration: Double = 0,
    buildErrors: [String] = [], message: String? = nil, targets: [TargetResult] = []
  ) {
    self.path = path
    self.run = run
    self.status = status
    self.filter = filter
    self.buildDuration = buildDuration
    self.buildErrors = buildErrors
    self.message = message
    self.targets = targets
  }

  /// The repo-relative path for lists: kept as is, "." for the root.
  public var package: String { path }

  /// The path, with its run when it belongs to a declared one: "Packages/Server (server)".
  public var label: String { run.map { "\(path) (\($0))" } ?? path }
}

public struct TargetResult: Sendable, Codable, Hashable {
  public var name: String
  /// Wall-clock seconds the target's tests were running (first start to last end, retries added).
  /// Not the sum of the test durations: tests may run in parallel. Shards are balanced on it.
  public var duration: Double
  public var tests: [TestCaseResult]

  /// - Parameter duration: the target's wall time; nil: the sum of the test durations (tests known to
  ///   have run one after another).
  public init(name: String, tests: [TestCaseResult], duration: Double? = nil) {
    self.name = name
    self.tests = tests
    self.duration = duration ?? tests.map(\.duration).reduce(0, +)
  }

  public var testCount: Int { tests.count }
  public var totals: TestTotals { TestTotals(tests) }
}

public enum TestFramework: String, Sendable, Codable, Hashable {
  case xctest
  case swiftTesting = "swift-testing"
}

public struct TestCaseResult: Sendable, Codable, Hashable {
  public enum Status: String, Sendable, Codable, Hashable {
    case passed, failed, skipped
    /// Failed, but matched a `test.quarantine` entry: reported, not failing the run.
    case quarantined
  }

  /// Class (XCTest) or suite path (Swift Testing, `Outer.Inner`), without the module; "" for a
  /// free-standing Swift Testing function.
  public var suite: String
  /// `testAdd` (XCTest) or `adds()` (Swift Testing).
  public var name: String
  public var framework: TestFramework
  public var status: Status
  /// Seconds (of the last attempt).
  public var duration: Double
  public var failures: [TestFailure]
  /// Failed, then passed on a retry.
  public var flaky: Bool
  public var attempts: Int
  /// Why it was skipped, when known.
  public var skipReason: String?
  /// Status `quarantined`, or a flaky pass `test.quarantine` covers: the reason of the entry.
  public var quarantine: String?
  /// Set when the test never reported a result of its own and its failure was recorded for it
  /// (`TestCompleteness`): `test.quarantine` never contains such a failure.
  public var unreported: Unreported?
  /// While retries go on: what the first failing attempt reported (`RetryMerger`). Not encoded.
  var firstFailures: [TestFailure]?

  public init(
    suite: String, name: String, framework: TestFramework, status: Status, duration: Double = 0,
    failures: [TestFailure] = [], flaky: Bool = false, attempts: Int = 1, skipReason: String? = nil
  ) {
    self.suite = suite
    self.name = name
    self.framework = framework
    self.status = status
    self.duration = duration
    self.failures = failures
    self.flaky = flaky
    self.attempts = attempts
    self.skipReason = skipReason
  }

  private enum CodingKeys: String, CodingKey {
    case suite, name, framework, status, duration, failures, flaky, attempts, skipReason, quarantine, unreported
  }

  /// Why a test has no result of its own.
  public enum Unreported: String, Sendable, Codable, Hashable {
    /// It was running when the test process ended (a crash, `exit`, a kill).
    case crashed
    /// Expected (`swift test list`), but the process ended before it reported.
    case didNotRun
  }

  /// `Suite/name`, or `name` for a free function; the part of the identifier after `Target.`.
  public var qualifiedName: String { suite.isEmpty ? name : "\(suite)/\(name)" }

  /// The full `swift test` identifier, `Target.Suite/name`.
  public func identifier(target: String) -> String { "\(target).\(qualifiedName)" }
}

/// One reported problem: message and, when known, where.
public struct TestFailure: Sendable, Codable, Hashable {
  public var message: String
  public var file: String?
  public var line: Int?

  public init(message: String, file: String? = nil, line: Int? = nil) {
    self.message = message
    self.file = file
    self.line = line
  }

  /// `File.swift:12`, or nil.
  public var location: String? {
    guard let file else { return nil }
    return line.map { "\(file):\($0)" } ?? file
  }
}
