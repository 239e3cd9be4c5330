import RippleCore
import Testing

@testable import Daemon

/// `DeliveryQueue`: order per key, one at a time per key, and a `drain()` that covers every submission made
/// before it, even when none of the tasks `submit` started has run yet.
@Suite struct DeliveryQueueTests {
  @Test func drainRightAfterSubmitWaitsForEverySubmittedItemInOrder() async {
    for _ in 0..<50 {
      let queue = DeliveryQueue()
      let done = Locked<[Int]>([])
      for index in 0..<20 {
        queue.submit(key: index % 2 == 0 ? "a" : "b") {
          await Task.yield()
          done.withLock { $0.append(index) }
        }
      }
      await queue.drain()
      let order = done.withLock { $0 }
      #expect(order.count == 20, "drain returned before \(20 - order.count) submitted items ran")
      #expect(order.filter { $0 % 2 == 0 } == Array(stride(from: 0, to: 20, by: 2)), "key a keeps its order")
      #expect(order.filter { $0 % 2 == 1 } == Array(stride(from: 1, to: 20, by: 2)), "key b keeps its order")
    }
  }

  @Test func itemsOfOneKeyRunOneAtATime() async {
    let queue = DeliveryQueue()
    let running = Locked(0)
    let most = Locked(0)
    for _ in 0..<10 {
      queue.submit(key: "repo") {
        let now = running.withLock { value -> Int in
          value += 1
          return value
        }
        most.withLock { $0 = max($0, now) }
        await Task.yield()
        running.withLock { $0 -= 1 }
      }
    }
    await queue.drain()
    #expect(most.withLock { $0 } == 1)
  }
}

extension DeliveryQueueTests {
  /// A drain that is cancelled (shutdown's cap) cancels what it waited for: the delivery under way and the ones
  /// queued behind it, of every key.
  @Test func cancellingADrainCancelsTheDeliveriesItWaitsFor() async {
    let queue = DeliveryQueue()
    let gate = Latch()
    let started = Locked(0)
    let stopped = Locked(0)
    for index in 0..<4 {
      queue.submit(key: index < 3 ? "a" : "b") {
        started.withLock { $0 += 1 }
        if await !gate.wait() { stopped.withLock { $0 += 1 } }
      }
    }
    let drained = Locked(false)
    let drain = Task {
      await queue.drain()
      drained.withLock { $0 = true }
    }
    #expect(await DaemonRunFixture.waitFor("a delivery of each key to start") { started.withLock { $0 } == 2 })
    drain.cancel()
    let ended = await DaemonRunFixture.waitFor("the drain to end") { drained.withLock { $0 } }
    gate.open()  // frees what was not cancelled (a failure), so the test ends either way
    await drain.value
    #expect(ended)
    #expect(stopped.withLock { $0 } == 4, "the two under way and the two queued behind the first")
  }
}
