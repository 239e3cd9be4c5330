/// `rippled.yml`: what the daemon watches, how often, how much at once, where it keeps things.
/// Parsed by `DaemonConfigLoader`; every error names the file, line and key.
public struct DaemonConfiguration: Sendable, Hashable {
  public var http: HTTPSettings
  /// Where the runs database lives. nil: `$STATE_DIRECTORY` (systemd), else `$XDG_STATE_HOME/rippled`,
  /// else `~/.local/state/rippled`.
  public var stateDirectory: String?
  /// Mirrors, worktrees, build folders, asset and manifest caches. nil: `$CACHE_DIRECTORY`, else
  /// `$XDG_CACHE_HOME/rippled`, else `~/.cache/rippled`.
  public var cacheDirectory: String?
  /// Run logs. nil: `$LOGS_DIRECTORY`, else `<stateDirectory>/logs`.
  public var logsDirectory: String?
  /// Runs at the same time, across all repositories.
  public var concurrency: Int
  /// On SIGTERM, how long a running run may go on before its process group is terminated.
  public var shutdownGrace: Duration
  public var retention: Retention
  public var repositories: [RepositorySettings]
  /// `runs.sandbox`: whether a run's processes are sandboxed (docs/DESIGN.md, rippled).
  public var sandbox: SandboxMode = .auto
  /// `runs.network`: whether a sandboxed run's processes share the host's network (docs/DESIGN.md, rippled).
  public var network: RunNetwork = .isolated
  /// `runs.environment`: the names of rippled's variables a sandboxed run's processes inherit; a run's own
  /// `test.runs` variables and TMPDIR are set on top. The rest (credentials) never reach a branch's code.
  public var runEnvironment: [String] = Self.defaultRunEnvironment
  public static let defaultRunEnvironment = ["PATH", "HOME", "LANG", "TMPDIR"]
  /// `runs.assetFolders`: folders every repository's `file:` asset sources may read (already merged into each
  /// repository's `assetFolders`).
  public var assetFolders: [String] = []
  /// `records:`: rippled as the team's store of pass records.
  public var records = RecordsSettings()

  public init(
    http: HTTPSettings = .init(), stateDirectory: String? = nil, cacheDirectory: String? = nil,
    logsDirectory: String? = nil, concurrency: Int = 1, shutdownGrace: Duration = .seconds(60),
    retention: Retention = .init(), repositories: [RepositorySettings] = []
  ) {
    self.http = http
    self.stateDirectory = stateDirectory
    self.cacheDirectory = cacheDirectory
    self.logsDirectory = logsDirectory
    self.concurrency = concurrency
    self.shutdownGrace = shutdownGrace
    self.retention = retention
    self.repositories = repositories
  }
}

/// `runs.sandbox` in rippled.yml: the build, test, manifest and generate processes of a run under bubblewrap,
/// unable to write the daemon's state, cache, tokens and logs.
public enum SandboxMode: String, Sendable, Hashable, CaseIterable {
  /// Sandboxed when bwrap works here; otherwise a warning at start and unsandboxed runs.
  case auto
  /// rippled refuses to start when bwrap does not work.
  case required
  /// Never sandboxed (every branch's code must then be trusted as the daemon's user).
  case off
}

/// `runs.network` in rippled.yml: the network a sandboxed run's processes (builds, tests, manifests, generate
/// commands, `git lfs`) see. rippled's own fetches (git, `url:` assets) are not a run's and keep the host's.
public enum RunNetwork: String, Sendable, Hashable, CaseIterable {
  /// A network namespace of their own with only loopback (bwrap's `--unshare-net`): nothing outside the
  /// sandbox, so not rippled's API on any address, nor the internet (SwiftPM cannot fetch dependencies).
  case isolated
  /// The host's network, as the daemon's user has it: rippled's API (its token guards it), other services on
  /// loopback, the internet.
  case host
}

public struct HTTPSettings: Sendable, Hashable {
  /// Listen address; loopback unless the operator says otherwise. An IPv6 address has no brackets
  /// (`::1`; `rippled.yml` writes `address: "[::1]:7878"`).
  public var host: String
  /// 0 picks a free port (tests); the chosen port is logged and written to `<state>/http-port`.
  public var port: Int
  /// A file holding the bearer token `POST /api/runs` requires. nil: that endpoint answers 403.
  public var tokenFile: String?
  /// A file holding the GitHub webhook secret. nil: `/hooks/github` answers 404.
  public var webhookSecretFile: String?
  /// How people reach the dashboard (`https://ci.example.com/ripple`): the base of the run links in
  /// commit statuses. nil: statuses carry no link.
  public var publicURL: String?
  /// Connections held open at once; a new one beyond closes the idle one used least recently (or, all busy, is
  /// closed itself). Kept well below the open-file limit, which the runs' processes need too.
  public var maxConnections: Int = 256
  /// `/api/runs/{id}/log?follow=1` readers at once; more answer 503.
  public var maxLogFollowers: Int = 32

  public init(
    host: String = "127.0.0.1", port: Int = 7878, tokenFile: String? = nil, webhookSecretFile: String? = nil
  ) {
    self.host = host
    self.port = port
    self.tokenFile = tokenFile
    self.webhookSecretFile = webhookSecretFile
  }
}

