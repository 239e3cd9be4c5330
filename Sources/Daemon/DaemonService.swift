import Foundation
import Git
import Hummingbird
import Logging
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import RunStore
import ServiceLifecycle
import ServiceMetrics
import SystemClients

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The daemon: the store opened and recovered, the sources started, READY once the first scan is done,
/// STATUS/WATCHDOG while it runs, and on SIGTERM: STOPPING, no new work, running runs get the grace period.
public struct Rippled: Sendable {
  public var configuration: DaemonConfiguration
  public var environment: [String: String]
  /// The config file the configuration came from (named in errors about its settings).
  public var configPath: String?

  public init(configuration: DaemonConfiguration, environment: [String: String], configPath: String? = nil) {
    self.configuration = configuration
    self.environment = environment
    self.configPath = configPath
  }

  public static let version = "0.1.0"

  public func run() async throws {
    let log = DaemonLog(minimum: environment["RIPPLED_DEBUG"] == nil ? .info : .debug)
    // Refused before anything is created on disk (as `check-config` refuses them).
    let secrets = try Self.secrets(configuration.http)
    let notifier = ServiceNotifier.live(environment: environment)
    // Children (git, swift) must not talk to systemd as if they were us.
    for name in ServiceNotifier.serviceVariables { unsetenv(name) }
    var childEnvironment = environment
    for name in ServiceNotifier.serviceVariables { childEnvironment[name] = nil }

    let paths = DaemonPaths.resolve(configuration, environment: environment)
    for directory in [paths.state, paths.cache, paths.logs] {
      do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      } catch {
        throw DaemonError.directory(path: directory, reason: error.localizedDescription)
      }
    }
    let lock = try InstanceLock(path: paths.lockFile)
    defer { lock.release() }

    notifier.status("opening the runs database")
    let store = try Self.openStore(paths.database, log: log)
    // Before the interrupted runs are recovered: what a killed daemon's runs left running is stopped.
    ProcessGroupCleanup.stopLeftovers(store: store, log: log)
    RunTemporaryDirectory.removeAll(in: paths.runTemporaryRoot)
    let recovered = try store.recoverInterrupted()
    for run in recovered.interrupted {
      log.warning("was running when the daemon stopped: recorded interrupted", run: run.id)
    }
    for run in recovered.requeued {
      log.info("re-queued (attempt \(run.attempt)) for run \(run.retryOf ?? 0)", run: run.id)
    }

    childEnvironment["RIPPLE_CACHE_DIR"] = paths.rippleCache
    let services = RippleServices(process: .live, environment: childEnvironment)
    let health = HealthBoard()
    let metrics = DaemonMetrics()
    var dirtyPaths: [String: DirtyPaths] = [:]
    for repository in configuration.repositories {
      if case .workingTree = repository.source { dirtyPaths[repository.name] = DirtyPaths() }
    }
    let executor = RunExecutor(
      paths: paths, store: store, services: services, dirtyPaths: dirtyPaths)
    let activity = Locked("starting")
    let scheduler = Scheduler(
      limit: configuration.concurrency, store: store, executor: executor, repositories: configuration.repositories,
      log: log, metrics: metrics, health: health, maxLogBytes: configuration.retention.maxLogBytes
    ) { text in
      let changed = activity.withLock { current in
        defer { current = text }
        return current != text
      }
      if changed { notifier.status(text) }
    }

    let selfExecutable = Self.executablePath()
    var branchSources: [BranchSource] = []
    var worktreeSources: [WorktreeSource] = []
    for repository in configuration.repositories {
      switch repository.source {
      case .remote(let url):
        branchSources.append(
          BranchSource(
            settings: repository, url: url, paths: paths, store: store, scheduler: scheduler, process: .live,
            fetcherExecutable: selfExecutable, log: log, metrics: metrics, health: health))
      case .workingTree(let path):
        do {
          worktreeSources.append(
            try WorktreeSource(
              settings: repository, path: path, paths: paths, scheduler: scheduler, log: log, health: health,
              dirty: dirtyPaths[repository.name] ?? DirtyPaths()))
        } catch {
          throw DaemonError.source(
            repository: repository.name, reason: (error as? any RippleError)?.description ?? "\(error)")
        }
      }
    }

    let ready = Locked(false)
    let startedAt = Date()
    let statusProvider: @Sendable () async -> DaemonStatus = { [branchSources, worktreeSources] in
      DaemonStatus(
        version: Self.version, startedAt: startedAt, ready: ready.withLock { $0 }, healthy: health.isHealthy,
        problems: health.current, activity: await scheduler.activity, queueLength: await scheduler.queueLength,
        running: await scheduler.runningIDs,
        repositories: branchSources.map(\.status) + worktreeSources.map(\.status))
    }
    let api = APIContext(
      store: store, runs: .live(scheduler), metrics: metrics, status: statusProvider, branchSources: branchSources,
      worktreeSources: worktreeSources, token: secrets.token, webhookSecret: secrets.webhookSecret, log: log,
      health: health)

