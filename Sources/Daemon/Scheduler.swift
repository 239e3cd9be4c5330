import DaemonSources
import DaemonSupport
import Foundation
import RippleConfig
import RunModel
import RunStore
import SchedulerCore
import ServiceMetrics

/// Drives `SchedulerCore` against the store and the executor: persists every decision first, then acts.
/// One actor, so decisions are serial; runs themselves are child tasks.
actor Scheduler {
  /// Why a running run was stopped from outside.
  typealias StopCause = RunStopCause

  private var core: SchedulerCore
  private let store: RunStore
  private let executor: RunExecutor
  private let repositories: [String: RepositorySettings]
  private let log: DaemonLog
  private let metrics: DaemonMetrics
  private let health: HealthBoard
  private let maxLogBytes: Int
  private let onChange: @Sendable (String) -> Void
  private let statuses: CommitStatusReporter?
  private let notifications: BranchNotifier?
  private var tasks: [Int64: Task<Void, Never>] = [:]
  private var causes: [Int64: StopCause] = [:]
  private var descriptions: [Int64: String] = [:]
  /// Per running run: its one time limit (`RunTimeLimit`) and the timer that enforces it.
  private var timers: [Int64: RunTimer] = [:]
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// Runs that ended while the store could not record it (a full disk): their real ending, written once it can.
  private var unrecorded: [Int64: (state: RunState, reason: String?)] = [:]
  /// How long a run that ended for want of file descriptors waits before it is queued again.
  var retryDelay: Duration = .seconds(30)

  init(
    limit: Int, store: RunStore, executor: RunExecutor, repositories: [RepositorySettings], log: DaemonLog,
    metrics: DaemonMetrics, health: HealthBoard, maxLogBytes: Int, statuses: CommitStatusReporter? = nil,
    notifications: BranchNotifier? = nil, onChange: @escaping @Sendable (String) -> Void
  ) {
    self.statuses = statuses
    self.notifications = notifications
    core = SchedulerCore(limit: limit)
    self.store = store
    self.executor = executor
    self.repositories = Dictionary(repositories.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    self.log = log
    self.metrics = metrics
    self.health = health
    self.maxLogBytes = maxLogBytes
    self.onChange = onChange
  }

  var queueLength: Int { core.queueLength }
  var runningIDs: [Int64] { core.runningIDs }

  /// What the daemon is doing, for systemd's STATUS= and the dashboard.
  var activity: String {
    let running = core.runningIDs.compactMap { descriptions[$0] }
    let queue = core.queueLength
    if running.isEmpty { return queue == 0 ? "idle" : "\(queue) queued" }
    return "running " + running.joined(separator: ", ") + (queue > 0 ? "; \(queue) queued" : "")
  }

  /// Records a new run and schedules it. Returns nil when the store refused (reported unhealthy).
  @discardableResult
  func submit(_ new: NewRun) -> RunRecord? {
    let record: RunRecord
    do {
      record = try store.enqueue(new)
      health.set(Self.storeProblem, nil)
    } catch {
      storeFailed(error, doing: "queue a run of \(new.repository)/\(new.branch)")
      return nil
    }
    log.info(
      "queued \(new.repository)/\(new.branch) at \(String(new.head.prefix(10))) (\(new.trigger.rawValue))",
      run: record.id)
    schedule(record)
    return record
  }

  /// Puts runs the store already holds as queued (after a restart) back in line, oldest first.
  func resume(_ runs: [RunRecord]) {
    for run in runs.sorted(by: { $0.id < $1.id }) { schedule(run) }
  }

  private func schedule(_ run: RunRecord) {
    let lane = SchedulerCore.Lane(repository: run.repository, branch: run.branch)
    apply(core.submit(run.id, lane: lane, cancelRunning: cancelsRunning(run)))
  }

  private func cancelsRunning(_ run: RunRecord) -> Bool {
    guard let settings = repositories[run.repository] else { return false }
    if case .workingTree = settings.source { return true }  // a newer save makes the running run moot
    return settings.branches.first { BranchMatcher.matches($0.pattern, run.branch) }?.cancelRunning ?? false
  }

  /// Cancels a queued or running run on request (`DELETE /api/runs/{id}`). False when it is not live.
  func cancel(_ id: Int64) -> Bool {
    if tasks[id] != nil {
      causes[id] = .cancelledByUser
      tasks[id]?.cancel()
      return true
    }
    guard let run = try? store.run(id), run.state == .queued else { return false }
    _ = try? store.finish(id, state: .cancelled, reason: "cancelled through the API")
    apply(core.withdraw(id))
    return true
  }

  private func apply(_ actions: [SchedulerCore.Action]) {
    for action in actions {
      switch action {
      case .start(let id): start(id)
      case .supersedePending(let id, let by):
        do {
          _ = try store.finish(id, state: .superseded, reason: "superseded by run \(by) before it started")
          log.info("superseded by run \(by) before it started", run: id)
          metrics.runFinished(
            repository: (try? store.run(id))?.repository ?? "", state: .superseded, duration: nil,
            selectedTestTargets: nil, totalTestTargets: nil)
        } catch {
          storeFailed(error, doing: "record run \(id) superseded")
        }
      case .cancelRunning(let id, let by):
        causes[id] = .superseded(by: by)
        log.info("a newer commit (run \(by)) supersedes it: cancelling", run: id)
        tasks[id]?.cancel()
      }
    }
    onChange(activity)
  }

  private func start(_ id: Int64) {
    let run: RunRecord
    let logFile: RunLogFile?
    do {
      guard let queued = try store.run(id) else { return apply(core.finished(id)) }
      let path = executor.paths.log(run: id)
      logFile = openLog(path, run: id)
      run = try store.markRunning(id, logPath: logFile?.path)
    } catch {
      storeFailed(error, doing: "start run \(id)")
      return apply(core.finished(id))
    }
    guard let settings = repositories[run.repository] else {
      _ = try? store.finish(id, state: .error, reason: "repository \(run.repository) is no longer configured")
      return apply(core.finished(id))
    }
    descriptions[id] = "run \(id) (\(run.repository)/\(run.branch) \(String(run.head.prefix(10))))"
    log.info("started \(run.repository)/\(run.branch) at \(String(run.head.prefix(10)))", run: id)
    statuses?.started(run)
    let executor = executor
    tasks[id] = Task {
      // The executor reports the repository's own `daemon.runTimeout` once it has read the work tree.
      let work = Task {
        await executor.execute(run, settings: settings, logFile: logFile) {
          await self.repositoryTimeLimit($0, run: id)
        }
      }
      let outcome = await withTaskCancellationHandler {
        await work.value
      } onCancel: {
        work.cancel()
      }
      logFile?.close()
      await self.completed(id, outcome: outcome)
    }
    timers[id] = RunTimer(startedAt: executor.services.clock.now(), limit: .daemon(settings.runTimeout), log: logFile)
    arm(.daemon(settings.runTimeout), run: id)
  }

  /// A running run's time limit, when it started, and the timer that stops it.
  private struct RunTimer {
    var startedAt: Date
    var limit: RunTimeLimit
    var log: RunLogFile?
    var task: Task<Void, Never>? = nil
  }

  /// Starts (or restarts) the run's one timer for `limit`, counted from the run's start.
  private func arm(_ limit: RunTimeLimit, run id: Int64) {
    guard var timer = timers[id] else { return }
    timer.task?.cancel()
    let clock = executor.services.clock
    let remaining = limit.remaining(after: .seconds(clock.now().timeIntervalSince(timer.startedAt)))
    timer.limit = limit
    timer.task = Task {
      guard (try? await clock.sleep(remaining)) != nil, !Task.isCancelled else { return }
      await self.timedOut(id, limit: limit)
    }
    timers[id] = timer
  }

  /// The repository's `ripple.yml` sets a `daemon.runTimeout`: when shorter than `rippled.yml`'s, it bounds the
  /// run from now on (still counted from its start). Returns once the timer is armed, before the tests start.
  private func repositoryTimeLimit(_ duration: Duration, run id: Int64) {
    guard tasks[id] != nil, causes[id] == nil, let current = timers[id]?.limit else { return }
    let limit = current.applying(repository: duration)
    guard limit != current else { return }
    log.info("the repository's \(limit.settingName) (\(limit.duration)) bounds the run", run: id)
    arm(limit, run: id)
  }

  /// The limit that applies passed: one outcome and one message whichever setting it came from; cancelling the
  /// run's task stops its process groups (SIGINT, SIGTERM, SIGKILL: `ProcessGroupReaper`).
  private func timedOut(_ id: Int64, limit: RunTimeLimit) {
    guard tasks[id] != nil, causes[id] == nil, timers[id]?.limit == limit else { return }
    causes[id] = .timedOut(limit)
    let message = "timed out after \(limit.duration) (\(limit.settingName)): stopping its process group"
    log.warning(message, run: id)
    timers[id]?.log?.line(message)
    tasks[id]?.cancel()
  }

  private func openLog(_ path: String, run id: Int64) -> RunLogFile? {
    do {
      let file = try RunLogFile(path: path, limit: maxLogBytes) { [health, log] problem in
        health.set("logs", problem)
        log.error(problem, run: id)
      }
      health.set("logs", nil)
      return file
    } catch {
      let problem =
        "cannot write run logs in \((path as NSString).deletingLastPathComponent): \(error.localizedDescription)"
      health.set("logs", problem)
      log.error(problem + "; the run goes on without a log", run: id)
      return nil
    }
  }

  private func completed(_ id: Int64, outcome: RunOutcome) {
    tasks[id] = nil
    descriptions[id] = nil
    timers.removeValue(forKey: id)?.task?.cancel()
    let cause = causes.removeValue(forKey: id)
    let (state, reason) = RunPlanning.ending(cause: cause, outcome: outcome)
    do {
      let record: RunRecord
      if state == .interrupted {
        record = try store.interrupt(id, reason: reason ?? "interrupted")
        // The work was not done: queue it again, once, for the next start.
        if record.attempt < 3 {
          _ = try store.enqueue(
            NewRun(
              repository: record.repository, branch: record.branch, head: record.head, trigger: .requeue,
              retryOf: id, attempt: record.attempt + 1))
        }
      } else {
        record = try store.finish(id, state: state, reason: reason)
        if case (nil, .retryLater) = (cause, outcome), record.attempt < 3 { retryLater(record) }
      }
      statuses?.finished(record)
      notifications?.finished(record)
      metrics.runFinished(
        repository: record.repository, state: state, duration: record.duration,
        selectedTestTargets: record.selectedTestTargets, totalTestTargets: record.totalTestTargets)
      metrics.flakyTests(repository: record.repository, count: (try? store.flakyTestCount(run: id)) ?? 0)
      if record.trigger == .canary {
        Canaries.recordMisses(
          of: record, store: store, metrics: metrics, log: log,
          isAncestorOrEqual: Canaries.ancestry(mirrorPath: executor.paths.mirror(record.repository), head: record.head))
      }
      let level: DaemonLog.Level = state == .passed || state == .superseded ? .info : .warning
      log.log(level, "\(state.rawValue)" + (reason.map { ": \($0)" } ?? ""), run: id)
    } catch {
      // Kept and written again by `retryStoreWrites` (the maintenance loop), so the run does not stay `running`.
      unrecorded[id] = (state, reason)
      storeFailed(error, doing: "record the end of run \(id)")
    }
    apply(core.finished(id))
    if tasks.isEmpty {
      for waiter in idleWaiters { waiter.resume() }
      idleWaiters.removeAll()
    }
  }

  /// After the store failed a write (a full disk, say): tries again. Records the endings it missed (their real
  /// outcome), clears the store's problem once a write goes through, and puts queued runs it could not start back
  /// in line. Called by the maintenance loop every few seconds while the daemon is unhealthy.
  func retryStoreWrites() {
    guard health.has(Self.storeProblem) || !unrecorded.isEmpty else { return }
    do {
      for (id, ending) in unrecorded.sorted(by: { $0.key < $1.key }) {
        let record =
          ending.state == .interrupted
          ? try store.interrupt(id, reason: ending.reason ?? "interrupted")
          : try store.finish(id, state: ending.state, reason: ending.reason)
        unrecorded[id] = nil
        statuses?.finished(record)
        notifications?.finished(record)
        log.info("recorded at last: \(ending.state.rawValue)", run: id)
      }
      try store.probeWrite()
    } catch {
      return storeFailed(error, doing: "write again")
    }
    health.set(Self.storeProblem, nil)
    log.info("the runs database takes writes again")
    let known = Set(core.runningIDs + core.pendingIDs)
    let stranded = ((try? store.queued()) ?? []).filter { !known.contains($0.id) }
    resume(stranded)
  }

  static let storeProblem = "store"

  /// Queues `run` again after `retryDelay`: it ended for want of file descriptors, which come back as
  /// connections close and other runs end.
  private func retryLater(_ run: RunRecord) {
    log.warning("queued again in \(retryDelay): the daemon was short of file descriptors", run: run.id)
    let delay = retryDelay
    Task {
      try? await Task.sleep(for: delay)
      _ = self.submit(
        NewRun(
          repository: run.repository, branch: run.branch, head: run.head, trigger: .requeue, retryOf: run.id,
          attempt: run.attempt + 1))
    }
  }

  private func storeFailed(_ error: any Error, doing what: String) {
    let problem = "the runs database failed to \(what): \(error)"
    health.set(Self.storeProblem, problem)
    log.error(problem)
  }

  /// Shutdown: nothing new starts; running runs get `grace` to finish, then are stopped and recorded
  /// `interrupted` (and re-queued for the next start). Returns when no run is left.
  func shutdown(grace: Duration) async {
    core.drain()
    onChange("stopping: \(activity)")
    guard !tasks.isEmpty else { return }
    log.info("waiting up to \(grace) for \(tasks.count) running run(s) to finish")
    let deadline = Task {
      try? await Task.sleep(for: grace)
      if !Task.isCancelled { await self.stopAll() }
    }
    await withCheckedContinuation { idleWaiters.append($0) }
    deadline.cancel()
  }

  private func stopAll() {
    for (id, task) in tasks where causes[id] == nil {
      causes[id] = .shutdown
      log.warning("grace period over: stopping its process group", run: id)
      task.cancel()
    }
  }
}
