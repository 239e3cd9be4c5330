import DaemonSources
import DaemonSupport
import Foundation
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import SchedulerCore
import SystemClients

/// What keeps one run from changing what other runs see (docs/DESIGN.md, "Runs are isolated"):
///
/// - its processes (`swift build`/`test`, `dump-package`, `swift --version`, generate commands, git) run
///   under bubblewrap with the daemon's state, cache, logs and secret files hidden, the file system
///   read-only, and only the run's work tree (not its `.git`), build folder and TMPDIR writable;
/// - the daemon's own manifest cache writes for a branch that is not protected go to that branch's layer
///   (`ManifestCache.overlay`), read before the shared one; protected branches write the shared layer.
struct RunIsolation: Sendable {
  /// bwrap's name or path; nil: processes run unsandboxed (`runs.sandbox: off`, or `auto` without a
  /// working bwrap).
  var bwrap: String?
  var paths: DaemonPaths
  /// Files the sandbox reads as empty: the token and secret files rippled.yml names.
  var secretFiles: [String] = []
  /// Other folders to hide: systemd's credentials and the user's runtime folder (its D-Bus socket would
  /// let a process ask the user's systemd to run commands outside the sandbox).
  var extraHidden: [String] = []

  /// Unsandboxed, cache layers still scoped (tests that build their own executor).
  static func unsandboxed(_ paths: DaemonPaths) -> RunIsolation { RunIsolation(bwrap: nil, paths: paths) }

  /// At start: bwrap is probed for `auto` and `required`; `required` without a working one refuses to start.
  static func make(
    _ configuration: DaemonConfiguration, paths: DaemonPaths, environment: [String: String], process: ProcessClient,
    log: DaemonLog
  ) async throws(DaemonError) -> RunIsolation {
    var isolation = RunIsolation(bwrap: nil, paths: paths)
    isolation.secretFiles = Self.secretFiles(configuration)
    isolation.extraHidden = ["XDG_RUNTIME_DIR", "CREDENTIALS_DIRECTORY"].compactMap { environment[$0] }.filter {
      $0.hasPrefix("/")
    }
    switch configuration.sandbox {
    case .off:
      log.info("runs.sandbox is off: \(SandboxProbe.consequence)")
    case .auto, .required:
      switch await SandboxProbe.probe(process: process) {
      case .available(let version):
        isolation.bwrap = "bwrap"
        log.info("runs are sandboxed with \(version)")
      case .unavailable(let reason):
        if configuration.sandbox == .required { throw .sandboxUnavailable(reason: reason) }
        log.warning("no sandbox for runs: \(reason); \(SandboxProbe.consequence) (runs.sandbox: required refuses this)")
      }
    }
    return isolation
  }

  static func secretFiles(_ configuration: DaemonConfiguration) -> [String] {
    var files = [configuration.http.tokenFile, configuration.http.webhookSecretFile].compactMap { $0 }
    files += configuration.repositories.compactMap { $0.status?.tokenFile }
    return files
  }

  /// `services` for one run: processes sandboxed (when a sandbox is available), manifest cache writes in the
  /// branch's own layer unless the branch is protected.
  func apply(to services: RippleServices, run: RunRecord, settings: RepositorySettings) -> RippleServices {
    var services = services
    if let bwrap {
      services.process = services.process.sandboxed(policy(run: run, settings: settings), bwrap: bwrap)
        .adding(environment: home(run: run, settings: settings))
    }
    services.manifestCacheOverlay = overlay(run: run, settings: settings)
    return services
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
        Self.real))
  }

  /// HOME and XDG_CACHE_HOME of a sandboxed run's processes: the service's own (its state folder, its cache) are
  /// hidden and read-only there, and clang's module cache and SwiftPM's caches and settings go under them. In the
  /// lane's build folder: writable, kept between the lane's runs, shared with no other branch.
  func home(run: RunRecord, settings: RepositorySettings) -> [String: String] {
    let home = paths.scratch(run.repository, lane: lane(run, settings)) + "/.home"
    return ["HOME": home, "XDG_CACHE_HOME": home + "/.cache"]
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
    if mode == .off { return "sandbox: off: \(SandboxProbe.consequence)" }
    switch await SandboxProbe.probe(process: process) {
    case .available(let version):
      return "sandbox: \(mode.rawValue): \(version) works; a run's processes cannot write the daemon's state, "
        + "cache, tokens or logs"
    case .unavailable(let reason):
      if mode == .required { throw .sandboxUnavailable(reason: reason) }
      return "sandbox: auto: unavailable: \(reason); \(SandboxProbe.consequence)"
    }
  }
}
