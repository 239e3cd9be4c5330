import DaemonSupport
import Foundation
import Git
import RippleConfig
import RippleCore
import RunModel
import RunStore
import ServiceMetrics
import SystemClients

/// Follows the branches of one remote: fetches on an interval (and whenever woken by a webhook or the API),
/// and queues a run for every followed branch whose head is new to the store.
///
/// Fetches run in a child process (`rippled fetch-mirror`) with a hard deadline: libgit2 1.5 has no network
/// timeout, and a child can be killed where a thread blocked in a socket read cannot.
package final class BranchSource: Sendable {
  package let settings: RepositorySettings
  private let url: String
  private let paths: DaemonPaths
  private let store: RunStore
  private let scheduler: RunControl
  private let process: ProcessClient
  private let fetcherExecutable: String
  private let log: DaemonLog
  private let metrics: DaemonMetrics
  private let health: HealthBoard
  private let wakeUp: AsyncStream<Void>.Continuation
  private let wakeUps: AsyncStream<Void>
  private let state = Locked(State())
  private let fetchGate = AsyncLock()

  struct State {
    var lastCheck: Date?
    var lastError: String?
    var heads: [String: String] = [:]
    var failures = 0
    /// When a failure was last logged: a mirror that keeps failing logs once a minute, not every fetch.
    var failureLogged: Date?
  }

  package init(
    settings: RepositorySettings, url: String, paths: DaemonPaths, store: RunStore, scheduler: RunControl,
    process: ProcessClient, fetcherExecutable: String, log: DaemonLog, metrics: DaemonMetrics, health: HealthBoard
  ) {
    self.settings = settings
    self.url = url
    self.paths = paths
    self.store = store
    self.scheduler = scheduler
    self.process = process
    self.fetcherExecutable = fetcherExecutable
    self.log = log
    self.metrics = metrics
    self.health = health
    (wakeUps, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  package var status: RepositoryStatus {
    state.withLock {
      RepositoryStatus(
        name: settings.name, source: "remote \(Redaction.url(url))", lastCheck: $0.lastCheck, lastError: $0.lastError,
        heads: $0.heads)
    }
  }

  /// Asks for a fetch as soon as possible (webhook, API). Several requests before it starts make one fetch.
  package func requestFetch() { wakeUp.yield() }

  package func matchesRemote(_ candidates: [String]) -> Bool {
    let mine = RemoteURL.normalized(url)
    return candidates.contains { RemoteURL.normalized($0) == mine }
  }

  /// Whether the mirror holds `commit` (a full sha).
  package func hasCommit(_ commit: String) -> Bool {
    guard let mirror = try? GitRepository.open(at: paths.mirror(settings.name)) else { return false }
    return (try? mirror.resolveCommit(commit).hex) == commit
  }

  /// The subjects and authors of `commits` (full hex ids) as the mirror holds them, for the pages: a commit it
  /// does not hold is `CommitSummary.unknown` (recorded, so not asked again), one that is not a full commit id is
  /// left out, and nothing is answered when the mirror cannot be opened (asked again on the next page).
  package func commitSummaries(_ commits: [String]) -> [String: CommitSummary] {
    guard let mirror = try? GitRepository.open(at: paths.mirror(settings.name)) else { return [:] }
    var summaries: [String: CommitSummary] = [:]
    for commit in Set(commits) where commit.utf8.count == 40 && commit.utf8.allSatisfy(Self.isLowerHex) {
      do {
        summaries[commit] = try mirror.commitSummary(ObjectID(hex: commit))
      } catch GitError.missingCommit, GitError.shallowMissingCommit {
        summaries[commit] = .unknown
      } catch {
        continue
      }
    }
    return summaries
  }

  private static func isLowerHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }

  /// One fetch and the runs it queues; the first call is part of start-up (READY waits for it). Fetches of
  /// one mirror never overlap (the timer, a webhook and the API may all ask at once).
  package func poll() async {
    await fetchGate.withLock { await pollOnce() }
  }

  private func pollOnce() async {
    let started = ContinuousClock.now
    do {
      let summary = try await fetch()
      metrics.fetchCompleted(repository: settings.name, failed: false)
      let recovered = state.withLock {
        let failures = $0.failures
        $0.lastCheck = Date()
        $0.lastError = nil
        $0.failures = 0
        $0.failureLogged = nil
        $0.heads = summary.heads
        return failures
      }
      if recovered > 0 { log.info("fetch of \(settings.name) works again after \(recovered) failures") }
      health.set("fetch:\(settings.name)", nil)
      log.debug("fetched \(settings.name) in \(ContinuousClock.now - started): \(summary.updated.count) moved")
      await queueNewHeads(summary.heads)
    } catch {
      metrics.fetchCompleted(repository: settings.name, failed: true)
      let message = (error as? any RippleError)?.description ?? "\(error)"
      let now = Date()
      let (failures, say) = state.withLock {
        $0.lastCheck = now
        $0.lastError = message
        $0.failures += 1
        let say = FetchFailureLog.shouldLog(failures: $0.failures, lastLogged: $0.failureLogged, now: now)
        if say { $0.failureLogged = now }
        return ($0.failures, say)
      }
      if say { log.warning("fetch of \(settings.name) failed (\(failures) in a row): \(message)") }
    }
  }

  private func queueNewHeads(_ heads: [String: String]) async {
    for (branch, head) in heads.sorted(by: { $0.key < $1.key }) {
      guard BranchMatcher.rule(for: branch, in: settings.branches) != nil else { continue }
      do {
        if try store.lastHead(repository: settings.name, branch: branch) == head { continue }
      } catch {
        health.set("store", "the runs database failed to read \(settings.name)/\(branch): \(error)")
        continue
      }
      _ = await scheduler.submit(NewRun(repository: settings.name, branch: branch, head: head, trigger: .fetch))
    }
  }

  /// Runs until cancelled: a fetch every interval (backing off after failures), and one whenever woken.
  /// Wake-ups that arrive during a fetch collapse into one more fetch.
  package func run() async {
    let ticker = Task { [self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: nextDelay())
        wakeUp.yield()
      }
    }
    defer { ticker.cancel() }
    for await _ in wakeUps {
      if Task.isCancelled { return }
      await poll()
    }
  }

  /// The interval with ±10 % jitter (so many daemons do not fetch in step); after failures, exponential
  /// backoff from 5 s, capped at the interval, with ±20 % jitter.
  func nextDelay() -> Duration {
    let failures = state.withLock { $0.failures }
    return Self.delay(interval: settings.fetchInterval, failures: failures, random: Double.random(in: 0..<1))
  }

  static func delay(interval: Duration, failures: Int, random: Double) -> Duration {
    if failures == 0 { return interval * (0.9 + 0.2 * random) }
    let backoff = min(interval, .seconds(5) * Double(1 << min(failures - 1, 16)))
    return backoff * (0.8 + 0.4 * random)
  }

  private func fetch() async throws -> FetchReport {
    let request = ProcessRequest(
      fetcherExecutable,
      [
        "fetch-mirror", "--mirror", paths.mirror(settings.name), "--url", url,
        "--timeout-ms", String(settings.fetchTimeout.milliseconds),
      ],
      // The child's own deadline aborts on progress; this one kills it when the network is silent.
      timeout: settings.fetchTimeout + .seconds(5))
    let result = try await process.run(request)
    guard result.succeeded else {
      // Shown on the dashboard: a remote's `user:token@` or query string never is.
      let detail = Redaction.text(FetchFailure.childMessage(result.errorString))
      throw FetchFailure(description: detail.isEmpty ? "fetcher exited with status \(result.exitStatus)" : detail)
    }
    return try JSONDecoder().decode(FetchReport.self, from: result.standardOutput)
  }
}

