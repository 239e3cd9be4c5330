import Foundation
import RippleCore
import Testing

/// How many bodies run at once, and the most seen.
private final class Gauge: @unchecked Sendable {
  private let lock = NSLock()
  private var running = 0
  private(set) var peak = 0
  func enter() {
    lock.withLock {
      running += 1; peak = max(peak, running)
    }
  }
  func leave() { lock.withLock { running -= 1 } }
}

@Suite struct ConcurrentlyTests {
  @Test func keepsItemOrderAndNeverExceedsTheLimit() async throws {
    let gauge = Gauge()
    let outputs = try await Concurrently.map(Array(0..<20), limit: 3) { item in
      gauge.enter()
      try await Task.sleep(for: .milliseconds(Int.random(in: 1...10)))
      gauge.leave()
      return item * 2
    }
    #expect(outputs == (0..<20).map { $0 * 2 })
    #expect(gauge.peak <= 3 && gauge.peak >= 1)
  }

  @Test func stoppingLeavesTheUnstartedItemsNil() async throws {
    var seen: [Int] = []
    let outputs = try await Concurrently.map(Array(0..<10), limit: 1) {
      $0
    } onResult: { _, output in
      seen.append(output)
      return output < 2
    }
    #expect(seen == [0, 1, 2])
    #expect(outputs == [0, 1, 2] + Array(repeating: nil, count: 7))
  }

  @Test func anErrorIsRethrown() async {
    struct Boom: Error {}
    await #expect(throws: Boom.self) {
      _ = try await Concurrently.map([1, 2, 3], limit: 2) { item in
        if item == 2 { throw Boom() }
        return item
      }
    }
  }

  /// Two items wait for each other (up to 60 s), so the map passes only if it runs them at the same time,
  /// however loaded the machine: a serial map makes the first one give up. A gauge peak would depend on
  /// whether a second thread happened to be free.
  @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "one core runs the map serially"))
  func concurrentMapRunsItemsAtTheSameTimeAndKeepsOrder() {
    let meeting = Meeting(of: 2, waitingAtMost: 60)
    let squares = Array(0..<2_000).concurrentMap { item in
      if item < 2 { meeting.arriveAndWait() }
      return item * item
    }
    #expect(squares == (0..<2_000).map { $0 * $0 })
    #expect(meeting.everyoneMet, "the first two items never ran at the same time")
    #expect([Int]().concurrentMap { $0 } == [])
  }
}

/// A rendezvous: each arrival waits until `count` have arrived, or gives up after the timeout.
private final class Meeting: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let timeout: TimeInterval
  private var arrived = 0
  private var gaveUp = false

  init(of count: Int, waitingAtMost timeout: TimeInterval) {
    self.count = count
    self.timeout = timeout
  }

  func arriveAndWait() {
    condition.lock()
    defer { condition.unlock() }
    arrived += 1
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: timeout)
    while arrived < count {
      if !condition.wait(until: deadline) {
        gaveUp = true
        return
      }
    }
  }

  var everyoneMet: Bool { condition.withLock { arrived >= count && !gaveUp } }
}
