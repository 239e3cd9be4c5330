import AssetFetch
import RippleConfig

/// Whether private assets are required, optional or not wanted.
public enum AccessMode: String, Sendable, Hashable, CaseIterable {
  /// Private files when the credentials work (or the object is cached), placeholders otherwise,
  /// saying so per asset. The default.
  case auto
  /// `--public`: placeholders only; secrets from their examples. No network.
  case `public`
  /// `--require-private` (CI that ships): missing access is an environment error (exit 3).
  case requirePrivate
}

/// One `ripple bootstrap` run's settings.
public struct BootstrapOptions: Sendable {
  public var repositoryRoot: String
  public var mode: AccessMode
  /// Only the cache: anything missing is listed and nothing is fetched.
  public var offline: Bool
  /// Reinstall every asset (re-verifying the cached download) and replace Ripple files edited locally
  /// and unmanaged files in the way.
  public var force: Bool
  /// Assets processed at the same time.
  public var jobs: Int
  /// Secret values and PATH come from here (the process environment in production).
  public var environment: [String: String]
  public var cacheRoot: String

  public init(
    repositoryRoot: String, mode: AccessMode = .auto, offline: Bool = false, force: Bool = false, jobs: Int = 4,
    environment: [String: String], cacheRoot: String? = nil
  ) {
    self.repositoryRoot = repositoryRoot
    self.mode = mode
    self.offline = offline
    self.force = force
    self.jobs = max(1, jobs)
    self.environment = environment
    self.cacheRoot = cacheRoot ?? ContentCache.defaultRoot(environment: environment)
  }
}

/// Test seams for failures that are hard to cause for real.
public struct BootstrapHooks: Sendable {
  /// Before each file written into staging (a thrown `POSIXError(.ENOSPC)` simulates a full disk).
  public var beforeWrite: WriteHook?
  /// After each step of the install protocol (throw `InstallInterrupted` to simulate `kill -9`).
  public var afterInstallStep: InstallHook?

  public init(beforeWrite: WriteHook? = nil, afterInstallStep: InstallHook? = nil) {
    self.beforeWrite = beforeWrite
    self.afterInstallStep = afterInstallStep
  }
}

/// What happened to one asset.
public enum AssetStatus: Sendable, Hashable {
  case upToDate(InstallKind)
  case installed(InstallKind, InstallOutcome, downloaded: Bool)
  case failed(AssetsError)
}

public struct AssetReport: Sendable, Hashable {
  public var id: String
  public var status: AssetStatus
  /// Why placeholders were used (auto mode without access), for the per-asset message.
  public var placeholderReason: String?
  /// Repo-relative Ripple files edited locally and kept.
  public var keptEdited: [String]
}

/// What happened to one `generate:` entry.
public enum GenerateStatus: Sendable, Hashable {
  /// `.generated` (the command's outputs) or `.private` (its private asset's files).
  case upToDate(InstallKind)
  case installed(InstallKind, InstallOutcome)
  case failed(AssetsError)
  /// Not run: these entries (or assets) it runs after were not installed.
  case skipped(after: [String])
}

public struct GenerateReport: Sendable, Hashable {
  public var id: String
  public var status: GenerateStatus
  /// Why the command ran although the entry has a private asset (no access, `--public`).
  public var commandReason: String?

  public init(id: String, status: GenerateStatus, commandReason: String? = nil) {
    self.id = id
    self.status = status
    self.commandReason = commandReason
  }

  /// Installed or up to date: entries after it may run.
  public var succeeded: Bool {
    switch status {
    case .upToDate, .installed: true
    case .failed, .skipped: false
    }
  }
}

public struct BootstrapReport: Sendable, Hashable {
  public var assets: [AssetReport]
  public var secrets: [(id: String, outcome: SecretOutcome)]
  /// Interrupted installs completed or rolled back at the start of the run.
  public var recovered: [String]
  /// `generate:` entries, in the order they finished.
  public var generated: [GenerateReport]

  public init(
    assets: [AssetReport], secrets: [(id: String, outcome: SecretOutcome)], recovered: [String],
    generated: [GenerateReport] = []
  ) {
    self.assets = assets
    self.secrets = secrets
    self.recovered = recovered
    self.generated = generated
  }

  public var failures: [AssetsError] {
    assets.compactMap { if case .failed(let error) = $0.status { error } else { nil } }
      + generated.compactMap { report -> AssetsError? in
        switch report.status {
        case .failed(let error): error
        case .skipped(let after): .generateSkipped(entry: report.id, after: after)
        case .upToDate, .installed: nil
        }
      }
  }

  public static func == (a: BootstrapReport, b: BootstrapReport) -> Bool {
    a.assets == b.assets && a.generated == b.generated && a.recovered == b.recovered
      && a.secrets.map(\.id) == b.secrets.map(\.id)
      && a.secrets.map(\.outcome) == b.secrets.map(\.outcome)
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(assets) }
}

/// Progress of a run, for a live line on a terminal or plain lines in CI.
public enum BootstrapEvent: Sendable {
  case waitingForRepository(holder: String)
  case waitingForDownload(asset: String, holder: String)
  case recovered(asset: String)
  case started(asset: String, kind: InstallKind, reason: String?)
  case progress(FetchProgress)
  case transforming(asset: String, file: String, done: Int, total: Int)
  case finished(AssetReport)
  case secretWritten(id: String, outcome: SecretOutcome)
  /// A `generate:` entry's command starts (`reason`: why not its private asset), or its private asset installs.
  case generateStarted(entry: String, kind: InstallKind, reason: String?)
  case generateFinished(GenerateReport)
}
