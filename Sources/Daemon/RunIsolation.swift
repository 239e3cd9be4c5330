import DaemonSources
import DaemonSupport
import Foundation
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import SchedulerCore
import SystemClients

/// What keeps one run from changing what other runs see, and from reading or using what rippled holds
/// (docs/DESIGN.md, "Runs are isolated"):
///
/// - its processes (`swift build`/`test`, `dump-package`, `swift --version`, generate commands, git) run
///   under bubblewrap with the daemon's state, cache, logs, config file and the folders of its secret files
///   hidden, the file system read-only, no capabilities, only the run's work tree (not its `.git`), build
///   folder and TMPDIR writable, only `runs.environment` of rippled's variables, a network namespace of their
///   own with only loopback (`runs.network: isolated`, the default: rippled's API is out of reach), and
///   whatever a command leaves running killed when it ends;
/// - the tools rippled starts (bwrap, git, swift, sh) are looked up on rippled's PATH, never on one the
///   branch sets;
/// - the daemon's own manifest cache writes for a branch that is not protected go to that branch's layer
///   (`ManifestCache.overlay`), read before the shared one; protected branches write the shared layer.
struct RunIsolation: Sendable {
  /// bwrap's absolute path; nil: processes run unsandboxed (`runs.sandbox: off`, or `auto` without a
  /// working bwrap).
  var bwrap: String?
  var paths: DaemonPaths
  /// Files the sandbox reads as empty: the token and secret files rippled.yml names, and rippled.yml.
  var secretFiles: [String] = []
  /// Other folders to hide: the folders of the secret files (a copy such as `token.bak` beside one), systemd's
  /// credentials and the user's runtime folder (its D-Bus socket would let a process ask the user's systemd
  /// to run commands outside the sandbox).
  var extraHidden: [String] = []
  /// rippled's own PATH, on which every tool a run's processes start as is looked up (nil: not looked up).
  var toolPath: String?
  /// rippled's variables a sandboxed process inherits.
  var environment = EnvironmentAllowList()
  /// `runs.network`: `isolated` gives every sandboxed process its own network namespace.
  var network = RunNetwork.isolated

  /// Unsandboxed, cache layers still scoped (tests that build their own executor).
  static func unsandboxed(_ paths: DaemonPaths) -> RunIsolation { RunIsolation(bwrap: nil, paths: paths) }

  /// At start: bwrap is probed for `auto` and `required`; `required` without a working one refuses to start.
  static func make(
    _ configuration: DaemonConfiguration, paths: DaemonPaths, environment: [String: String], configFile: String?,
    process: ProcessClient, log: DaemonLog
  ) async throws(DaemonError) -> RunIsolation {
    var isolation = RunIsolation(bwrap: nil, paths: paths)
    isolation.toolPath = environment["PATH"]
    isolation.environment = EnvironmentAllowList(configuration.runEnvironment)
    isolation.network = configuration.network
    isolation.secretFiles = Self.secretFiles(configuration) + [configFile].compactMap { $0 }.map(Self.absolute)
    let swift = environment["RIPPLE_SWIFT"].flatMap { $0.isEmpty ? nil : $0 } ?? "swift"
    let tools = ["bwrap", "git", "sh", swift].compactMap { name -> String? in
      if name.contains("/") { return name }
      return isolation.toolPath.flatMap { ExecutableLookup.shared.resolve(name, path: $0) }
    }
    let folders = Self.secretFolders(Self.secretFiles(configuration), keeping: tools.map(Self.real))
    for file in folders.kept {
      log.warning(
        "the folder of \(file) is not hidden from runs (it is `/`, a top-level folder or holds rippled's tools): "
          + "only the file is; keep secret files in a folder of their own")
    }
    isolation.extraHidden =
      folders.hidden
      + ["XDG_RUNTIME_DIR", "CREDENTIALS_DIRECTORY"].compactMap { environment[$0] }.filter { $0.hasPrefix("/") }
    switch configuration.sandbox {
    case .off:
      log.info("runs.sandbox is off: \(SandboxProbe.consequence); \(Self.sharedNetwork)")
    case .auto, .required:
      switch await SandboxProbe.probe(process: process, isolatingNetwork: configuration.network == .isolated) {
      case .available(let version):
        // By path: a run's PATH (its `test.runs` environment) must not choose the bwrap rippled starts.
        isolation.bwrap = tools.first { $0.hasSuffix("/bwrap") } ?? "bwrap"
        log.info(
          "runs are sandboxed with \(version) (\(isolation.bwrap ?? "bwrap")), every capability dropped; "
            + Self.networkNote(configuration.network))
      case .unavailable(let reason):
        if configuration.sandbox == .required { throw .sandboxUnavailable(reason: reason) }
        log.warning(
          "no sandbox for runs: \(reason); \(SandboxProbe.consequence); \(Self.sharedNetwork) "
            + "(runs.sandbox: required refuses this)")
      }
    }
    return isolation
  }

