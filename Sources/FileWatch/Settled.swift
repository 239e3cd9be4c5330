import RippleCore

/// Coalesces bursts: emits one batch after `window` of quiet following the last event, and at the latest
/// `maxDelay` after the first event of a burst (so a never-ending stream still produces batches).
/// When `events` ends, what is pending is emitted at once and the result ends too; ending the iteration of the
/// result ends the iteration of `events` (which stops a `FileWatcher`).
public func settled<C: Clock>(
  _ events: AsyncStream<WatchEvent>, window: Duration, maxDelay: Duration, clock: C = ContinuousClock()
) -> AsyncStream<SettledBatch> where C.Duration == Duration {
  let (output, continuation) = AsyncStream.makeStream(of: SettledBatch.self)
  // Wakes the timer when a burst starts; one buffered wake-up is enough.
  let (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  let state = Locked(SettleState(window: SettleWindow<C.Instant>(window: window, maxDelay: maxDelay)))

  // Emits batches when they are due. Cancelled when the input ends (to flush at once, even mid-sleep) or when
  // the consumer goes away.
  let timer = Task {
    var wakeIterator = wakeUps.makeAsyncIterator()
    while !Task.isCancelled {
      let now = clock.now
      let (due, deadline) = state.withLock { ($0.window.takeIfDue(at: now), $0.window.deadline) }
      if let due {
        continuation.yield(due)
      } else if let deadline {
        // New events may push the deadline further while asleep; the loop looks again on waking.
        try? await clock.sleep(until: deadline, tolerance: nil)
      } else {
        _ = await wakeIterator.next()
      }
    }
    if let rest = state.withLock({ $0.inputEnded ? $0.window.take() : nil }) { continuation.yield(rest) }
    continuation.finish()
  }

  let reader = Task {
    for await event in events {
      let now = clock.now
      state.withLock { $0.window.add(event, at: now) }
      wake.yield()
    }
    state.withLock { $0.inputEnded = true }
    timer.cancel()
  }

  continuation.onTermination = { _ in
    reader.cancel()
    timer.cancel()
  }
  return output
}

private struct SettleState<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  var window: SettleWindow<Instant>
  var inputEnded = false
}
