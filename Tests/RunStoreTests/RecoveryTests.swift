import Foundation
import RunModel
import Testing

@testable import RunStore

@Suite("Recovery after a crash")
struct RecoveryTests {
  @Test func runningRunsAreInterruptedAndRequeuedExactlyOnce() throws {
    try withTempDirectory { directory in
      let path = directory + "/runs.sqlite"
      let clock = TestClock()
      var crashed: RunRecord
      var waiting: RunRecord
      var done: RunRecord
      do {
        // The daemon before its kill -9: one run running, one waiting, one finished.
        let store = try RunStore(path: path, now: clock.closure)
        done = try makeRun(store, in: .passed, head: "done")
        crashed = try makeRun(store, in: .running, head: "crashed", logPath: "/logs/2.log")
        waiting = try makeRun(store, in: .queued, head: "waiting")
      }
      clock.advance(100)
      let store = try RunStore(path: path, now: clock.closure)
      let (interrupted, requeued) = try store.recoverInterrupted()

      #expect(interrupted.map(\.id) == [crashed.id])
      let stopped = try #require(interrupted.first)
      #expect(stopped.state == .interrupted)
      #expect(stopped.reason == "the daemon stopped while it ran")
      #expect(sameMillisecond(stopped.finishedAt, clock.now))
      #expect(try store.run(crashed.id) == stopped)

      #expect(requeued.count == 1)
      let retry = try #require(requeued.first)
      #expect(retry.state == .queued && retry.trigger == .requeue)
      #expect(retry.retryOf == crashed.id && retry.attempt == 2)
      #expect(retry.repository == crashed.repository && retry.branch == crashed.branch && retry.head == "crashed")
      #expect(retry.id > waiting.id)

      // The journal of both runs says what happened.
      let journal = try #require(try store.detail(crashed.id)).transitions
      #expect(journal.last?.from == .running && journal.last?.to == .interrupted)
      #expect(journal.last?.note == "the daemon stopped while it ran")
      let retryJournal = try #require(try store.detail(retry.id)).transitions
      #expect(retryJournal.count == 1)
      #expect(retryJournal.first?.note == "re-queued: run \(crashed.id) was interrupted (attempt 2 of 3)")

      // Queued and finished runs are untouched; the queue holds the waiting run, then the retry.
      #expect(try store.run(waiting.id) == waiting)
      #expect(try store.run(done.id) == done)
      #expect(try store.queued().map(\.id) == [waiting.id, retry.id])

      // A second call (or a second start) finds nothing to do.
      let again = try store.recoverInterrupted()
      #expect(again.interrupted.isEmpty && again.requeued.isEmpty)
      #expect(try RunStore(path: path).recoverInterrupted().requeued.isEmpty)
      #expect(try store.runs().count == 4)
    }
  }

  @Test func anInterruptedRunIsNotQueuedAgainWhenANewerRunOfItsCommitIsQueuedOrRunning() throws {
    try withStore { store, _ in
      // A run, then a re-run of the same commit already queued when the daemon was killed.
      let older = try makeRun(store, in: .running, head: "same")
      let newer = try makeRun(store, in: .queued, head: "same")
      // On another branch, the same commit: not the same work.
      let otherBranch = try makeRun(store, in: .running, branch: "dev", head: "same")
      // Two running runs of one commit (a re-run started beside it): only the newest is queued again.
      let first = try makeRun(store, in: .running, branch: "rel", head: "r")
      let second = try makeRun(store, in: .running, branch: "rel", head: "r")
      let (interrupted, requeued) = try store.recoverInterrupted()
      #expect(Set(interrupted.map(\.id)) == [older.id, otherBranch.id, first.id, second.id])
      #expect(Set(requeued.compactMap(\.retryOf)) == [otherBranch.id, second.id])
      #expect(try store.queued().map(\.id).contains(newer.id))
      #expect(try store.queued().count == 3)
    }
  }

  @Test func theAttemptLimitStopsRequeueing() throws {
    try withStore { store, _ in
      var current = try makeRun(store, in: .running, head: "flaky-crash")
      var attempts = [current.attempt]
      while true {
        let (interrupted, requeued) = try store.recoverInterrupted(maxAttempts: 3)
        #expect(interrupted.map(\.id) == [current.id])
        guard let next = requeued.first else { break }
        #expect(requeued.count == 1)
        #expect(next.retryOf == current.id)
        attempts.append(next.attempt)
        current = try store.markRunning(next.id, logPath: nil)
      }
      #expect(attempts == [1, 2, 3])
      #expect(try store.queued().isEmpty)
      #expect(try store.countsByState()[.interrupted] == 3)
    }
  }

  @Test func severalRunningRunsAreRecoveredTogether() throws {
    try withStore { store, _ in
      let a = try makeRun(store, in: .running, head: "a")
      let b = try makeRun(store, in: .running, branch: "dev", head: "b")
      let (interrupted, requeued) = try store.recoverInterrupted(maxAttempts: 1)
      #expect(Set(interrupted.map(\.id)) == [a.id, b.id])
      #expect(requeued.isEmpty)
      let more = try makeRun(store, in: .running, head: "c")
      let second = try store.recoverInterrupted(maxAttempts: 2)
      #expect(second.interrupted.map(\.id) == [more.id])
      #expect(second.requeued.map(\.retryOf) == [more.id])
    }
  }

  @Test func twoStoresRecoveringTogetherRequeueOnce() async throws {
    try await withTempDirectoryAsync { directory in
      let path = directory + "/runs.sqlite"
      let first = try RunStore(path: path)
      let second = try RunStore(path: path)
      for index in 0..<20 { try makeRun(first, in: .running, head: "h\(index)") }
      async let a = Task.detached { try first.recoverInterrupted() }.value
      async let b = Task.detached { try second.recoverInterrupted() }.value
      let results = try await [a, b]
      #expect(results.map(\.interrupted.count).reduce(0, +) == 20)
      #expect(results.map(\.requeued.count).reduce(0, +) == 20)
      #expect(Set(try first.queued().compactMap(\.retryOf)).count == 20)
    }
  }
}

func withTempDirectoryAsync<T>(_ body: (String) async throws -> T) async throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("RunStoreTests-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  return try await body(directory)
}
