import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Watches a directory tree and reports changes as `events`.
///
/// Watching runs on a dedicated thread that blocks in `poll(2)`: nothing runs on the cooperative pool and
/// an idle watcher uses no CPU (inotify) or one scan per interval (polling). Keep the watcher alive while
/// consuming `events`: releasing it stops watching and ends the stream, as does ending the iteration.
public final class FileWatcher: Sendable {
  /// Internal, not private: the lifecycle tests tell the watcher's own wake pipe from other tests' pipes.
  let core: WatcherCore

  /// Starts watching `root` recursively. `isIgnored(relativePath, isDirectory)` is consulted for every
  /// directory and file (the daemon implements it with libgit2's .gitignore rules); ignored directories
  /// are not descended into nor watched. `.git`, `.build`, `.build-*`, `.build_*`, `.swiftpm` at any depth are
  /// always skipped without asking. Every change made after `init` returns is reported.
  public convenience init(
    root: String, backend: WatchBackend, isIgnored: @escaping @Sendable (String, Bool) -> Bool
  ) throws(FileWatchError) {
    try self.init(root: root, backend: backend, isIgnored: isIgnored, inotify: InotifySystem.live)
  }

  /// `inotify`: the syscalls to use, nil where inotify does not exist (tests inject failures here).
  init(
    root: String, backend: WatchBackend, isIgnored: @escaping @Sendable (String, Bool) -> Bool,
    inotify: InotifySystem?
  ) throws(FileWatchError) {
    let rootPath = try Self.resolveRoot(root)
    let filter = PathFilter(isIgnored: isIgnored)
    var initial = WatchBatch()
    let engine: WatchEngine
    let fallbackInterval: Duration

    switch backend {
    case .polling(let interval):
      try Self.checkInterval(interval, root: rootPath)
      fallbackInterval = interval
      let polling = PollingWatcher(root: rootPath, filter: filter, interval: interval)
      initial = polling.initialProblems()
      engine = .polling(polling)
    case .auto, .inotify:
      if case .auto(let interval) = backend {
        try Self.checkInterval(interval, root: rootPath)
        fallbackInterval = interval
      } else {
        fallbackInterval = .seconds(1)
      }
      guard let inotify else {
        if backend == .inotify {
          throw FileWatchError(
            path: rootPath, problem: "the inotify backend only exists on Linux",
            hint: "Use the auto or polling backend on this platform.", category: .usage)
        }
        engine = .polling(PollingWatcher(root: rootPath, filter: filter, interval: fallbackInterval))
        break
      }
      switch try InotifyWatcher.start(
        root: rootPath, filter: filter, system: inotify, fallbackInterval: fallbackInterval)
      {
      case .watching(let watcher, let problems):
        initial = problems
        engine = .inotify(watcher)
      case .unavailable(let reasons):
        let polling = PollingWatcher(root: rootPath, filter: filter, interval: fallbackInterval)
        reasons.forEach { initial.rescan($0) }
        polling.initialProblems().reasons.forEach { initial.rescan($0) }
        engine = .polling(polling)
      }
    }

    var pipeFDs: [Int32] = [-1, -1]
    guard pipe(&pipeFDs) == 0 else {
      let error = SystemError.current
      if case .inotify(let watcher) = engine { watcher.close() }
      throw FileWatchError(
        path: rootPath, problem: "could not create a pipe (\(error.message))",
        hint: "The process is probably out of file descriptors; raise `ulimit -n`.")
    }
    for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

    core = WatcherCore(
      backendName: engine.name, watchedDirectoryCount: engine.watchedDirectoryCount,
      wakeWrite: pipeFDs[1])
    for event in initial.events { core.publish(event) }
    let loop = WatchLoop(
      engine: engine, wakeRead: pipeFDs[0], core: core, root: rootPath, filter: filter,
      fallbackInterval: fallbackInterval)
    let thread = Thread { [loop = UncheckedSendable(loop)] in loop.value.run() }
    thread.name = "FileWatch"
    thread.start()
  }

  deinit { core.stop() }

  /// The events, in order. Single consumer; ends when the watcher stops.
  public var events: AsyncStream<WatchEvent> { core.events }

  /// "inotify" or "polling" (after a fallback: "polling").
  public var backendName: String { core.status.withLock { $0.backendName } }

  /// Directories currently watched (inotify) or scanned (polling), the root included.
  public var watchedDirectoryCount: Int { core.status.withLock { $0.watchedDirectoryCount } }

  /// Stops watching, ends `events` and releases the thread and file descriptors before returning.
  /// Idempotent.
  public func stop() { core.stop() }

  private static func resolveRoot(_ root: String) throws(FileWatchError) -> String {
    guard let resolved = realpath(root, nil) else {
      let error = SystemError.current
      let problem =
        switch error.code {
        case ENOENT: "it does not exist"
        case ENOTDIR: "a component of the path is not a directory"
        case EACCES: "a parent directory is not searchable by this user"
        default: "it cannot be resolved (\(error.message))"
        }
      throw FileWatchError(
        path: root, problem: problem,
        hint: "Point rippled at an existing repository directory (relative paths start at "
          + "\(FileManager.default.currentDirectoryPath)).")
    }
    defer { free(resolved) }
    let path = String(cString: resolved)
    guard fileStatus(path)?.isDirectory == true else {
      throw FileWatchError(
        path: path, problem: "it is not a directory", hint: "Point rippled at the repository's root directory.")
    }
    guard access(path, R_OK | X_OK) == 0 else {
      throw FileWatchError(
        path: path, problem: "it is not readable by this user (\(SystemError.current.message))",
        hint: "Give this user read and search permission (chmod u+rx) or run rippled as the directory's owner.")
    }
    return path
  }

  private static func checkInterval(_ interval: Duration, root: String) throws(FileWatchError) {
    guard interval <= .zero else { return }
    throw FileWatchError(
      path: root, problem: "the polling interval \(interval) is not positive",
      hint: "Use a positive interval, e.g. 1 s.", category: .usage)
  }
}
