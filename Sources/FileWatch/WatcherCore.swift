import Dispatch
import Foundation
import RippleCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state shared between a `FileWatcher`, its consumer and its watching thread.
final class WatcherCore: Sendable {
  struct Status {
    var backendName: String
    var watchedDirectoryCount: Int
    var stopRequested = false
    var hasExited = false
    /// The pipe end whose write wakes the watching thread up to stop; closed when it exits.
    var wakeWrite: Int32
    var thread: UncheckedSendable<pthread_t>?
  }

  let events: AsyncStream<WatchEvent>
  let status: Locked<Status>
  private let continuation: AsyncStream<WatchEvent>.Continuation
  private let exited = DispatchSemaphore(value: 0)

  init(backendName: String, watchedDirectoryCount: Int, wakeWrite: Int32) {
    status = Locked(
      Status(backendName: backendName, watchedDirectoryCount: watchedDirectoryCount, wakeWrite: wakeWrite))
    (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self)
    // The consumer ending its iteration means nobody listens any more. This runs inside the consumer task's
    // cancellation (under a runtime lock the watching thread needs to finish the stream), so it must not wait.
    continuation.onTermination = { [weak self] _ in self?.requestStop() }
  }

  func publish(_ event: WatchEvent) { continuation.yield(event) }

  /// Called by the watching thread as it starts.
  func threadStarted() {
    status.withLock { $0.thread = UncheckedSendable(pthread_self()) }
  }

  /// Called by the watching thread last, after it closed its own descriptors.
  func threadExited() {
    status.withLock { status in
      closeDescriptor(status.wakeWrite)
      status.wakeWrite = -1
      status.hasExited = true
    }
    continuation.finish()
    exited.signal()
  }

  /// Stops and waits until the watching thread has released everything.
  func stop() {
    requestStop()
    let mustWait = status.withLock { status -> Bool in
      // The watching thread must not wait for itself (e.g. a consumer releasing the watcher from there).
      let onWatchingThread = status.thread.map { pthread_equal($0.value, pthread_self()) != 0 } ?? false
      return !onWatchingThread && !status.hasExited
    }
    if mustWait {
      exited.wait()
      exited.signal()  // for any other caller waiting too
    }
  }

  /// Wakes the watching thread up to stop, without waiting for it.
  func requestStop() {
    status.withLock { status in
      guard !status.stopRequested else { return }
      status.stopRequested = true
      var byte: UInt8 = 1
      _ = write(status.wakeWrite, &byte, 1)
    }
  }
}

/// The watching thread: blocks in `poll(2)` on the inotify fd (or for the polling interval) and on the
/// wake-up pipe, and switches from inotify to polling when inotify can no longer be trusted.
final class WatchLoop {
  private var engine: WatchEngine
  private let wakeRead: Int32
  private let core: WatcherCore
  private let root: String
  private let filter: PathFilter
  private let fallbackInterval: Duration

  init(
    engine: WatchEngine, wakeRead: Int32, core: WatcherCore, root: String, filter: PathFilter,
    fallbackInterval: Duration
  ) {
    self.engine = engine
    self.wakeRead = wakeRead
    self.core = core
    self.root = root
    self.filter = filter
    self.fallbackInterval = fallbackInterval
  }

  func run() {
    core.threadStarted()
    defer {
      if case .inotify(let watcher) = engine { watcher.close() }
      closeDescriptor(wakeRead)
      core.threadExited()
    }
    while true {
      switch engine {
      case .inotify(let watcher):
        switch wait(for: watcher.fd, timeout: -1) {
        case .stop: return
        case .timeout: continue
        case .readable:
          var batch = watcher.readAvailable()
          if batch.needsPolling { switchToPolling(&batch) }
          publish(batch)
        case .failed(let problem):
          var batch = WatchBatch()
          batch.rescan(
            "Waiting for inotify events on \(root) failed (\(problem)); watching by polling every "
              + "\(describe(fallbackInterval)) instead.")
          switchToPolling(&batch)
          publish(batch)
        }
      case .polling(let watcher):
        switch wait(for: nil, timeout: pollTimeoutMilliseconds(watcher.interval)) {
        case .stop: return
        case .timeout: publish(watcher.poll())
        case .readable: continue
        case .failed:
          // poll(2) on a pipe alone does not fail in practice; sleep so that it cannot become a busy loop.
          usleep(UInt32(clamping: Int(pollTimeoutMilliseconds(watcher.interval)) * 1000))
          publish(watcher.poll())
        }
      }
    }
  }

  private enum Wake {
    case stop, readable, timeout
    case failed(String)
  }

  /// Blocks until the wake-up pipe or `fd` is readable, or `timeout` ms pass (-1: forever).
  private func wait(for fd: Int32?, timeout: Int32) -> Wake {
    var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
    if let fd { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
    let result = poll(&fds, nfds_t(fds.count), timeout)
    if result < 0 {
      let error = SystemError.current
      return error.code == EINTR ? .readable : .failed(error.message)
    }
    if fds[0].revents != 0 { return .stop }
    if result == 0 { return .timeout }
    if fds.count > 1 && fds[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
      return .failed("the inotify descriptor reported an error")
    }
    return .readable
  }

  /// Polls from now on. The first scan is taken before `batch` (which says why) is published, so that any
  /// change made after the consumer sees the `.rescan` is reported by polling.
  private func switchToPolling(_ batch: inout WatchBatch) {
    if case .inotify(let watcher) = engine { watcher.close() }
    let polling = PollingWatcher(root: root, filter: filter, interval: fallbackInterval)
    engine = .polling(polling)
    core.status.withLock { $0.backendName = "polling" }
    polling.initialProblems().reasons.forEach { batch.rescan($0) }
  }

  private func publish(_ batch: WatchBatch) {
    core.status.withLock { $0.watchedDirectoryCount = engine.watchedDirectoryCount }
    for event in batch.events { core.publish(event) }
  }
}
