import DaemonSources
import DaemonSupport
import Foundation
import Git
import RippleConfig
import RunModel
import RunStore
import ServiceLifecycle
import ServiceMetrics

/// When a canary (a full run of the primary branch) is due. Pure; docs/DESIGN.md, "Canary runs and selection
/// misses".
enum CanarySchedule {
  /// Due when the branch has a known head, no run of it is queued or running (a canary never supersedes or
  /// waits behind a selective run), and the newest canary that ran to the end (passed or failed) was queued
  /// `every` ago or more, or there is none.
  static func isDue(
    lastCompleted: RunRecord?, branchBusy: Bool, hasHead: Bool, every: Duration, now: Date
  ) -> Bool {
    guard hasHead, !branchBusy else { return false }
    guard let lastCompleted else { return true }
    let seconds = Double(every.components.seconds) + Double(every.components.attoseconds) / 1e18
    return now.timeIntervalSince(lastCompleted.queuedAt) >= seconds
  }
}

/// Queues canaries when due (checked every minute by `CanaryService`) and, when one ends, records the misses it
/// found.
struct Canaries: Sendable {
  var repositories: [RepositorySettings]
  var store: RunStore
  var runs: RunControl
  var clock: DaemonClock
  var log: DaemonLog

  /// One check of every repository with `canary:`; the runs it queued.
  @discardableResult
  func check() async -> [RunRecord] {
    var queued: [RunRecord] = []
    for settings in repositories {
      guard let canary = settings.canary else { continue }
      let name = settings.name
      let due: Bool
      let head: String?
      do {
        head = try store.lastHead(repository: name, branch: canary.branch)
        let busy =
          !(try store.runs(
            repository: name, branch: canary.branch, states: [.queued, .running], limit: 1
          ).isEmpty)
        let last = try store.lastCanary(repository: name, branch: canary.branch, completed: true)
        due = CanarySchedule.isDue(
          lastCompleted: last, branchBusy: busy, hasHead: head != nil, every: canary.every, now: clock.now())
      } catch {
        log.error("cannot check the canary of \(name)/\(canary.branch): \(error)")
        continue
      }
      guard due, let head else { continue }
      if let run = await runs.submit(NewRun(repository: name, branch: canary.branch, head: head, trigger: .canary)) {
        log.info("queued the canary of \(name)/\(canary.branch) (every \(canary.every))", run: run.id)
        queued.append(run)
      }
    }
    return queued
  }

  /// After a canary passed or failed: its misses, by the rule, recorded and counted. `isAncestorOrEqual` answers
  /// from the repository's mirror.
  static func recordMisses(
    of canary: RunRecord, store: RunStore, metrics: DaemonMetrics, log: DaemonLog,
    isAncestorOrEqual: (String) -> Bool
  ) {
    guard canary.trigger == .canary, canary.state == .passed || canary.state == .failed else { return }
    do {
      let inputs = try store.missInputs(canary: canary)
      let misses = MissRule.misses(
        canary: canary, failing: inputs.failing, window: inputs.window, isAncestorOrEqual: isAncestorOrEqual)
      try store.recordMisses(misses)
      metrics.selectionMisses(repository: canary.repository, count: misses.count)
      if !misses.isEmpty {
        let targets = Set(misses.map(\.target)).sorted().joined(separator: ", ")
        log.warning("the canary found \(misses.count) selection miss(es): \(targets)", run: canary.id)
      }
    } catch {
      log.error("cannot record the selection misses of canary \(canary.id): \(error)", run: canary.id)
    }
  }

  /// Whether `commit` is `head` or one of its ancestors in the mirror at `mirrorPath` (false when unknown).
  static func ancestry(mirrorPath: String, head: String) -> (String) -> Bool {
    let repository = try? GitRepository.open(at: mirrorPath)
    return { commit in
      guard let repository else { return false }
      return (try? repository.isAncestor(ObjectID(hex: commit), of: ObjectID(hex: head))) ?? false
    }
  }
}

/// Runs `Canaries.check` every minute until shutdown.
struct CanaryService: Service {
  var canaries: Canaries
  var started: Latch
  var interval: Duration = .seconds(60)

  func run() async throws {
    guard await cancelWhenGracefulShutdown({ await started.wait() }) else { return }
    await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        await canaries.check()
        do { try await canaries.clock.sleep(interval) } catch { return }
      }
    }
  }
}
