import Crypto
import FileWatch
import Foundation
import Git
import RippleConfig
import RippleCore
import RunModel

/// Watches a developer's working tree (dev box): file events only say *when* to look; git says what
/// changed. Bursts settle first; nothing is evaluated while `.git/index.lock` exists; a run is queued only
/// when the working tree differs, as git sees it, from the last one queued.
final class WorktreeSource: Sendable {
  static let lane = "worktree"

  let settings: RepositorySettings
  private let repository: GitRepository
  private let root: String
  private let scheduler: Scheduler
  private let log: DaemonLog
  private let health: HealthBoard
  private let fingerprintFile: String
  private let state = Locked(State())
  private let watcher: FileWatcher
  /// Shared with the executor: the paths the next run's sync must look at.
  let dirty: DirtyPaths

  struct State {
    var lastCheck: Date?
    var lastError: String?
    var lastFingerprint: String?
  }

  init(
    settings: RepositorySettings, path: String, paths: DaemonPaths, scheduler: Scheduler, log: DaemonLog,
    health: HealthBoard, dirty: DirtyPaths
  ) throws {
    self.settings = settings
    self.dirty = dirty
    repository = try GitRepository.discover(from: path)
    guard let workdir = repository.workdir else {
      throw GitError.bareRepository(path: repository.gitDirectory, operation: "watch the working tree")
    }
    root = workdir
    self.scheduler = scheduler
    self.log = log
    self.health = health
    fingerprintFile = paths.lane(settings.name, lane: Self.lane) + ".fingerprint"
    let backend: WatchBackend =
      switch settings.watch {
      case .auto: .auto(pollInterval: settings.pollInterval)
      case .inotify: .inotify
      case .poll: .polling(interval: settings.pollInterval)
      }
    let repository = repository
    watcher = try FileWatcher(root: workdir, backend: backend) { path, isDirectory in
      repository.isIgnored(isDirectory ? path + "/" : path)
    }
    state.withLock { $0.lastFingerprint = try? String(contentsOfFile: fingerprintFile, encoding: .utf8) }
    log.info(
      "watching \(workdir) for \(settings.name) with \(watcher.backendName) (\(watcher.watchedDirectoryCount) folders)")
  }

  var status: RepositoryStatus {
    state.withLock {
      RepositoryStatus(
        name: settings.name, source: "worktree \(root)", lastCheck: $0.lastCheck, lastError: $0.lastError,
        heads: [:])
    }
  }

  /// Looks at the working tree now; queues a run when it changed since the last one queued.
  func check(reason: String) async {
    await waitForIndexLock()
    do {
      let (fingerprint, changedFiles) = try currentFingerprint()
      let previous = state.withLock {
        $0.lastCheck = Date()
        $0.lastError = nil
        return $0.lastFingerprint
      }
      state.withLock { $0.lastFingerprint = fingerprint }
      try? fingerprint.write(toFile: fingerprintFile, atomically: true, encoding: .utf8)
      if fingerprint == previous {
        log.debug("\(settings.name): \(reason), but nothing changed as git sees it")
        return
      }
      // First look ever at a clean checkout: nothing to test until something changes.
      if previous == nil && changedFiles == 0 { return }
      await scheduler.submit(NewRun(repository: settings.name, branch: Self.lane, head: "worktree", trigger: .watch))
    } catch {
      let message = (error as? any RippleError)?.description ?? "\(error)"
      state.withLock { $0.lastError = message }
      log.warning("\(settings.name): cannot read the working tree: \(message)")
    }
  }

  /// Runs until cancelled: settled batches of events → `check`.
  func run() async {
    let maxDelay = max(settings.settle * 10, .seconds(2))
    for await batch in settled(watcher.events, window: settings.settle, maxDelay: maxDelay) {
      if Task.isCancelled { break }
      for reason in batch.reasons { log.warning("\(settings.name): \(reason)") }
      if batch.rescan { dirty.markAll() } else { dirty.mark(batch.paths) }
      await check(reason: "\(batch.eventCount) file events")
    }
    watcher.stop()
  }

  func stop() { watcher.stop() }

  /// git holds `.git/index.lock` while it writes the index (commit, checkout, rebase): reading then would
  /// see a half-done state. Wait for it to go (polling; it is usually there for milliseconds), but never
  /// forever: a stale lock left by a crashed git is logged after a minute.
  private func waitForIndexLock() async {
    let lock = repository.gitDirectory + "/index.lock"
    var waited = Duration.zero
    var warned = false
    while FileManager.default.fileExists(atPath: lock), !Task.isCancelled {
      if waited >= .seconds(60) && !warned {
        log.warning("\(lock) has existed for a minute; if no git command is running, remove it")
        warned = true
      }
      try? await Task.sleep(for: .milliseconds(50))
      waited += .milliseconds(50)
    }
  }

  /// HEAD plus every changed file against it (path, size, modification time): equal fingerprints mean
  /// the same working tree, as far as a run could tell.
  private func currentFingerprint() throws -> (String, Int) {
    let head = (try? repository.headCommit().hex) ?? "unborn"
    let changes = try repository.changesToWorkingTree(from: repository.headCommit())
    var text = head + "\n"
    for change in changes {
      text += "\(change.status) \(change.path)"
      var info = stat()
      if stat(root + "/" + change.path, &info) == 0 {
        #if canImport(Darwin)
          text += " \(info.st_size) \(info.st_mtimespec.tv_sec).\(info.st_mtimespec.tv_nsec)"
        #else
          text += " \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        #endif
      }
      text += "\n"
    }
    return (SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined(), changes.count)
  }
}
