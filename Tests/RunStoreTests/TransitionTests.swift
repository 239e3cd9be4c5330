import Foundation
import RippleCore
import RunModel
import Testing

@testable import RunStore

/// The transitions the design allows, written out (not derived from `canMove`, so a change to it fails here).
let legalTransitions: Set<[RunState]> = [
  [.queued, .running], [.queued, .superseded], [.queued, .cancelled],
  [.running, .passed], [.running, .failed], [.running, .error], [.running, .superseded], [.running, .cancelled],
  [.running, .interrupted],
]

let allPairs = RunState.allCases.flatMap { from in RunState.allCases.map { to in (from, to) } }

/// Moves `run` to `state` through the API that enters that state.
@discardableResult
func move(_ store: RunStore, _ id: Int64, to state: RunState) throws(RunStoreError) -> RunRecord {
  switch state {
  case .running: try store.markRunning(id, logPath: "/logs/\(id).log")
  default: try store.finish(id, state: state, reason: "moved to \(state.rawValue)")
  }
}

@Suite("State changes and their journal")
struct TransitionTests {
  @Test(arguments: allPairs.filter { legalTransitions.contains([$0.0, $0.1]) })
  func legalTransitionsChangeTheRunAndJournalIt(from: RunState, to: RunState) throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      let before = try makeRun(store, in: from)
      clock.advance(5)
      let after = try move(store, before.id, to: to)
      #expect(after.state == to)
      #expect(try store.run(before.id) == after)
      if to == .running {
        #expect(sameMillisecond(after.startedAt, clock.now))
        #expect(after.logPath == "/logs/\(before.id).log")
        #expect(after.finishedAt == nil && after.reason == nil)
      } else {
        #expect(sameMillisecond(after.finishedAt, clock.now))
        #expect(after.reason == "moved to \(to.rawValue)")
        #expect(after.startedAt == before.startedAt)
      }
      let last = try #require(try store.detail(before.id)?.transitions.last)
      #expect(last.runID == before.id)
      #expect(last.from == from && last.to == to)
      #expect(sameMillisecond(last.at, clock.now))
    }
  }

  @Test(arguments: allPairs.filter { !legalTransitions.contains([$0.0, $0.1]) })
  func illegalTransitionsThrowAndChangeNothing(from: RunState, to: RunState) throws {
    try withStore { store, _ in
      let before = try makeRun(store, in: from)
      let journal = try #require(try store.detail(before.id)).transitions
      let error = #expect(throws: RunStoreError.self) { try move(store, before.id, to: to) }
      #expect(error == .illegalTransition(run: before.id, from: from, to: to))
      #expect(error?.category == .internal)
      #expect(try store.run(before.id) == before)
      #expect(try store.detail(before.id)?.transitions == journal)
    }
  }

  @Test func finishRefusesALiveStateEvenWhenTheMoveIsLegal() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .queued)
      let error = #expect(throws: RunStoreError.self) { try store.finish(run.id, state: .running, reason: nil) }
      #expect(error == .illegalTransition(run: run.id, from: .queued, to: .running))
      #expect(try store.run(run.id) == run)
      #expect(try store.detail(run.id)?.transitions.count == 1)
    }
  }

  @Test func interruptMovesOnlyARunningRun() throws {
    try withStore { store, _ in
      let running = try makeRun(store, in: .running)
      let interrupted = try store.interrupt(running.id, reason: "stopped after the 30s grace period")
      #expect(interrupted.state == .interrupted)
      #expect(interrupted.reason == "stopped after the 30s grace period")
      #expect(try store.queued().isEmpty)

      let queued = try makeRun(store, in: .queued)
      let error = #expect(throws: RunStoreError.self) { try store.interrupt(queued.id, reason: "x") }
      #expect(error == .illegalTransition(run: queued.id, from: .queued, to: .interrupted))
      #expect(try store.run(queued.id)?.state == .queued)
    }
  }

  @Test func theJournalKeepsEveryChangeInOrderWithItsNote() throws {
    let clock = TestClock()
    try withStore(clock: clock) { store, _ in
      let t0 = clock.now
      let run = try store.enqueue(newRun(head: "abc123", trigger: .webhook))
      #expect(run.state == .queued && run.trigger == .webhook && run.attempt == 1 && run.retryOf == nil)
      #expect(sameMillisecond(run.queuedAt, t0))
      clock.advance(2)
      _ = try store.markRunning(run.id, logPath: "/logs/1.log")
      clock.advance(30)
      let finished = try store.finish(run.id, state: .failed, reason: "2 tests failed")
      #expect(finished.reason == "2 tests failed")
      #expect(abs((finished.duration ?? 0) - 30) < 0.001)
      // Another run's changes do not appear in this run's journal.
      try makeRun(store, in: .passed, head: "other")

      let journal = try #require(try store.detail(run.id)).transitions
      #expect(journal.map(\.from) == [nil, .queued, .running])
      #expect(journal.map(\.to) == [.queued, .running, .failed])
      #expect(journal.map(\.note) == [nil, nil, "2 tests failed"])
      #expect(zip(journal.map(\.at), [t0, t0 + 2, t0 + 32]).allSatisfy { sameMillisecond($0, $1) })
      #expect(journal.allSatisfy { $0.runID == run.id })
    }
  }

  @Test func unknownRunIDsAreInternalErrors() throws {
    try withStore { store, _ in
      try makeRun(store, in: .queued)
      let missing: Int64 = 4242
      let attempts: [(String, () throws(RunStoreError) -> Void)] = [
        ("markRunning", { () throws(RunStoreError) in _ = try store.markRunning(missing, logPath: nil) }),
        ("finish", { () throws(RunStoreError) in _ = try store.finish(missing, state: .passed, reason: nil) }),
        ("interrupt", { () throws(RunStoreError) in _ = try store.interrupt(missing, reason: "x") }),
        (
          "recordAnalysis",
          { () throws(RunStoreError) in
            try store.recordAnalysis(
              missing,
              RunAnalysis(
                base: nil, changedFiles: [], targets: [], edges: [], selectedTestTargets: 0, totalTestTargets: 0)
            )
          }
        ),
        ("recordResults", { () throws(RunStoreError) in try store.recordResults(missing, [], failedTests: 0) }),
        (
          "enqueue retryOf",
          { () throws(RunStoreError) in
            _ = try store.enqueue(
              NewRun(repository: "app", branch: "main", head: "h", trigger: .requeue, retryOf: missing))
          }
        ),
      ]
      for (name, attempt) in attempts {
        let error = #expect(throws: RunStoreError.self, "\(name)") { try attempt() }
        #expect(error == .unknownRun(missing), "\(name)")
        #expect(error?.category == .internal, "\(name)")
        #expect(error?.description.contains("no run 4242") == true, "\(name)")
      }
      #expect(try store.run(missing) == nil)
      #expect(try store.detail(missing) == nil)
      #expect(try store.runs().count == 1)
    }
  }

  @Test func invalidArgumentsAreRefusedBeforeWriting() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      #expect(throws: RunStoreError.invalidArgument("a new run has an empty repository")) {
        try store.enqueue(newRun(repository: ""))
      }
      #expect(throws: RunStoreError.invalidArgument("a new run has attempt 0 (must be 1 or more)")) {
        try store.enqueue(NewRun(repository: "a", branch: "b", head: "c", trigger: .api, attempt: 0))
      }
      let twice = RunTarget(package: ".", name: "A", kind: "library", isTest: false, reasons: [])
      #expect(throws: RunStoreError.invalidArgument("the analysis of run \(run.id) lists target .:A twice")) {
        try store.recordAnalysis(
          run.id,
          RunAnalysis(
            base: nil, changedFiles: [], targets: [twice, twice], edges: [], selectedTestTargets: 0,
            totalTestTargets: 0))
      }
      #expect(throws: RunStoreError.self) { try store.recordDelivery("") }
      #expect(throws: RunStoreError.self) { try store.prune(maxRuns: -1, maxAge: .seconds(1)) }
      #expect(try store.runs().count == 1)
      #expect(try store.detail(run.id)?.analysis == nil)
    }
  }
}
