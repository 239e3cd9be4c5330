import Foundation
import RippleCore
import Testing

@testable import FileWatch

/// The settle rule, with made-up instants: no sleeping.
struct SettleWindowTests {
  let start = ContinuousClock.now
  func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

  @Test func aBatchIsDueAWindowAfterTheLastEvent() {
    var window = SettleWindow<ContinuousClock.Instant>(window: .milliseconds(200), maxDelay: .seconds(5))
    #expect(window.deadline == nil)
    #expect(window.takeIfDue(at: at(10_000)) == nil)

    window.add(.changed(["a"]), at: at(0))
    window.add(.changed(["b", "a"]), at: at(150))
    #expect(window.deadline == at(350))
    #expect(window.takeIfDue(at: at(349)) == nil)
    window.add(.changed(["c"]), at: at(300))
    #expect(window.takeIfDue(at: at(350)) == nil)
    let batch = window.takeIfDue(at: at(500))
    #expect(batch == SettledBatch(paths: ["a", "b", "c"], eventCount: 3))
    #expect(window.deadline == nil)
    #expect(window.takeIfDue(at: at(1000)) == nil)
  }

  @Test func aNeverEndingBurstIsCutAtMaxDelay() {
    var window = SettleWindow<ContinuousClock.Instant>(window: .milliseconds(200), maxDelay: .seconds(1))
    var batches: [SettledBatch] = []
    // An event every 100 ms for 3 s never leaves 200 ms of quiet.
    for milliseconds in stride(from: 0, to: 3000, by: 100) {
      if let batch = window.takeIfDue(at: at(milliseconds)) { batches.append(batch) }
      window.add(.changed(["f\(milliseconds)"]), at: at(milliseconds))
    }
    // Cut at 1000 ms (0...900) and 2000 ms (1000...1900), each time 1 s after the burst's first event.
    #expect(batches.map(\.eventCount) == [10, 10])
    #expect(window.deadline == at(2000 + 1000))
  }

  @Test func rescansAreMergedWithTheirReasons() {
    var window = SettleWindow<ContinuousClock.Instant>(window: .milliseconds(200), maxDelay: .seconds(1))
    window.add(.rescan(reason: "overflow"), at: at(0))
    window.add(.changed(["a"]), at: at(10))
    window.add(.rescan(reason: "overflow"), at: at(20))
    window.add(.rescan(reason: "limit"), at: at(30))
    #expect(window.take() == SettledBatch(paths: ["a"], rescan: true, reasons: ["overflow", "limit"], eventCount: 4))
    #expect(window.take() == nil)
  }
}

/// The async wrapper, on the real clock with a short window and generous waits.
struct SettledStreamTests {
  final class BatchRecorder: Sendable {
    let batches = Locked<[SettledBatch]>([])
    let finished = Locked(false)

    init(_ stream: AsyncStream<SettledBatch>) {
      Task { [batches, finished] in
        for await batch in stream { batches.withLock { $0.append(batch) } }
        finished.withLock { $0 = true }
      }
    }

    var all: [SettledBatch] { batches.withLock { $0 } }

    func waitForBatches(_ count: Int) async -> Bool {
      try? await waitFor { self.all.count >= count }
      return all.count >= count
    }
  }

  @Test func aBurstBecomesOneBatch() async throws {
    let (events, input) = AsyncStream.makeStream(of: WatchEvent.self)
    let recorder = BatchRecorder(settled(events, window: .milliseconds(200), maxDelay: .seconds(30)))
    for index in 0..<1000 { input.yield(.changed(["file\(index)"])) }
    #expect(await recorder.waitForBatches(1))
    // Nothing else is pending: ending the input ends the output without another batch.
    input.finish()
    try await waitFor { recorder.finished.withLock { $0 } }
    #expect(recorder.finished.withLock { $0 })
    #expect(recorder.all.count == 1)
    #expect(recorder.all.first?.eventCount == 1000)
    #expect(recorder.all.first?.paths.count == 1000)
  }