  /// Without a sandbox there is no network namespace either, whatever `runs.network` says.
  static let sharedNetwork = "runs share the host's network and can reach rippled's API"

  /// What a run's processes can reach, for the start line and `check-config`.
  static func networkNote(_ network: RunNetwork) -> String {
    switch network {
    case .isolated:
      "runs.network: isolated: a run's processes have only a loopback of their own (not rippled's API, nor the "
        + "internet: builds fetch no dependencies; see docs/DESIGN.md)"
    case .host:
      "runs.network: host: a run's processes share the host's network, rippled's API included (its token guards it)"
    }
  }

  /// The folders holding secret files, hidden whole (another copy of a token beside it is as secret), except
  /// `/`, a top-level folder (`/etc`, `/root`: the system or the home folder would vanish) or one holding a
  /// tool rippled runs: for those (`kept`, by file) only the file is hidden.
  static func secretFolders(_ files: [String], keeping tools: [String]) -> (hidden: [String], kept: [String]) {
    var hidden: [String] = []
    var kept: [String] = []
    for file in files {
      let folder = (absolute(file) as NSString).deletingLastPathComponent
      let holdsTool = tools.contains { $0.hasPrefix(folder + "/") }
      let depth = folder.split(separator: "/").count
      if depth < 2 || holdsTool {
        kept.append(file)
      } else if !hidden.contains(folder) {
        hidden.append(folder)
      }
    }
    return (hidden, kept)
  }

