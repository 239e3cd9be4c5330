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
