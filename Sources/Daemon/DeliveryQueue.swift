import RippleCore

/// The daemon's background deliveries (commit statuses, branch notifications): work runs in submission order
/// per key (a repository), one item at a time per key, and never delays the caller.
///
/// `submit` is synchronous, so the order of calls is the order of delivery whichever task runs first, and
/// `drain()` waits for everything submitted before it: it takes the inbox itself before waiting, rather than
/// relying on the tasks `submit` started having run (they may not have, on a loaded machine).
actor DeliveryQueue {
  typealias Work = @Sendable () async -> Void

  private let inbox = Locked<[(key: String, work: Work)]>([])
  /// The last task queued per key; each task first waits for the one before it.
  private var tails: [String: Task<Void, Never>] = [:]

  nonisolated func submit(key: String, _ work: @escaping Work) {
    inbox.withLock { $0.append((key, work)) }
    Task { await self.takeInbox() }
  }

  /// Waits until every item submitted before this call was delivered or given up (tests, shutdown). Cancelling
  /// the wait cancels the deliveries still queued or under way (shutdown's cap: `FinalDeliveries`).
  func drain() async {
    takeInbox()
    let tasks = Array(tails.values)
    await withTaskCancellationHandler {
      for task in tasks { await task.value }
    } onCancel: {
      for task in tasks { task.cancel() }
    }
  }

  private func takeInbox() {
    let items = inbox.withLock { items in
      defer { items.removeAll() }
      return items
    }
    for item in items {
      let previous = tails[item.key]
      tails[item.key] = Task {
        // Cancelling the last task of a key cancels the ones before it too.
        await withTaskCancellationHandler {
          await previous?.value
        } onCancel: {
          previous?.cancel()
        }
        await item.work()
      }
    }
  }
}