    var logger = Logger(label: "rippled")
    logger.logLevel = .warning
    let listening = Latch()
    let app = Application(
      router: HTTPAPI.router(api),
      configuration: .init(
        address: .hostname(configuration.http.host, port: configuration.http.port), serverName: "rippled"),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.http.port
        try? "\(port)\n".write(toFile: paths.portFile, atomically: true, encoding: .utf8)
        log.info("listening on http://\(configuration.http.host):\(port)/")
        listening.open()
      },
      logger: logger)

    let work = DaemonWork(
      store: store, scheduler: scheduler, branchSources: branchSources, worktreeSources: worktreeSources,
      notifier: notifier, log: log, health: health, paths: paths, configuration: configuration, ready: ready,
      listening: listening, queued: try store.queued())
    let group = ServiceGroup(
      configuration: .init(
        services: [.init(service: app), .init(service: work)], gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger))
    do {
      try await group.run()
    } catch  where !listening.isOpen {
      // The server never listened: the address is taken, not ours to use, or does not resolve.
      throw DaemonError.listen(
        address: Self.addressText(configuration.http), configFile: configPath, reason: Self.reason(error))
    }
    do {
      try store.checkpoint()
    } catch {
      log.warning("could not fold the write-ahead log into \(paths.database): \(error.description)")
    }
    log.info("stopped")
  }

  /// `127.0.0.1:7878`, `[::1]:7878`: as `http.address` is written.
  static func addressText(_ http: HTTPSettings) -> String {
    (http.host.contains(":") ? "[\(http.host)]" : http.host) + ":\(http.port)"
  }

  /// The system's words for a failure ("Address already in use (errno: 98)"), without NIO's call site.
  static func reason(_ error: any Error) -> String {
    let text = "\(error)"
    guard let colon = text.range(of: "): ") else { return text }
    return String(text[colon.upperBound...])
  }

  /// Opens the runs database and checks it page by page: a damaged file refuses the start (with what to do)
  /// instead of a daemon that says it is healthy while every read fails. A missing or empty (0-byte) file
  /// starts an empty store, said in the log; WAL files left beside it would be replayed onto it, so they go.
  static func openStore(_ path: String, log: DaemonLog) throws -> RunStore {
    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
    if size == nil || size?.intValue == 0 {
      for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      if size == nil {
        log.info("no runs database at \(path): starting an empty one (no run history)")
      } else {
        log.warning("the runs database \(path) is empty (0 bytes): starting an empty one (no run history)")
      }
    }
    do {
      let store = try RunStore(path: path)
      try store.checkIntegrity()
      return store
    } catch {
      throw DaemonError.store(error.description)
    }
  }

  /// The path of this executable (to start `rippled fetch-mirror` children).
  static func executablePath() -> String {
    #if os(Linux)
      if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
    #endif
    let argument = CommandLine.arguments[0]
    if argument.hasPrefix("/") { return argument }
    return FileManager.default.currentDirectoryPath + "/" + argument
  }

  /// The API token and the webhook secret, each nil when not configured.
  public static func secrets(_ http: HTTPSettings) throws -> (token: [UInt8]?, webhookSecret: [UInt8]?) {
    (
      try secret(http.tokenFile, key: "http.tokenFile"),
      try secret(http.webhookSecretFile, key: "http.webhookSecretFile")
    )
  }

  /// A secret file's content without the trailing newline; nil when not configured.
  static func secret(_ path: String?, key: String) throws -> [UInt8]? {
    guard let path else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DaemonError.secretFile(path: path, key: key)
    }
    var bytes = [UInt8](data)
    while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
    guard !bytes.isEmpty else { throw DaemonError.secretFile(path: path, key: key) }
    return bytes
  }
}

/// The daemon's own work as a ServiceLifecycle service: ServiceGroup shuts services down in reverse order,
/// so this one drains its runs while the HTTP server still answers.
struct DaemonWork: Service {
  var store: RunStore
  var scheduler: Scheduler
  var branchSources: [BranchSource]
  var worktreeSources: [WorktreeSource]
  var notifier: ServiceNotifier
  var log: DaemonLog
  var health: HealthBoard
  var paths: DaemonPaths
  var configuration: DaemonConfiguration
  var ready: Locked<Bool>
  /// Opened once the HTTP server listens.
  var listening: Latch
  var queued: [RunRecord]

