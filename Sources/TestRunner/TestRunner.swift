import Foundation
import RippleCore
import SystemClients

/// Builds and runs the selected test targets, package by package, and collects their results.
///
/// Per step, whatever its `TestBackend`: the build (`swift build --build-tests`, `xcodebuild
/// build-for-testing`), the tests (`swift test --skip-build --filter …`, `xcodebuild test-without-building
/// -only-testing:…`), their results, then up to `retryFailed` re-runs of just the failing tests.
/// Test failures and build failures are results, not errors: `run` returns them and the caller
/// reports them, then calls `TestRunResult.check()` for the exit status. `run` throws only when
/// `swift` cannot be started at all. Cancelling the task stops the running `swift` (its process group,
/// see `ProcessClient.live`) and returns what finished, with `cancelled` set.
public struct TestRunner: Sendable {
  public var process: ProcessClient
  public var onEvent: @Sendable (TestRunEvent) -> Void
  /// Where the run's folder (xunit files, the children's TMPDIR) is made; nil: this process's `$TMPDIR`.
  /// rippled gives each run its own, the only temporary folder its sandboxed processes may write.
  public var temporaryRoot: String?

  public init(process: ProcessClient, onEvent: @escaping @Sendable (TestRunEvent) -> Void = { _ in }) {
    self.process = process
    self.onEvent = onEvent
  }

  /// The selection this run covers: the shard's part when sharding.
  public static func effectiveSelection(_ selection: TestSelection, options: TestRunOptions, history: TimingHistory)
    -> TestSelection
  {
    guard let shard = options.shard else { return selection }
    if let plan = options.shardPlan, plan.count == shard.count {
      return TestSharding.select(selection, entries: plan.entries(ofShard: shard.index))
    }
    return TestSharding.select(selection, shard: shard, history: history)
  }

  /// The plan `run` would execute (for `--dry-run`): the run's own folder, made when it starts, shows
  /// as `RunDirectory.placeholder`.
  public static func plan(_ selection: TestSelection, options: TestRunOptions, history: TimingHistory = .init())
    -> TestPlan
  {
    plan(selection, options: options, history: history, in: RunDirectory(root: RunDirectory.placeholder))
  }

  /// The plan, with the paths of one run: `run` executes exactly this.
  static func plan(_ selection: TestSelection, options: TestRunOptions, history: TimingHistory, in run: RunDirectory)
    -> TestPlan
  {
    TestPlan.make(
      selection: effectiveSelection(selection, options: options, history: history), options: options,
      xunitDirectory: run.xunitDirectory(options), temporaryDirectory: run.temporary,
      coverageDirectory: run.root + "/coverage")
  }

  public func run(_ selection: TestSelection, options: TestRunOptions, history: TimingHistory = .init())
    async throws(TestRunnerError) -> TestRunResult
  {
    let start = ContinuousClock.now
    guard !Self.effectiveSelection(selection, options: options, history: history).isEmpty else {
      let result = TestRunResult(packages: [], shard: options.shard, nothingAffected: true)
      onEvent(.finished(result))
      return result
    }
    let runDirectory: RunDirectory
    if let name = options.runFolderName {
      runDirectory = try RunDirectory.create(in: temporaryRoot, named: name)
    } else {
      runDirectory = try RunDirectory.forCheckout(
        options.repositoryRoot + "\u{0}" + (options.scratchPath ?? ""), in: temporaryRoot)
    }
    defer { runDirectory.remove() }
    if let workDirectory = options.workDirectory { try Self.createWorkDirectory(workDirectory) }
    let plan = Self.plan(selection, options: options, history: history, in: runDirectory)
    // `--coverage` runs a package's targets as steps of their own: packages are counted once per run.
    let packageCount = Set(plan.packages.map { [$0.package, $0.run?.name ?? ""] }).count
    let whole = Set(plan.packages.filter(\.testTargets.isEmpty).map { [$0.package, $0.run?.name ?? ""] }).count
    onEvent(
      .started(
        packages: packageCount, targets: plan.packages.map(\.testTargets.count).reduce(0, +), wholePackages: whole))

    let coverage = Locked<[TargetCoverageMeasurement]>([])
    let binFolders = BinFolders()
    let outcomes = await runAll(plan.packages, jobs: options.jobs, retries: options.retryFailed) { step, result in
      guard let spec = step.coverage else { return }
      let measured = await measureCoverage(step, spec, result: result, options: options, binFolders: binFolders)
      coverage.withLock { $0.append(measured) }
    }
    var packages: [PackageResult] = []
    for (index, outcome) in outcomes.enumerated() {
      switch outcome {
      case .success(let package):
        // `--coverage` runs a package's targets as steps of their own: one result again.
        if let spec = plan.packages[index].coverage, spec.reusesBuild, let last = packages.last,
          last.path == package.path, last.run == package.run
        {
          packages[packages.count - 1] = Self.joined(last, package, filter: spec.packageFilter)
        } else {
          packages.append(package)
        }
      case .failure(let error): throw error
      }
    }
    let cancelled = Task.isCancelled || packages.contains { $0.status == .cancelled }
    var result = TestRunResult(
      packages: packages.sorted { $0.path < $1.path }, shard: options.shard, cancelled: cancelled,
      duration: Self.seconds(since: start))
    result.freshCoverage = coverage.withLock { $0 }
    onEvent(.finished(result))
    return result
  }

