/// What one round of watching found, turned into events once the round is over.
struct WatchBatch: Sendable {
  var changed: Set<String> = []
  var reasons: [String] = []
  /// inotify can no longer be trusted (watch limit, root gone, read failure): switch to polling.
  /// The reason is already in `reasons`.
  var needsPolling = false

  mutating func rescan(_ reason: String) {
    if !reasons.contains(reason) { reasons.append(reason) }
  }

  /// Changes first, sorted so that events are deterministic, then one `.rescan` per reason.
  var events: [WatchEvent] {
    (changed.isEmpty ? [] : [.changed(changed.sorted())]) + reasons.map { .rescan(reason: $0) }
  }
}
