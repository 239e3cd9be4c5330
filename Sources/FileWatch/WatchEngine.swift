/// The backend currently in use.
enum WatchEngine {
  case inotify(InotifyWatcher)
  case polling(PollingWatcher)

  var name: String {
    switch self {
    case .inotify: "inotify"
    case .polling: "polling"
    }
  }

  var watchedDirectoryCount: Int {
    switch self {
    case .inotify(let watcher): watcher.watchedDirectoryCount
    case .polling(let watcher): watcher.watchedDirectoryCount
    }
  }
}

/// Hands a value that is only ever used by one thread at a time to that thread.
struct UncheckedSendable<Value>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}