  /// Runs packages with at most `jobs` at a time; the runs (`test.runs`) of one package one after another,
  /// in run order. Results in plan order.
  private func runAll(
    _ steps: [PackageStep], jobs: Int, retries: Int,
    afterStep: @escaping @Sendable (PackageStep, PackageResult) async -> Void = { _, _ in }
  ) async -> [Result<PackageResult, TestRunnerError>] {
    var groups: [[Int]] = []
    var groupOfPackage: [String: Int] = [:]
    for (index, step) in steps.enumerated() {
      if let group = groupOfPackage[step.package] {
        groups[group].append(index)
      } else {
        groupOfPackage[step.package] = groups.count
        groups.append([index])
      }
    }
    // After a failure (swift could not run) nothing more is started; unstarted packages are cancelled.
    let results =
      (try? await Concurrently.map(groups, limit: jobs) { group in
        await runPackageSequence(group.map { steps[$0] }, retries: retries, afterStep: afterStep)
      } onResult: { _, results in
        !results.contains { if case .failure = $0 { true } else { false } }
      }) ?? groups.map { _ in nil }
    var ordered: [Result<PackageResult, TestRunnerError>?] = steps.map { _ in nil }
    for (group, outcome) in zip(groups, results) {
      for (index, result) in zip(group, outcome ?? []) { ordered[index] = result }
    }
    return ordered.enumerated().map { index, result in
      let step = steps[index]
      return result
        ?? .success(PackageResult(path: step.package, run: step.run?.name, status: .cancelled, filter: step.filter))
    }
  }

  /// One package's steps in order; after a step that could not run, the rest are left out (cancelled).
  private func runPackageSequence(
    _ steps: [PackageStep], retries: Int, afterStep: @Sendable (PackageStep, PackageResult) async -> Void
  ) async -> [Result<PackageResult, TestRunnerError>] {
    var results: [Result<PackageResult, TestRunnerError>] = []
    // The tests of the build the next `--coverage` step reuses: listed by its first step, not once per target.
    var listing: [String]?
    for step in steps {
      if step.coverage?.reusesBuild != true { listing = nil }
      var result: Result<PackageResult, TestRunnerError>
      if step.coverage?.reusesBuild == true, case .success(let previous)? = results.last,
        previous.status == .buildFailed || previous.status == .cancelled
      {
        // The build this step shares did not happen: the same outcome, no second attempt.
        var same = previous
        same.targets = []
        same.buildErrors = []
        same.filter = step.filter
        result = .success(same)
      } else {
        result = await runPackageCatching(step, retries: retries, listing: &listing)
      }
      if case .success(let package) = result { await afterStep(step, package) }
      results.append(result)
      if case .failure = result { break }
    }
    return results
  }

  /// `runPackage` with its error as a value. Kept out of the task-group closure: a typed `do/catch`
  /// inside that closure was miscompiled in release builds (Swift 6.3.1), mixing up package results.
  private func runPackageCatching(_ step: PackageStep, retries: Int, listing: inout [String]?) async -> Result<
    PackageResult, TestRunnerError
  > {
    do {
      return .success(try await runPackage(step, retries: retries, listing: &listing))
    } catch {
      return .failure(error)
    }
  }