  func run() async throws {
    await scheduler.resume(queued)
    notifier.status("first scan of \(branchSources.count + worktreeSources.count) repositories")
    // The first scan: every remote fetched once (successfully or not), every working tree looked at.
    await withTaskGroup(of: Void.self) { group in
      for source in branchSources { group.addTask { await source.poll() } }
      for source in worktreeSources { group.addTask { await source.check(reason: "start-up") } }
    }
    // READY only once the port accepts connections (a failed bind ends the group, cancelling this wait).
    guard await listening.wait() else {
      for source in worktreeSources { source.stop() }
      await scheduler.shutdown(grace: .zero)
      return
    }
    ready.withLock { $0 = true }
    let activity = await scheduler.activity
    notifier.ready(status: activity)
    log.info("ready: \(configuration.repositories.count) repositories; \(activity)")

    let background = Task {
      await withTaskGroup(of: Void.self) { group in
        for source in branchSources { group.addTask { await source.run() } }
        for source in worktreeSources { group.addTask { await source.run() } }
        if let interval = notifier.watchdogInterval {
          group.addTask {
            while !Task.isCancelled {
              notifier.watchdog()
              try? await Task.sleep(for: interval)
            }
          }
        }
        group.addTask { await maintenance() }
      }
    }
    try? await gracefulShutdown()

    log.info("stopping: no new runs; running runs have \(configuration.shutdownGrace) to finish")
    notifier.stopping(status: "stopping: \(await scheduler.activity)")
    background.cancel()
    for source in worktreeSources { source.stop() }
    await scheduler.shutdown(grace: configuration.shutdownGrace)
    _ = await background.value
  }

  /// Retention once an hour (and at start); a logs folder that failed is probed every 10 s so the daemon
  /// reports healthy again as soon as it can write.
  private func maintenance() async {
    var sinceRetention = Duration.seconds(3600)
    while !Task.isCancelled {
      if sinceRetention >= .seconds(3600) {
        sinceRetention = .zero
        do {
          let removed = try store.prune(
            maxRuns: configuration.retention.maxRuns, maxAge: configuration.retention.maxAge)
          for path in removed { try? FileManager.default.removeItem(atPath: path) }
          if !removed.isEmpty { log.info("retention: removed \(removed.count) old runs") }
        } catch {
          log.warning("retention failed: \(error)")
        }
      }
      if !health.isHealthy { probeLogs() }
      if health.has(HealthBoard.storeReads), sinceRetention.components.seconds % 30 == 0 { probeStore() }
      try? await Task.sleep(for: .seconds(2))
      sinceRetention += .seconds(2)
    }
  }

  /// A failed read made the daemon unhealthy: healthy again once the whole file checks out.
  private func probeStore() {
    do {
      try store.checkIntegrity()
      health.set(HealthBoard.storeReads, nil)
      log.info("the runs database checks out again")
    } catch {
      health.set(HealthBoard.storeReads, error.description)
    }
  }

  private func probeLogs() {
    let probe = paths.logs + "/.rippled-probe"
    do {
      try FileManager.default.createDirectory(atPath: paths.logs, withIntermediateDirectories: true)
      try Data("ok".utf8).write(to: URL(fileURLWithPath: probe))
      try FileManager.default.removeItem(atPath: probe)
      health.set("logs", nil)
    } catch {
      health.set("logs", "cannot write run logs in \(paths.logs): \(error.localizedDescription)")
    }
  }
}

/// One daemon per state folder: a second one would fight over the database and the work trees.
final class InstanceLock: Sendable {
  private let descriptor: Int32

  init(path: String) throws {
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw DaemonError.directory(path: path, reason: String(cString: strerror(errno))) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      throw DaemonError.alreadyRunning(lockFile: path)
    }
  }

  func release() {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}

public enum DaemonError: RippleError {
  case directory(path: String, reason: String)
  case alreadyRunning(lockFile: String)
  case store(String)
  case secretFile(path: String, key: String)
  case source(repository: String, reason: String)
  case listen(address: String, configFile: String?, reason: String)

  public var category: ErrorCategory {
    switch self {
    case .secretFile: .usage
    default: .environment
    }
  }

  public var description: String {
    switch self {
    case .directory(let path, let reason):
      "cannot create or use '\(path)': \(reason); check the owner and permissions (the unit's StateDirectory= etc.)"
    case .alreadyRunning(let lockFile):
      "another rippled is already using this state folder (\(lockFile) is locked); stop it first, "
        + "or give this one its own stateDirectory"
    case .store(let message): message
    case .secretFile(let path, let key):
      "\(key): cannot read a non-empty secret from '\(path)'; create it (readable by the service user only)"
    case .source(let repository, let reason): "repository \(repository): \(reason)"
    case .listen(let address, let configFile, let reason):
      "cannot listen on \(address) (http.address"
        + (configFile.map { " in \($0)" } ?? "")
        + "): \(reason); stop what uses that port, or set http.address to a free one"
    }
  }
}