  private static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }

  static func secretFiles(_ configuration: DaemonConfiguration) -> [String] {
    var files = [configuration.http.tokenFile, configuration.http.webhookSecretFile].compactMap { $0 }
    files += configuration.repositories.compactMap { $0.status?.tokenFile }
    // The records tokens, and above all the signing key: a run that read it could sign records every
    // protected branch believes.
    let records = configuration.records
    files += [records.readTokenFile, records.writeTokenFile, records.signingKeyFile].compactMap { $0 }
    return files
  }

  /// `services` for one run: tools looked up on rippled's PATH, processes sandboxed (when a sandbox is
  /// available), manifest cache writes in the branch's own layer unless the branch is protected. `say`: the
  /// run's log (what a sandboxed command left running and was killed).
  func apply(
    to services: RippleServices, run: RunRecord, settings: RepositorySettings,
    say: @escaping @Sendable (String) -> Void = { _ in }
  ) -> RippleServices {
    var services = services
    if let bwrap {
      // The lane's own HOME is added outside the sandbox's client, so the request carries it through the
      // environment allow-list (HOME is on it) into the sandbox.
      services.process = services.process.sandboxed(
        policy(run: run, settings: settings), bwrap: bwrap, environment: environment,
        leftovers: { request, killed in say(Self.leftoverLine(request, killed)) }
      ).adding(environment: home(run: run, settings: settings))
    }
    if let toolPath { services.process = services.process.resolvingExecutables(path: toolPath) }
    services.manifestCacheOverlay = overlay(run: run, settings: settings)
    return services
  }

  /// "killed what `swift test …` left running in its sandbox: 4242 sleep 600".
  static func leftoverLine(_ request: ProcessRequest, _ killed: [NamespacedProcess]) -> String {
    let command = String(request.commandLine.prefix(120))
    return "killed what `\(command)` left running in its sandbox: "
      + killed.map { "\($0.pid) \($0.command)" }.joined(separator: "; ")
  }

  /// Variables rippled sets for every run (each run's own TMPDIR; HOME, XDG and SwiftPM's cache paths lead to
  /// folders shared by all runs): a branch setting one could point a build at what other runs read.
  static let ownedVariables = ["TMPDIR", "HOME", "CFFIXED_USER_HOME", "CLANG_MODULE_CACHE_PATH"]
  static let ownedPrefixes = ["XDG_", "SWIFTPM_", "RIPPLE_"]

  static func isOwned(_ name: String) -> Bool {
    ownedVariables.contains(name) || ownedPrefixes.contains { name.hasPrefix($0) }
  }

  /// The error for a branch's ripple.yml that sets a variable rippled owns, naming it and where; nil when
  /// none does. Checked before anything of the run is started.
  static func ownedVariableProblem(_ configuration: RippleConfiguration) -> String? {
    var places: [(key: String, name: String)] = []
    for (index, run) in configuration.test.declaredRuns.enumerated() {
      for name in run.environment.keys.sorted() where isOwned(name) {
        places.append(("test.runs[\(index)] (`\(run.name)`).environment", name))
      }
    }
    for (index, environment) in configuration.selection.manifestEnvironments.enumerated() {
      for name in environment.keys.sorted() where isOwned(name) {
        places.append(("selection.manifestEnvironments[\(index)]", name))
      }
    }
    guard let first = places.first else { return nil }
    let all = places.map { "\($0.name) in \($0.key)" }.joined(separator: ", ")
    return "ripple.yml sets \(all): rippled sets \(first.name) itself for every run (it owns TMPDIR, HOME, "
      + "CFFIXED_USER_HOME, XDG_*, SWIFTPM_*, CLANG_MODULE_CACHE_PATH and RIPPLE_*, which lead to folders runs share); remove "
      + "\(places.count == 1 ? "it" : "them") from ripple.yml. Nothing of this run was started"
  }

  /// The lane's folders (as `RunExecutor.prepare` names them).
  private func lane(_ run: RunRecord, _ settings: RepositorySettings) -> String {
    if case .workingTree = settings.source { return "worktree" }
    return run.branch
  }

  func policy(run: RunRecord, settings: RepositorySettings) -> SandboxPolicy {
    let lane = lane(run, settings)
    let worktree = paths.worktree(
      run.repository, lane: lane,
      checkoutName: DaemonPaths.checkoutName(of: settings.source, repository: run.repository))
    var readOnly = [worktree + "/.git"]
    if case .remote = settings.source { readOnly.append(paths.mirror(run.repository)) }
    return SandboxPolicy(
      hiddenDirectories: ([paths.state, paths.cache, paths.logs] + extraHidden).filter(Self.isDirectory).map(
        Self.real),
      hiddenFiles: secretFiles.filter { FileManager.default.fileExists(atPath: $0) && !Self.isDirectory($0) }.map(
        Self.real),
      readOnly: readOnly.filter(Self.isDirectory).map(Self.real),
      writable: [
        worktree, paths.scratch(run.repository, lane: lane), paths.temporaryDirectory(run.repository, lane: run.branch),
      ].map(
        Self.real),
      isolatesNetwork: network == .isolated)
  }

  /// HOME and XDG_CACHE_HOME of a sandboxed run's processes: the service's own (its state folder, its cache) are
  /// hidden and read-only there, and clang's module cache and SwiftPM's caches and settings go under them. In the
  /// lane's build folder: writable, kept between the lane's runs, shared with no other branch.
  /// CFFIXED_USER_HOME too: Foundation on Linux takes the home from the password database before HOME, so SwiftPM's
  /// `~/.swiftpm/configuration` and `security` were the service user's, read-only in the sandbox, and every run's
  /// log carried SwiftPM's "is not accessible or not writable" warnings (issue 43). No pass-record key reads it.
  func home(run: RunRecord, settings: RepositorySettings) -> [String: String] {
    let home = paths.scratch(run.repository, lane: lane(run, settings)) + "/.home"
    return ["HOME": home, "CFFIXED_USER_HOME": home, "XDG_CACHE_HOME": home + "/.cache"]
  }

  /// Nil for a protected branch (it writes the shared layer); else the branch's own layer.
  func overlay(run: RunRecord, settings: RepositorySettings) -> String? {
    if Self.isProtected(run.branch, settings: settings) { return nil }
    return paths.rippleCache + "/branches/\(run.repository)/\(PathComponent.escaped(lane(run, settings)))"
  }

  /// `protectedBranches`, else the primary branch; a watched working tree is never protected (its
  /// uncommitted files are nobody's reviewed code).
  static func isProtected(_ branch: String, settings: RepositorySettings) -> Bool {
    guard case .remote = settings.source else { return false }
    let patterns = settings.protectedBranches ?? RunPlanning.primaryBranch(settings.branches).map { [$0] } ?? []
    return patterns.contains { BranchMatcher.matches($0, branch) }
  }

  private static func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
  }

  /// bwrap mounts on the path as written: a symlink in it would be followed inside the sandbox's tree.
  private static func real(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }
}

extension Rippled {
  /// `rippled check-config`'s line about the sandbox; throws as `serve` would for `required` without one.
  public static func sandboxSummary(
    _ configuration: DaemonConfiguration, process: ProcessClient = .live
  ) async throws(DaemonError)
    -> String
  {
    let mode = configuration.sandbox
    if mode == .off { return "sandbox: off: \(SandboxProbe.consequence); \(RunIsolation.sharedNetwork)" }
    switch await SandboxProbe.probe(process: process, isolatingNetwork: configuration.network == .isolated) {
    case .available(let version):
      return "sandbox: \(mode.rawValue): \(version) works; a run's processes cannot write the daemon's state, "
        + "cache, tokens or logs, nor read its config, secret files or environment; "
        + (geteuid() == 0
          ? "rippled runs as root: every capability is dropped in the sandbox (--cap-drop ALL)"
          : "they have no capabilities (--cap-drop ALL)")
        + "; " + RunIsolation.networkNote(configuration.network)
    case .unavailable(let reason):
      if mode == .required { throw .sandboxUnavailable(reason: reason) }
      return "sandbox: auto: unavailable: \(reason); \(SandboxProbe.consequence); \(RunIsolation.sharedNetwork)"
    }
  }
}
