/// How a `FileWatcher` learns about changes.
public enum WatchBackend: Sendable, Hashable {
  /// inotify on Linux; polling every `pollInterval` where inotify is not available (macOS for now), and on
  /// Linux when a kernel limit is reached.
  case auto(pollInterval: Duration)
  /// Linux only (throws `FileWatchError` elsewhere). Falls back to polling every second when a kernel limit
  /// is reached, announced by a `.rescan` event that names the sysctl to raise.
  case inotify
  /// A full scan every `interval`, compared with the previous one. Works everywhere, costs CPU on big trees.
  case polling(interval: Duration)
}

/// What a `FileWatcher` reports.
public enum WatchEvent: Sendable, Hashable {
  /// Paths relative to the root (files or directories) that were created, modified, deleted or moved.
  /// Deduplicated within one event; the daemon only uses events to know *when* to look (git gives the change set).
  case changed([String])
  /// The watcher may have missed events (inotify queue overflow, a watch limit reached and a fallback
  /// to polling, a directory that could not be watched): treat everything as possibly changed.
  /// `reason` is a sentence for the log; for kernel limits it names the sysctl to raise
  /// (fs.inotify.max_user_watches, fs.inotify.max_queued_events, fs.inotify.max_user_instances).
  case rescan(reason: String)
}