  @Test func burstsSeparatedByQuietBecomeSeparateBatches() async throws {
    let (events, input) = AsyncStream.makeStream(of: WatchEvent.self)
    let recorder = BatchRecorder(settled(events, window: .milliseconds(200), maxDelay: .seconds(30)))
    input.yield(.changed(["a"]))
    input.yield(.changed(["b"]))
    #expect(await recorder.waitForBatches(1))
    input.yield(.rescan(reason: "overflow"))
    input.yield(.changed(["c"]))
    #expect(await recorder.waitForBatches(2))
    input.finish()
    #expect(
      recorder.all == [
        SettledBatch(paths: ["a", "b"], eventCount: 2),
        SettledBatch(paths: ["c"], rescan: true, reasons: ["overflow"], eventCount: 2),
      ])
  }

  @Test func aNeverEndingStreamStillProducesBatches() async throws {
    let (events, input) = AsyncStream.makeStream(of: WatchEvent.self)
    let recorder = BatchRecorder(settled(events, window: .seconds(60), maxDelay: .milliseconds(300)))
    // Events keep coming every 20 ms, never 60 s apart: the window cannot cut a batch, only maxDelay can
    // (however late a loaded machine runs the timers).
    let clock = ContinuousClock()
    let start = clock.now
    var sent = 0
    while recorder.all.count < 2 && clock.now - start < .seconds(120) {
      input.yield(.changed(["f\(sent)"]))
      sent += 1
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(recorder.all.count >= 2, "cut by maxDelay")
    input.finish()
  }

  @Test func pendingEventsAreFlushedWhenTheInputEnds() async throws {
    let (events, input) = AsyncStream.makeStream(of: WatchEvent.self)
    let observed = ObservedClock()
    let clock: any Clock<Duration> = observed  // any clock will do, even an existential one
    let recorder = BatchRecorder(settled(events, window: .seconds(60), maxDelay: .seconds(60), clock: clock))
    input.yield(.changed(["a"]))
    // Once the timer sleeps until the 60 s deadline, the end of the input must still flush at once.
    try await waitFor { observed.sleeps.withLock { $0 } >= 1 }
    #expect(observed.sleeps.withLock { $0 } >= 1, "the timer is asleep")
    input.finish()
    try await waitFor { recorder.finished.withLock { $0 } }
    #expect(recorder.finished.withLock { $0 })
    #expect(recorder.all == [SettledBatch(paths: ["a"], eventCount: 1)])
  }

  @Test(.enabled(if: inotifyAvailable, "inotify exists on Linux only"))
  func thousandFileWritesBecomeOneBatch() async throws {
    let tree = try TempTree()
    defer { tree.remove() }
    try tree.mkdir("out")
    let watcher = try FileWatcher(root: tree.path, backend: .inotify, isIgnored: notIgnored)
    defer { watcher.stop() }
    // A quiet window a loaded machine cannot open between two writes of the loop (300 ms did: a batch of 17).
    let recorder = BatchRecorder(settled(watcher.events, window: .seconds(3), maxDelay: .seconds(60)))
    let expected = Set((0..<1000).map { "out/file\($0).txt" })
    for index in 0..<1000 {
      try Data("x".utf8).write(to: URL(fileURLWithPath: tree.absolute("out/file\(index).txt")))
    }
    #expect(await recorder.waitForBatches(1))
    let batch = try #require(recorder.all.first)
    #expect(batch.eventCount >= 1)
    #expect(expected.isSubset(of: batch.paths))
    #expect(!batch.rescan)
    #expect(recorder.all.count == 1)
  }
}

/// A suspending clock that counts the sleeps it was asked for: the signal that a timer is armed.
struct ObservedClock: Clock {
  typealias Duration = Swift.Duration
  typealias Instant = SuspendingClock.Instant
  let base = SuspendingClock()
  let sleeps = Locked(0)

  var now: Instant { base.now }
  var minimumResolution: Duration { base.minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    sleeps.withLock { $0 += 1 }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
