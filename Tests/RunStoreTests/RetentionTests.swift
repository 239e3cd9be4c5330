import Foundation
import RunModel
import Testing

@testable import RunStore

@Suite("Webhook deliveries and retention")
struct RetentionTests {
  @Test func deliveriesAreNewOnlyOnce() throws {
    try withStore { store, _ throws in
      #expect(try store.recordDelivery("72d3162e-cc78-11e3-81ab-4c9367dc0958"))
      #expect(try store.recordDelivery("72d3162e-cc78-11e3-81ab-4c9367dc0958") == false)
      #expect(try store.recordDelivery("another"))
      #expect(try store.recordDelivery("another") == false)
    }
  }

  @Test func onlyTheNewestDeliveriesAreRemembered() throws {
    try withTempDirectory { directory in
      let store = try RunStore(path: directory + "/runs.sqlite", deliveriesKept: 3, now: { Date() })
      for id in ["d1", "d2", "d3", "d4"] { #expect(try store.recordDelivery(id)) }
      #expect(try count(store, "SELECT COUNT(*) FROM deliveries") == 3)
      #expect(try store.recordDelivery("d4") == false)
      #expect(try store.recordDelivery("d2") == false)
      #expect(try store.recordDelivery("d1"))  // forgotten, so new again; d2 is now the oldest and goes
      #expect(try store.recordDelivery("d3") == false)
      #expect(try store.recordDelivery("d4") == false)
      #expect(try store.recordDelivery("d1") == false)
      #expect(try store.recordDelivery("d2"))
      #expect(try count(store, "SELECT COUNT(*) FROM deliveries") == 3)
    }
  }

  @Test func pruneKeepsTheNewestRunsAndEveryLiveOne() throws {
    try withStore { store, _ in
      let oldRunning = try makeRun(store, in: .running, head: "old-running", logPath: "/logs/running.log")
      let oldQueued = try makeRun(store, in: .queued, head: "old-queued")
      var finished: [RunRecord] = []
      for index in 0..<10 {
        let run = try makeRun(store, in: .passed, head: "h\(index)", logPath: index == 3 ? nil : "/logs/\(index).log")
        try store.recordAnalysis(run.id, sampleAnalysis)
        finished.append(run)
      }
      // A retry of a run that gets pruned survives, without its link.
      let retried = finished[1]
      let retry = try store.enqueue(
        NewRun(repository: "app", branch: "main", head: "h1", trigger: .requeue, retryOf: retried.id, attempt: 2))
      let cancelled = try store.finish(retry.id, state: .cancelled, reason: "superseded by policy")

      // Newest 5 runs: the cancelled retry and finished[6...9].
      let logs = try store.prune(maxRuns: 5, maxAge: .seconds(86_400 * 365))
      #expect(Set(logs) == Set(["/logs/0.log", "/logs/1.log", "/logs/2.log", "/logs/4.log", "/logs/5.log"]))
      #expect(logs.count == 5)
      let left = try store.runs(limit: 100).map(\.id)
      #expect(left == [cancelled.id] + finished[6...].map(\.id).reversed() + [oldQueued.id, oldRunning.id])
      for run in finished[..<6] {
        #expect(try store.detail(run.id) == nil)
        #expect(try count(store, "SELECT COUNT(*) FROM transitions WHERE runID = \(run.id)") == 0)
        #expect(try count(store, "SELECT COUNT(*) FROM targets WHERE runID = \(run.id)") == 0)
        #expect(try count(store, "SELECT COUNT(*) FROM edges WHERE runID = \(run.id)") == 0)
        #expect(try count(store, "SELECT COUNT(*) FROM analyses WHERE runID = \(run.id)") == 0)
      }
      #expect(try store.run(cancelled.id)?.retryOf == nil)
      #expect(try store.detail(finished[9].id)?.analysis == sampleAnalysis)
      // Nothing more to do.
      #expect(try store.prune(maxRuns: 5, maxAge: .seconds(86_400 * 365)).isEmpty)
      // Keeping nothing still keeps the live runs.
      _ = try store.prune(maxRuns: 0, maxAge: .seconds(86_400 * 365))
      #expect(try store.runs().map(\.id) == [oldQueued.id, oldRunning.id])
    }
  }

  @Test func pruneDeletesRunsThatFinishedTooLongAgo() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      let ancient = try makeRun(store, in: .failed, head: "ancient", logPath: "/logs/ancient.log")
      let longRunning = try makeRun(store, in: .running, head: "long-running")
      let waiting = try makeRun(store, in: .queued, head: "waiting")
      clock.advance(3 * 86_400)
      let old = try makeRun(store, in: .cancelled, head: "old")
      // Queued long ago, finished recently: its age counts from the finish.
      let lateFinish = try store.finish(waiting.id, state: .superseded, reason: "superseded by run 9")
      clock.advance(2 * 86_400)
      let recent = try makeRun(store, in: .passed, head: "recent", logPath: "/logs/recent.log")

      // Now: ancient finished 5 days ago, old and lateFinish 2 days ago, recent now.
      #expect(try store.prune(maxRuns: 1_000, maxAge: .seconds(4 * 86_400)) == ["/logs/ancient.log"])
      #expect(try store.run(ancient.id) == nil)
      #expect(try store.prune(maxRuns: 1_000, maxAge: .seconds(86_400)).isEmpty)
      #expect(Set(try store.runs().map(\.id)) == [longRunning.id, recent.id])
      #expect(try store.run(old.id) == nil && store.run(lateFinish.id) == nil)
    }
  }

  @Test func pruneWorksThroughMoreRunsThanOneBatch() throws {
    try withStore { store, _ in
      let total = RunStore.pruneBatch * 2 + 37
      let seeded = try store.seed(
        (0..<total).map { (new: newRun(head: "h\($0)"), states: [.running, .passed]) }, at: Date())
      try makeRun(store, in: .running, head: "live")
      #expect(try store.prune(maxRuns: 10, maxAge: .seconds(86_400)).isEmpty)  // seeded runs have no log
      #expect(try store.runs(limit: 10_000).count == 10)
      #expect(try store.runs(limit: 10_000).last?.id == seeded[total - 9].id)
      #expect(try count(store, "SELECT COUNT(*) FROM transitions") == 9 * 3 + 2)
    }
  }
}