struct FetchFailure: RippleError {
  var description: String
  var category: ErrorCategory { .environment }

  /// The fetcher's stderr without what it adds for journald (`<3>rippled: error: ` before its error): the
  /// daemon's log line carries its own priority, one per line.
  static func childMessage(_ standardError: String) -> String {
    return standardError.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var text = line.drop { $0 == " " }
      if text.first == "<", let end = text.firstIndex(of: ">"),
        text[text.index(after: text.startIndex)..<end].allSatisfy(\.isNumber)
      {
        text = text[text.index(after: end)...]
      }
      if text.hasPrefix("rippled: error: ") { text = text.dropFirst("rippled: error: ".count) }
      return String(text)
    }.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

extension Duration {
  var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

/// A lock for async code: callers wait their turn without blocking a thread.
final class AsyncLock: Sendable {
  private struct State {
    var locked = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = Locked(State())

  func withLock<T: Sendable>(_ body: () async -> T) async -> T {
    await acquire()
    let result = await body()
    release()
    return result
  }

  private func acquire() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let granted = state.withLock { state in
        if state.locked {
          state.waiters.append(continuation)
          return false
        }
        state.locked = true
        return true
      }
      if granted { continuation.resume() }
    }
  }

  private func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.waiters.isEmpty {
        state.locked = false
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}

/// When a failing fetch is logged: its first failure, then at most once a minute until it works again (a
/// `fetchInterval` of seconds otherwise wrote a line per fetch, forever). The health board and `/metrics` still
/// see every failure.
enum FetchFailureLog {
  static let interval: TimeInterval = 60

  static func shouldLog(failures: Int, lastLogged: Date?, now: Date) -> Bool {
    guard failures > 1, let lastLogged else { return true }
    return now.timeIntervalSince(lastLogged) >= interval
  }
}
