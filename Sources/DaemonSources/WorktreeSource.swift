import DaemonSupport
import FileWatch
import Foundation
import Git
import RippleConfig
import RippleCore
import RunModel

/// Watches a developer's working tree (dev box). Bursts settle first; nothing is evaluated while
/// `.git/index.lock` exists; a run is queued only when the working tree differs, as git sees it, from the
/// last one queued. The watcher's paths say what to look at (each is hashed and compared with HEAD); only
/// start-up, a watcher rescan, or a moved HEAD or rewritten index (git's stamps) cost a status scan of the
/// whole tree (docs/ARCHITECTURE.md, section 5).
package final class WorktreeSource: Sendable {
  static let lane = DaemonPaths.workingTreeLane

  package let settings: RepositorySettings
  private let repository: GitRepository
  private let root: String
  private let scheduler: RunControl
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
    /// The working tree against HEAD, kept current from the watcher's paths; nil: scan it next time.
    var delta: WorkingTreeDelta?
    /// HEAD and the index's stamps when `delta` was built: when either moves, `delta` is built again.
    var gitStamp: String?
    /// Looks finished, and whether one waits for `index.lock` (`RepositoryStatus`: what tests wait on).
    var looks = 0
    var waitingForIndexLock = false
  }

  package init(
    settings: RepositorySettings, path: String, paths: DaemonPaths, scheduler: RunControl, log: DaemonLog,
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

  package var status: RepositoryStatus {
    state.withLock {
      var status = RepositoryStatus(
        name: settings.name, source: "worktree \(root)", lastCheck: $0.lastCheck, lastError: $0.lastError,
        heads: [:])
      status.looks = $0.looks
      status.waitingForIndexLock = $0.waitingForIndexLock
      return status
    }
  }

  /// Looks at the working tree now; queues a run when it changed since the last one queued. `paths`: what the
  /// watcher reported since the last look; nil: look at everything.
  package func check(reason: String, paths: Set<String>? = nil) async {
    defer { state.withLock { $0.looks += 1 } }
    await waitForIndexLock()
    do {
      let (fingerprint, changedFiles) = try currentFingerprint(paths: paths)
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
      _ = await scheduler.submit(
        NewRun(repository: settings.name, branch: Self.lane, head: "worktree", trigger: .watch))
    } catch {
      let message = (error as? any RippleError)?.description ?? "\(error)"
      state.withLock {
        $0.lastError = message
        $0.delta = nil
      }
      log.warning("\(settings.name): cannot read the working tree: \(message)")
    }
  }

  /// Runs until cancelled: settled batches of events → `check`.
  package func run() async {
    let maxDelay = max(settings.settle * 10, .seconds(2))
    for await batch in settled(watcher.events, window: settings.settle, maxDelay: maxDelay) {
      if Task.isCancelled { break }
      for reason in batch.reasons { log.warning("\(settings.name): \(reason)") }
      let paths = Self.pathsToLookAt(batch)
      if let paths { dirty.mark(paths) } else { dirty.markAll() }
      await check(reason: "\(batch.eventCount) file events", paths: paths)
    }
    watcher.stop()
  }

  package func stop() { watcher.stop() }

  /// The paths a settled batch asks to look at; nil for everything: the watcher may have missed events
  /// (a rescan: queue overflow, fallback to polling), or a `.gitignore` changed which files belong to the
  /// working tree.
  static func pathsToLookAt(_ batch: SettledBatch) -> Set<String>? {
    if batch.rescan || batch.paths.contains(where: { $0 == ".gitignore" || $0.hasSuffix("/.gitignore") }) {
      return nil
    }
    return batch.paths
  }

  /// git holds `.git/index.lock` while it writes the index (commit, checkout, rebase): reading then would
  /// see a half-done state. Wait for it to go (polling; it is usually there for milliseconds), but never
  /// forever: a stale lock left by a crashed git is logged after a minute.
  private func waitForIndexLock() async {
    let lock = repository.gitDirectory + "/index.lock"
    var waited = Duration.zero
    var warned = false
    defer { state.withLock { $0.waitingForIndexLock = false } }
    while FileManager.default.fileExists(atPath: lock), !Task.isCancelled {
      state.withLock { $0.waitingForIndexLock = true }
      if waited >= .seconds(60) && !warned {
        log.warning("\(lock) has existed for a minute; if no git command is running, remove it")
        warned = true
      }
      try? await Task.sleep(for: .milliseconds(50))
      waited += .milliseconds(50)
    }
  }

  /// The working tree's fingerprint and how many files differ from HEAD. Only `paths` are looked at,
  /// unless there is no delta yet, `paths` is nil, or HEAD or the index moved: then one status scan.
  private func currentFingerprint(paths: Set<String>?) throws -> (String, Int) {
    let head = try repository.headCommit()
    let stamp = gitStamp(head: head)
    let delta: WorkingTreeDelta
    if var known = state.withLock({ $0.gitStamp == stamp ? $0.delta : nil }), let paths {
      try known.update(paths, in: repository)
      delta = known
    } else {
      delta = try WorkingTreeDelta.scan(repository, head: head)
    }
    state.withLock {
      $0.delta = delta
      $0.gitStamp = stamp
    }
    return (delta.fingerprint, delta.differing.count)
  }

  /// HEAD's commit and the index file's identity, size and modification time: git rewrites the index
  /// (a new inode) for every change to it, so equal stamps mean the same HEAD and index.
  private func gitStamp(head: ObjectID) -> String {
    var info = stat()
    guard stat(repository.gitDirectory + "/index", &info) == 0 else { return head.hex + " no index" }
    #if canImport(Darwin)
      let time = "\(info.st_mtimespec.tv_sec).\(info.st_mtimespec.tv_nsec)"
    #else
      let time = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    #endif
    return "\(head.hex) \(info.st_ino) \(info.st_size) \(time)"
  }
}