  /// One step, whatever its backend: build, test (each test reported as its line arrives), results
  /// through `ResultAssembler`, a crash as a failing `(test process)` entry, then up to `retries` re-runs
  /// of just the failed tests (a test that then passes is flaky, `RetryMerger`).
  ///
  /// `listing`: the tests a `--coverage` step that reuses the build it follows takes as listed (the binary is the
  /// one the first step listed); a step that lists sets it.
  func runPackage(_ step: PackageStep, retries: Int, listing: inout [String]?) async throws(TestRunnerError)
    -> PackageResult
  {
    var package = PackageResult(path: step.package, run: step.run?.name, status: .cancelled, filter: step.filter)
    if Task.isCancelled { return package }

    if step.coverage?.reusesBuild != true, let built = try await build(step, &package) { return built }
    let assembler: ResultAssembler
    let listed: [String]?
    if step.coverage?.reusesBuild == true, let known = listing {
      (assembler, listed) = (ResultAssembler(selectedTargets: step.testTargets, listedTests: known), known)
    } else {
      switch try await resultsSetup(for: step) {
      case nil: return finish(package)
      case .unlisted(let message)?:
        package.status = .error
        package.message = message
        return finish(package)
      case .ready(let ready, let tests)?: (assembler, listed, listing) = (ready, tests, tests)
      }
    }

    onEvent(.testing(package: step.eventName, targets: step.testTargets, attempt: 1))
    let first = TestAttempt(number: 1, request: step.test, output: step.backend.output)
    let (test, targets): (ProcessResult, [TargetResult])
    switch try await runAttempt(first, of: step, assembler: assembler, expected: listed) {
    case nil: return finish(package)
    case .unreadable(let message)?:
      package.status = .error
      package.message = message
      return finish(package)
    case .ran(let process, let results)?: (test, targets) = (process, results)
    }
    package.targets = targets

    let ending = TestProcessEnding(test)
    let crashRecorded = targets.contains { $0.tests.contains { $0.unreported != nil } }
    if (!test.succeeded && !targets.contains(where: { $0.totals.failed > 0 })) || (ending.signalled && !crashRecorded) {
      // The process failed without a failing test, or died of a signal after every expected test reported:
      // a crash (at exit, say) or an error before any test ran. Never contained by a quarantine.
      Self.addCrash(of: test, to: &package, target: step.testTargets.first ?? targets.first?.name)
    } else if !targets.contains(where: { !$0.tests.isEmpty }) {
      package.status = .noTestsRan
      return finish(package)
    }

    var attempt = 1
    while attempt <= retries, !Task.isCancelled {
      let failing = Self.retryable(package.targets)
      guard !failing.isEmpty else { break }
      attempt += 1
      onEvent(.testing(package: step.eventName, targets: Array(Set(failing.map(\.target))).sorted(), attempt: attempt))
      let retry = step.backend.retry(step, failing: failing, attempt: attempt)
      guard case .ran(_, let retried)? = try await runAttempt(retry, of: step, assembler: assembler, expected: listed)
      else { break }
      package.targets = RetryMerger.merge(package.targets, retried: retried, attempt: attempt)
    }

    let failed = package.targets.contains { $0.totals.failed > 0 }
    package.status = failed ? .failed : .passed
    return finish(package)
  }

  /// A test process that failed without a failing test: a synthetic failing `(test process)` entry in
  /// `target` (the first selected one), with the process's failure as its message and the package's.
  static func addCrash(of test: ProcessResult, to package: inout PackageResult, target: String?) {
    var message = ProcessError.failed(test).description
    let ending = TestProcessEnding(test)
    if let crashLine = ending.crashLine {
      // The crash's own message first: the markdown summary and JUnit's `message` show the first line.
      message =
        "the test process \(ending.description): \(crashLine.trimmingCharacters(in: .whitespaces))\n"
        + "the test process printed last:\n" + ending.lastLines.map { "    " + $0 }.joined(separator: "\n")
        + "\n" + message
    }
    var crashed = TestCaseResult(
      suite: "", name: "(test process)", framework: .xctest, status: .failed,
      failures: [TestFailure(message: message)])
    crashed.unreported = .crashed
    let name = target ?? "(unknown target)"
    if let index = package.targets.firstIndex(where: { $0.name == name }) {
      let target = package.targets[index]
      package.targets[index] = TargetResult(name: name, tests: target.tests + [crashed], duration: target.duration)
    } else {
      package.targets.append(TargetResult(name: name, tests: [crashed]))
    }
    package.message = message
  }

  /// What an attempt gave: the test process and its results, or results that could not be read (the
  /// step's error message).
  enum AttemptOutcome {
    case ran(ProcessResult, [TargetResult])
    case unreadable(String)
  }

