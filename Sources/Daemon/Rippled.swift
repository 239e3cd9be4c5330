import BuildInfo
import DaemonHTTP
import DaemonSources
import DaemonSupport
import Foundation
import Git
import Hummingbird
import Logging
import PassRecords
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

  /// VERSION, through BuildInfo: the dashboard header and /api/status show it.
  public static var version: String { BuildInfo.version }

  public func run() async throws {
    let log = DaemonLog(minimum: environment["RIPPLED_DEBUG"] == nil ? .info : .debug)
    // Refused before anything is created on disk (as `check-config` refuses them).
    let secrets = try Self.secrets(configuration.http)
    let passRecords = try DaemonPassRecords.load(configuration.records)
    let notifier = ServiceNotifier.live(environment: environment)
    // Children (git, swift) must not talk to systemd as if they were us.
    for name in ServiceNotifier.serviceVariables { unsetenv(name) }
    var childEnvironment = environment
    for name in ServiceNotifier.serviceVariables { childEnvironment[name] = nil }

    let paths = DaemonPaths.resolve(configuration, environment: environment)
    // `runs.sandbox: required` without a working bwrap refuses before anything is created on disk.
    let isolation = try await RunIsolation.make(
      configuration, paths: paths, environment: environment, configFile: configPath, process: .live, log: log)
    for directory in [paths.state, paths.cache, paths.logs] {
      do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      } catch {
        throw DaemonError.directory(path: directory, reason: error.localizedDescription)
      }
    }
    // One daemon per state folder: a second one would fight over the database and the work trees.
    guard let lock = try FileLock.tryAcquire(paths.lockFile) else {
      throw DaemonError.alreadyRunning(lockFile: paths.lockFile)
    }
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
    var services = RippleServices(process: .live, environment: childEnvironment)
    if let passRecords {
      let client = passRecords.client(store)
      services.makeResultStore = { _, _, _ in client }
    }
    let health = HealthBoard()
    // Per-repository counters (fetches, selection misses) start at 0, so rate() sees the first increase.
    let metrics = DaemonMetrics(repositories: configuration.repositories.map(\.name))
    var dirtyPaths: [String: DirtyPaths] = [:]
    for repository in configuration.repositories {
      if case .workingTree = repository.source { dirtyPaths[repository.name] = DirtyPaths() }
    }
    let executor = RunExecutor(
      paths: paths, store: store, services: services, dirtyPaths: dirtyPaths, isolation: isolation,
      passRecords: passRecords)
    let activity = Locked("starting")
    for warning in CommitStatusReporter.tokenFileWarnings(configuration.repositories) { log.warning(warning) }
    let statuses = CommitStatusReporter(
      repositories: configuration.repositories, publicURL: configuration.http.publicURL, log: log)
    let notifications = BranchNotifier(
      repositories: configuration.repositories, publicURL: configuration.http.publicURL, store: store, log: log)
    let scheduler = Scheduler(
      limit: configuration.concurrency, store: store, executor: executor, repositories: configuration.repositories,
      log: log, metrics: metrics, health: health, maxLogBytes: configuration.retention.maxLogBytes,
      statuses: statuses, notifications: notifications
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
            settings: repository, url: url, paths: paths, store: store, scheduler: .live(scheduler), process: .live,
            fetcherExecutable: selfExecutable, log: log, metrics: metrics, health: health))
      case .workingTree(let path):
        do {
          worktreeSources.append(
            try WorktreeSource(
              settings: repository, path: path, paths: paths, scheduler: .live(scheduler), log: log, health: health,
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
    let budget = DescriptorBudget.plan(
      openFileLimit: DescriptorBudget.raiseSoftLimit(), connections: configuration.http.maxConnections,
      followers: configuration.http.maxLogFollowers)
    if let warning = budget.warning { log.warning(warning) }
    let gate = ConnectionGate(limit: budget.connections)
    let api = APIContext(
      store: store, runs: .live(scheduler), metrics: metrics, status: statusProvider, branchSources: branchSources,
      worktreeSources: worktreeSources, token: secrets.token, webhookSecret: secrets.webhookSecret, log: log,
      health: health,
      sessions: WebSessions(secure: configuration.http.publicURL?.lowercased().hasPrefix("https://") ?? false),
      publicURL: configuration.http.publicURL,
      hosts: HostPolicy(listenHost: configuration.http.host, publicURL: configuration.http.publicURL),
      followers: Slots(limit: budget.followers),
      records: RecordsAccess(
        readToken: try Self.secret(configuration.records.readTokenFile, key: "records.readTokenFile"),
        writeToken: try Self.secret(configuration.records.writeTokenFile, key: "records.writeTokenFile"),
        maxBytes: configuration.records.maxBytes,
        trustedKeys: passRecords?.publicKey.flatMap { entry in
          SigningKeys.publicKey(base64: entry.base64).map { [(entry.name, $0)] }
        } ?? []),
      coverageRepositories: Set(configuration.repositories.filter(\.coverage).map(\.name)))

    var logger = Logger(label: "rippled")
    logger.logLevel = .warning
    let listening = Latch()
    let app = Application(
      router: HTTPAPI.router(api),
      server: .http1(configuration: .init(additionalChannelHandlers: [gate.handler()])),
      configuration: .init(
        address: .hostname(configuration.http.host, port: configuration.http.port), serverName: "rippled"),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.http.port
        try? "\(port)\n".write(toFile: paths.portFile, atomically: true, encoding: .utf8)
        log.info("listening on http://\(configuration.http.host):\(port)/")
        listening.open()
      },
      logger: logger)

    let started = Latch()
    let work = DaemonWork(
      scheduler: scheduler, branchSources: branchSources, worktreeSources: worktreeSources, notifier: notifier,
      log: log, configuration: configuration, ready: ready, listening: listening, started: started,
      deliveries: FinalDeliveries(statuses: statuses, notifications: notifications, clock: services.clock),
      queued: try store.queued())
    // Stopped in reverse order: watchdog, maintenance and sources first, then the runs drain, then HTTP.
    var lifecycle: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: app), .init(service: work)]
    lifecycle += branchSources.map { .init(service: SourceService($0, started: started)) }
    lifecycle += worktreeSources.map { .init(service: SourceService($0, started: started)) }
    if configuration.repositories.contains(where: { $0.canary != nil }) {
      let canaries = Canaries(
        repositories: configuration.repositories, store: store, runs: .live(scheduler), clock: .live, log: log)
      lifecycle.append(.init(service: CanaryService(canaries: canaries, started: started)))
    }
    lifecycle.append(
      .init(
        service: MaintenanceService(
          store: store, retention: configuration.retention, health: health, logs: paths.logs, log: log,
          scheduler: scheduler)))
    if let interval = notifier.watchdogInterval {
      lifecycle.append(.init(service: WatchdogService(notifier: notifier, interval: interval)))
    }
    let group = ServiceGroup(
      configuration: .init(services: lifecycle, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
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
  static func executablePath() -> String { ExecutableLookup.currentExecutable() }

  /// The API token and the webhook secret, each nil when not configured.
  public static func secrets(_ http: HTTPSettings) throws -> (token: [UInt8]?, webhookSecret: [UInt8]?) {
    (
      try secret(http.tokenFile, key: "http.tokenFile"),
      try secret(http.webhookSecretFile, key: "http.webhookSecretFile")
    )
  }

  /// A secret file's content without the trailing newline; nil when not configured.
  public static func secret(_ path: String?, key: String) throws -> [UInt8]? {
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
