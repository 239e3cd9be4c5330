/// Watch events merged over a burst: what the daemon acts on.
public struct SettledBatch: Sendable, Hashable {
  /// Every path reported by the merged `.changed` events.
  public var paths: Set<String>
  /// Whether a `.rescan` was among them: treat everything as possibly changed.
  public var rescan: Bool
  /// The `.rescan` reasons, in order, without repeats.
  public var reasons: [String]
  /// How many events were merged.
  public var eventCount: Int

  public init(paths: Set<String> = [], rescan: Bool = false, reasons: [String] = [], eventCount: Int = 0) {
    self.paths = paths
    self.rescan = rescan
    self.reasons = reasons
    self.eventCount = eventCount
  }

  mutating func add(_ event: WatchEvent) {
    eventCount += 1
    switch event {
    case .changed(let changed): paths.formUnion(changed)
    case .rescan(let reason):
      rescan = true
      if !reasons.contains(reason) { reasons.append(reason) }
    }
  }
}

/// The settle rule as a pure state machine: a batch is due `window` after its last event (quiet), but no later
/// than `maxDelay` after its first (so a never-ending stream still produces batches).
struct SettleWindow<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
  let window: Duration
  let maxDelay: Duration
  private(set) var firstEvent: Instant?
  private(set) var lastEvent: Instant?
  private var pending = SettledBatch()

  init(window: Duration, maxDelay: Duration) {
    self.window = window
    self.maxDelay = maxDelay
  }

  var isEmpty: Bool { firstEvent == nil }

  mutating func add(_ event: WatchEvent, at now: Instant) {
    if firstEvent == nil { firstEvent = now }
    lastEvent = now
    pending.add(event)
  }

  /// When the pending batch is due; nil when nothing is pending.
  var deadline: Instant? {
    guard let firstEvent, let lastEvent else { return nil }
    return min(lastEvent.advanced(by: window), firstEvent.advanced(by: maxDelay))
  }

  /// The pending batch if it is due at `now`, starting a new one.
  mutating func takeIfDue(at now: Instant) -> SettledBatch? {
    guard let deadline, deadline <= now else { return nil }
    return take()
  }

  /// The pending batch whether due or not (the input ended), starting a new one.
  mutating func take() -> SettledBatch? {
    guard !isEmpty else { return nil }
    defer {
      pending = SettledBatch()
      firstEvent = nil
      lastEvent = nil
    }
    return pending
  }
}