  /// Runs one attempt's test command, reporting each test as its console line arrives, then reads its
  /// results; nil when cancelled.
  private func runAttempt(
    _ attempt: TestAttempt, of step: PackageStep, assembler: ResultAssembler, expected: [String]?
  ) async throws(TestRunnerError) -> AttemptOutcome? {
    try? FileManager.default.removeItem(atPath: step.backend.staleOutput(attempt.output))
    let live = LiveParser()
    let onEvent = onEvent
    let package = step.package
    // xcodebuild prints XCTest's macOS lines (`Test Case '-[AppTests.T testA]' passed (0.001 seconds).`),
    // swift test Linux's or macOS's and Swift Testing's: one parser for all.
    let streamed = try await execute(attempt.request) { line in
      guard let test = live.consume(line.text) else { return }
      onEvent(.testFinished(package: package, target: assembler.liveTarget(for: test), test: assembler.result(test)))
    }
    guard let process = streamed else { return nil }
    return try await results(of: attempt, process, step: step, assembler: assembler, expected: expected)
  }

  /// The build step of `step`, shared by `swift build` and `xcodebuild build-for-testing`: nil when it
  /// built (its duration recorded in `package`), else the finished result (build failed or cancelled).
  func build(_ step: PackageStep, _ package: inout PackageResult) async throws(TestRunnerError) -> PackageResult? {
    onEvent(.building(package: step.eventName))
    let buildStart = ContinuousClock.now
    // The output goes out line by line as it comes (rippled's run log); only its end is kept in memory, and the
    // compiler's error lines are picked out on the way.
    let errors = Locked(BuildErrorCollector())
    let onEvent = onEvent
    let name = step.eventName
    let streamed = try await execute(step.build) { line in
      errors.withLock { $0.consume(line.text) }
      onEvent(.output(package: name, line: line))
    }
    guard let build = streamed else { return finish(package) }
    package.buildDuration = Self.seconds(since: buildStart)
    onEvent(.built(package: step.eventName, succeeded: build.succeeded, seconds: package.buildDuration))
    guard build.succeeded else {
      package.status = .buildFailed
      package.buildErrors = errors.withLock { $0.lines }
      package.message = ProcessError.failed(build).description
      return finish(package)
    }
    return nil
  }

  /// The bytes of a build's standard output and error kept for its failure message (the end of each).
  static let retainedBuildOutput = 1 << 20

  func finish(_ package: PackageResult) -> PackageResult {
    var package = package
    if Task.isCancelled && package.status != .buildFailed { package.status = .cancelled }
    onEvent(.packageFinished(package))
    return package
  }

  /// Runs a command; nil when the task was cancelled meanwhile (its result is then meaningless).
  func execute(_ request: ProcessRequest, onLine: (@Sendable (OutputLine) -> Void)? = nil)
    async throws(TestRunnerError) -> ProcessResult?
  {
    do {
      let result: ProcessResult
      if let onLine {
        result = try await process.runStreaming(request, onLine)
      } else {
        result = try await process.run(request)
      }
      return Task.isCancelled ? nil : result
    } catch let error as ProcessError {
      switch error {
      case .notFound(let executable): throw .swiftNotFound(executable: executable)
      case .couldNotStart(let command, let reason): throw .couldNotStart(command: command, reason: reason)
      case .timedOut, .failed: throw .couldNotStart(command: request.commandLine, reason: error.description)
      }
    } catch {
      if Task.isCancelled || error is CancellationError { return nil }
      throw .couldNotStart(command: request.commandLine, reason: "\(error)")
    }
  }

  /// Failed tests that can be named exactly (not the synthetic "(test process)" entry), with their targets.
  static func retryable(_ targets: [TargetResult]) -> [(target: String, test: TestCaseResult)] {
    targets.flatMap { target in
      target.tests.filter { $0.status == .failed && !$0.name.hasPrefix("(") }.map { (target.name, $0) }
    }
  }

  private static func createWorkDirectory(_ path: String) throws(TestRunnerError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw .workDirectory(path: path, reason: error.localizedDescription)
    }
  }

  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}

/// A `ConsoleParser` shared with the output callback, which may run on another thread.
final class LiveParser: @unchecked Sendable {
  private let lock = NSLock()
  private var parser = ConsoleParser()

  func consume(_ line: String) -> ParsedTest? {
    lock.lock()
    defer { lock.unlock() }
    return parser.consume(line: line)
  }
}