@Suite("Several connections")
struct ConcurrencyTests {
  @Test func storesOpeningANewFileTogetherAllSucceed() async throws {
    try await withTempDirectoryAsync { directory in
      let path = directory + "/fresh/runs.sqlite"
      let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
        for index in 0..<6 {
          group.addTask { try RunStore(path: path).enqueue(newRun(head: "h\(index)")).id }
        }
        return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
      }
      #expect(ids.count == 6)
      #expect(try RunStore(path: path).runs().count == 6)
    }
  }

  @Test func twoStoresOnOneFileWriteFromManyTasks() async throws {
    try await withTempDirectoryAsync { directory in
      let path = directory + "/runs.sqlite"
      let stores = [try RunStore(path: path), try RunStore(path: path)]
      try await withThrowingTaskGroup(of: [Int64].self) { group in
        for worker in 0..<6 {
          let store = stores[worker % 2]
          group.addTask {
            var ids: [Int64] = []
            for index in 0..<25 {
              let run = try store.enqueue(newRun(branch: "b\(worker)", head: "w\(worker)-\(index)"))
              _ = try store.markRunning(run.id, logPath: nil)
              _ = try store.finish(run.id, state: .passed, reason: nil)
              _ = try store.runs(branch: "b\(worker)", limit: 5)
              ids.append(run.id)
            }
            return ids
          }
        }
        var all: [Int64] = []
        for try await ids in group { all += ids }
        #expect(Set(all).count == 150)
      }
      for store in stores {
        #expect(try store.countsByState()[.passed] == 150)
        #expect(try count(store, "SELECT COUNT(*) FROM transitions") == 450)
        try store.checkIntegrity()
      }
    }
  }
}