public struct Retention: Sendable, Hashable {
  /// Runs kept in the store (oldest finished ones go first).
  public var maxRuns: Int
  /// Finished runs older than this are removed.
  public var maxAge: Duration
  /// A run's log stops growing here (a last line says it was cut).
  public var maxLogBytes: Int

  public init(maxRuns: Int = 1000, maxAge: Duration = .seconds(30 * 86_400), maxLogBytes: Int = 10 << 20) {
    self.maxRuns = maxRuns
    self.maxAge = maxAge
    self.maxLogBytes = maxLogBytes
  }
}

public struct RepositorySettings: Sendable, Hashable {
  public enum Source: Sendable, Hashable {
    /// A remote (URL or path of a bare repo) whose branches are fetched on an interval.
    case remote(url: String)
    /// A working tree on this machine (dev box), watched for saves.
    case workingTree(path: String)
  }

  public enum WatchMode: String, Sendable, Hashable, CaseIterable {
    /// inotify on Linux, polling elsewhere.
    case auto
    case inotify
    case poll
  }

  /// Unique, `[A-Za-z0-9._-]+`: used in paths, URLs and metrics labels.
  public var name: String
  public var source: Source
  /// Remote sources: which branches to follow, first match wins.
  public var branches: [BranchRule]
  public var fetchInterval: Duration
  /// A fetch that takes longer is abandoned (and retried with jittered backoff).
  public var fetchTimeout: Duration
  /// A run that takes longer is stopped, its process group killed, and recorded `error`.
  public var runTimeout: Duration
  /// Working-tree sources: quiet time after the last file event before looking.
  public var settle: Duration
  public var watch: WatchMode
  /// Used by `poll` (and `auto` where inotify is missing).
  public var pollInterval: Duration
  /// Run `ripple bootstrap` in the run's worktree when the asset manifest changed.
  public var bootstrap: Bool
  /// Extra arguments for `swift build` and `swift test`.
  public var testArguments: [String]
  /// Measure the suite's line coverage in every run (`ripple test --coverage`: the selected targets' fresh, the
  /// others' from their pass records), recorded per run for the dashboard's coverage chart and `/metrics`.
  public var coverage = false
  /// `test` turns on test-level selection for the repository (`ripple test --granularity test`; its canary runs
  /// make the coverage maps); nil: the repository's own `test.granularity`.
  public var granularity: TestGranularity?
  /// Re-run each failed test up to this many times (`ripple test --retry-failed N`): one that then passes is
  /// flaky (the flaky panel, `/metrics`' `rippled_flaky_tests_total`); 0: none.
  public var retryFailed = 0
  /// Where each run's result is posted as a commit status (nil: nowhere).
  public var status: CommitStatusSettings?
  /// A full run of the primary branch every so often, to measure selection misses (nil: none).
  public var canary: CanarySettings?
  /// Where a branch going from passing to failing and back is announced (nil: nowhere).
  public var notify: NotifySettings?
  /// Branches (names or globs) whose runs write the shared manifest cache; every other branch's runs write
  /// their own layer and read it over the shared one. nil: the primary branch (the first named without
  /// wildcards in `branches`).
  public var protectedBranches: [String]?
  /// Absolute folders a branch's `file:` asset sources may read besides its own repository: this repository's
  /// `assetFolders` and `runs.assetFolders` of rippled.yml. Nothing else rippled can read is reachable.
  public var assetFolders: [String] = []

  public init(
    name: String, source: Source, branches: [BranchRule] = [BranchRule(pattern: "main")],
    fetchInterval: Duration = .seconds(60), fetchTimeout: Duration = .seconds(120),
    runTimeout: Duration = .seconds(30 * 60), settle: Duration = .milliseconds(300), watch: WatchMode = .auto,
    pollInterval: Duration = .seconds(2), bootstrap: Bool = true, testArguments: [String] = []
  ) {
    self.name = name
    self.source = source
    self.branches = branches
    self.fetchInterval = fetchInterval
    self.fetchTimeout = fetchTimeout
    self.runTimeout = runTimeout
    self.settle = settle
    self.watch = watch
    self.pollInterval = pollInterval
    self.bootstrap = bootstrap
    self.testArguments = testArguments
  }
}

public struct BranchRule: Sendable, Hashable {
  /// A glob over branch names: `main`, `release/*`, `*`.
  public var pattern: String
  /// A newer commit cancels the running run of the branch (recorded `superseded`), instead of
  /// waiting for it to finish.
  public var cancelRunning: Bool

  public init(pattern: String, cancelRunning: Bool = false) {
    self.pattern = pattern
    self.cancelRunning = cancelRunning
  }
}

/// `canary: {every: 24h, branch?}`: a full run (every test target) of `branch` when the last one is older than
/// `every` (docs/DESIGN.md, "Canary runs and selection misses").
public struct CanarySettings: Sendable, Hashable {
  public var every: Duration
  /// The primary branch: `branch`, else the first plain name of `branches`.
  public var branch: String

  public init(every: Duration, branch: String) {
    self.every = every
    self.branch = branch
  }
}

/// `notify: {webhook: URL}`: a Slack-compatible `{"text": ...}` POST when a branch fails or recovers.
public struct NotifySettings: Sendable, Hashable {
  public var webhook: String

  public init(webhook: String) { self.webhook = webhook }
}
