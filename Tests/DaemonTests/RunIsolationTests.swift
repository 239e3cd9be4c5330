import Foundation
import RippleConfig
import RippleCore
import RippleKit
import RunModel
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

@Suite("a run's sandbox and cache layer")
struct RunIsolationTests {
  static func run(_ branch: String, id: Int64 = 7) -> RunRecord {
    RunRecord(id: id, repository: "app", branch: branch, trigger: .fetch, head: "abc", queuedAt: Date())
  }

  static let settings = RepositorySettings(
    name: "app", source: .remote(url: "https://git.example/acme/app.git"),
    branches: [BranchRule(pattern: "main"), BranchRule(pattern: "feature/*")])

  final class Folders: @unchecked Sendable {
    let root: String
    let paths: DaemonPaths
    init() throws {
      root =
        URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
        + "/ripple-isolation-\(UUID().uuidString.prefix(8))"
      paths = DaemonPaths(state: root + "/state", cache: root + "/cache", logs: root + "/logs")
      for folder in [
        paths.state, paths.logs, paths.mirror("app"),
        paths.worktree("app", lane: "main", checkoutName: "app") + "/.git",
      ] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      try Data("t\n".utf8).write(to: URL(fileURLWithPath: root + "/token"))
    }
    deinit { try? FileManager.default.removeItem(atPath: root) }
  }

  @Test func theRunSeesItsWorkTreeAndNothingOfTheDaemon() throws {
    let folders = try Folders()
    let paths = folders.paths
    var isolation = RunIsolation(bwrap: "bwrap", paths: paths)
    isolation.secretFiles = [folders.root + "/token", folders.root + "/missing-token"]
    let policy = isolation.policy(run: Self.run("main"), settings: Self.settings)
    let worktree = paths.worktree("app", lane: "main", checkoutName: "app")
    #expect(policy.hiddenDirectories == [paths.state, paths.cache, paths.logs])
    #expect(policy.hiddenFiles == [folders.root + "/token"], "a file that does not exist is not mounted over")
    #expect(policy.readOnly == [worktree + "/.git", paths.mirror("app")])
    #expect(
      policy.writable == [worktree, paths.scratch("app", lane: "main"), paths.temporaryDirectory("app", lane: "main")])
  }

  @Test func protectedBranchesWriteTheSharedLayerOthersTheirOwn() {
    let isolation = RunIsolation.unsandboxed(DaemonPaths(state: "/s", cache: "/c", logs: "/l"))
    #expect(isolation.overlay(run: Self.run("main"), settings: Self.settings) == nil, "the primary branch")
    #expect(
      isolation.overlay(run: Self.run("feature/x"), settings: Self.settings)
        == "/c/ripple/branches/app/feature_2Fx")
    var configured = Self.settings
    configured.protectedBranches = ["release/*"]
    #expect(isolation.overlay(run: Self.run("release/1.0"), settings: configured) == nil)
    #expect(isolation.overlay(run: Self.run("main"), settings: configured) != nil, "the configured list replaces it")
    let watched = RepositorySettings(name: "app", source: .workingTree(path: "/src/app"))
    #expect(isolation.overlay(run: Self.run("worktree"), settings: watched) == "/c/ripple/branches/app/worktree")
  }

  @Test func theRunsServicesCarryTheLayerAndTheSandbox() async throws {
    let recording = ScriptedProcess().on(.command("/usr/bin/bwrap"), .exit(0))
    let isolation = RunIsolation(bwrap: "/usr/bin/bwrap", paths: DaemonPaths(state: "/s", cache: "/c", logs: "/l"))
    let services = isolation.apply(
      to: RippleServices(process: recording.client, environment: ["RIPPLE_CACHE_DIR": "/c/ripple"]),
      run: Self.run("feature/x"), settings: Self.settings)
    #expect(services.manifestCache.directory == "/c/ripple/manifests")
    #expect(services.manifestCache.overlay == "/c/ripple/branches/app/feature_2Fx")
    let result = try await services.process.run(ProcessRequest("swift", ["build"]))
    #expect(result.request.executable == "swift", "results name the command")
    #expect(recording.requests.first?.executable == "/usr/bin/bwrap")
    #expect(recording.requests.first.map { Array($0.arguments.suffix(3)) } == ["--", "swift", "build"])
  }

  /// The service's HOME is its state folder and XDG_CACHE_HOME is under its cache: both hidden and read-only in
  /// the sandbox, where clang's module cache and SwiftPM's caches could not be made (every run failed at
  /// manifest evaluation). A sandboxed run's processes get a home of their lane's own, in its build folder.
  @Test func sandboxedProcessesHaveAWritableHomeOfTheirLanesOwn() async throws {
    let recording = ScriptedProcess().on(.command("bwrap"), .exit(0))
    let paths = DaemonPaths(state: "/s", cache: "/c", logs: "/l")
    let isolation = RunIsolation(bwrap: "bwrap", paths: paths)
    for branch in ["main", "feature/x"] {
      let services = isolation.apply(
        to: RippleServices(process: recording.client, environment: [:]), run: Self.run(branch), settings: Self.settings)
      _ = try await services.process.run(ProcessRequest("swift", ["build"]))
    }
    let homes = recording.requests.map { $0.environment["HOME"] ?? nil }
    #expect(
      homes == [paths.scratch("app", lane: "main") + "/.home", paths.scratch("app", lane: "feature/x") + "/.home"])
    let caches = recording.requests.map { $0.environment["XDG_CACHE_HOME"] ?? nil }
    #expect(caches == homes.map { $0.map { $0 + "/.cache" } })
    // Foundation's home (SwiftPM's ~/.swiftpm) is the password database's unless CFFIXED_USER_HOME says otherwise.
    #expect(recording.requests.map { $0.environment["CFFIXED_USER_HOME"] ?? nil } == homes)
    #expect(
      isolation.policy(run: Self.run("main"), settings: Self.settings).writable.contains(
        paths.scratch("app", lane: "main")),
      "the home is in a folder the run may write")

    let unsandboxed = RunIsolation.unsandboxed(paths).apply(
      to: RippleServices(process: recording.client, environment: [:]), run: Self.run("main"), settings: Self.settings)
    _ = try await unsandboxed.process.run(ProcessRequest("bwrap", []))
    #expect(recording.requests.last.map { $0.environment["HOME"] == nil } == true, "unsandboxed: the service's own")
  }

  @Test func requiredWithoutBubblewrapRefusesToStart() async throws {
    let missing = ScriptedProcess().on(.any, .run { throw ProcessError.notFound(executable: $0.executable) }).client
    var configuration = DaemonConfiguration()
    configuration.sandbox = .required
    let lines = Locked<[String]>([])
    let log = DaemonLog(minimum: .debug) { line in lines.withLock { $0.append(line) } }
    let error = await #expect(throws: DaemonError.self) {
      _ = try await RunIsolation.make(
        configuration, paths: DaemonPaths(state: "/s", cache: "/c", logs: "/l"), environment: [:], configFile: nil,
        process: missing, log: log)
    }
    #expect(error?.category == .environment, "exit code 3")
    #expect(error?.description.contains("runs.sandbox is `required` and the sandbox is unavailable") == true)
    #expect(error?.description.contains("apt-get install bubblewrap") == true)
    await #expect(throws: DaemonError.self) { _ = try await Rippled.sandboxSummary(configuration, process: missing) }

    // auto: a warning saying what it means, and unsandboxed runs.
    configuration.sandbox = .auto
    let auto = try await RunIsolation.make(
      configuration, paths: DaemonPaths(state: "/s", cache: "/c", logs: "/l"), environment: [:], configFile: nil,
      process: missing, log: log)
    #expect(auto.bwrap == nil)
    #expect(
      lines.withLock {
        $0.contains { $0.contains("no sandbox for runs") && $0.contains("can write the daemon's state") }
      })
    let summary = try await Rippled.sandboxSummary(configuration, process: missing)
    #expect(summary.hasPrefix("sandbox: auto: unavailable: bubblewrap (`bwrap`) is not installed"), "\(summary)")
  }

  /// An executable file `name` in a new folder of `root`; the folder.
  static func tool(_ name: String, in root: String, folder: String) throws -> String {
    let directory = root + "/" + folder
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    FileManager.default.createFile(
      atPath: directory + "/" + name, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
    return directory
  }

  /// Issue 39, item 1: a branch's `test.runs` PATH (here `evil/`, holding its own bwrap and swift) chooses
  /// neither the bwrap rippled starts nor the swift bwrap starts: both come from rippled's PATH, by path.
  @Test func toolsComeFromRippledsPathNeverTheBranchs() async throws {
    let folders = try Folders()
    let good = try Self.tool("bwrap", in: folders.root, folder: "bin")
    _ = try Self.tool("swift", in: folders.root, folder: "bin")
    let evil = try Self.tool("bwrap", in: folders.root, folder: "evil")
    _ = try Self.tool("swift", in: folders.root, folder: "evil")
    let probe = ScriptedProcess().on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
      .on(.command("bwrap"), .exit(0))
    var configuration = DaemonConfiguration()
    configuration.sandbox = .required
    let isolation = try await RunIsolation.make(
      configuration, paths: folders.paths, environment: ["PATH": good + ":/usr/bin:/bin"], configFile: nil,
      process: probe.client, log: DaemonLog(minimum: .error) { _ in })
    #expect(isolation.bwrap == good + "/bwrap")

    let recording = ScriptedProcess().on(.any, .exit(0))
    let services = isolation.apply(
      to: RippleServices(process: recording.client, environment: [:]), run: Self.run("feature/x"),
      settings: Self.settings)
    let request = ProcessRequest("swift", ["build"], environment: ["PATH": evil + ":/usr/bin:/bin"])
    let result = try await services.process.run(request)
    #expect(result.request == request, "results name the command as asked")
    let started = try #require(recording.requests.first)
    #expect(started.executable == good + "/bwrap")
    #expect(Array(started.arguments.suffix(3)) == ["--", good + "/swift", "build"])
    #expect(started.environment["PATH"] == .some(evil + ":/usr/bin:/bin"), "inside the sandbox the branch's PATH holds")
  }

  /// Issue 39, item 6: rippled.yml and the folders of the secret files are hidden (a `token.bak` beside the
  /// token too), and only `runs.environment` of rippled's variables reach a sandboxed process.
  @Test func theConfigFileSecretFoldersAndEnvironmentAreKeptFromTheRun() async throws {
    let folders = try Folders()
    let secrets = folders.root + "/secrets"
    try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true)
    try Data("t\n".utf8).write(to: URL(fileURLWithPath: secrets + "/token"))
    try Data("t\n".utf8).write(to: URL(fileURLWithPath: secrets + "/token.bak"))
    let config = folders.root + "/rippled.yml"
    try Data("runs: {}\n".utf8).write(to: URL(fileURLWithPath: config))
    var configuration = DaemonConfiguration()
    configuration.sandbox = .required
    configuration.http.tokenFile = secrets + "/token"
    configuration.runEnvironment = ["PATH", "LANG"]
    let probe = ScriptedProcess().on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
      .on(.command("bwrap"), .exit(0))
    let isolation = try await RunIsolation.make(
      configuration, paths: folders.paths, environment: ["PATH": "/usr/bin:/bin"], configFile: config,
      process: probe.client, log: DaemonLog(minimum: .error) { _ in })
    let policy = isolation.policy(run: Self.run("main"), settings: Self.settings)
    #expect(policy.hiddenFiles.contains(config), "\(policy.hiddenFiles)")
    #expect(policy.hiddenDirectories.contains(secrets), "\(policy.hiddenDirectories)")

    setenv("RIPPLE_ISOLATION_TEST_SECRET", "s3cr3t", 1)
    let recording = ScriptedProcess().on(.any, .exit(0))
    let services = isolation.apply(
      to: RippleServices(process: recording.client, environment: [:]), run: Self.run("main"), settings: Self.settings)
    _ = try await services.process.run(ProcessRequest("/bin/true", environment: ["RUN_VARIABLE": "1"]))
    let environment = try #require(recording.requests.first?.environment)
    #expect(environment["RIPPLE_ISOLATION_TEST_SECRET"] == .some(nil), "removed: not in runs.environment")
    #expect(environment["PATH"] == nil, "allowed: inherited as it is")
    #expect(environment["RUN_VARIABLE"] == .some("1"), "the run's own variables stay")
  }

  @Test func thePassRecordSigningKeyAndTokensAreHiddenFromEveryRun() async throws {
    // A run that read the signing key could sign records every protected branch believes.
    let folders = try Folders()
    let keys = folders.root + "/records"
    try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
    for name in ["signing.key", "read.token", "write.token"] {
      try Data("k\n".utf8).write(to: URL(fileURLWithPath: keys + "/" + name))
    }
    var configuration = DaemonConfiguration()
    configuration.sandbox = .required
    configuration.records = RecordsSettings(
      readTokenFile: keys + "/read.token", writeTokenFile: keys + "/write.token", signingKeyFile: keys + "/signing.key")
    let probe = ScriptedProcess().on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
      .on(.command("bwrap"), .exit(0))
    let isolation = try await RunIsolation.make(
      configuration, paths: folders.paths, environment: ["PATH": "/usr/bin:/bin"], configFile: nil,
      process: probe.client, log: DaemonLog(minimum: .error) { _ in })
    let policy = isolation.policy(run: Self.run("feature"), settings: Self.settings)
    #expect(policy.hiddenDirectories.contains(keys), "\(policy.hiddenDirectories)")
    for name in ["signing.key", "read.token", "write.token"] {
      #expect(policy.hiddenFiles.contains(keys + "/" + name), "\(name): \(policy.hiddenFiles)")
    }
  }

  @Test func secretFoldersAreHiddenUnlessTheSystemOrTheToolsWouldGoWithThem() {
    let folders = RunIsolation.secretFolders(
      ["/etc/ripple/secrets/token", "/etc/ripple/secrets/hook", "/etc/token", "/token", "/opt/tools/token"],
      keeping: ["/opt/tools/bwrap"])
    #expect(folders.hidden == ["/etc/ripple/secrets"])
    #expect(folders.kept == ["/etc/token", "/token", "/opt/tools/token"])
  }

  /// Issue 39, item 2: TMPDIR, HOME, XDG_* and SwiftPM's variables lead to folders runs share; a branch
  /// that sets one gets an error naming it and where, before anything runs.
  @Test func aBranchCannotSetTheVariablesRippledOwns() {
    var configuration = RippleConfiguration()
    configuration.test.declaredRuns = [
      TestRunSpec(name: "default", environment: ["PATH": "/evil:/usr/bin", "TEST_SERVER": "1"])
    ]
    #expect(
      RunIsolation.ownedVariableProblem(configuration) == nil, "PATH and the run's own variables are the branch's")
    configuration.test.declaredRuns.append(
      TestRunSpec(name: "poison", environment: ["TMPDIR": "/var/cache/rippled/ripple/manifests"]))
    configuration.selection.manifestEnvironments = [[:], ["XDG_CACHE_HOME": "/x"]]
    let problem = RunIsolation.ownedVariableProblem(configuration)
    #expect(
      problem?.hasPrefix(
        "ripple.yml sets TMPDIR in test.runs[1] (`poison`).environment, XDG_CACHE_HOME in "
          + "selection.manifestEnvironments[1]: rippled sets TMPDIR itself") == true, "\(problem ?? "nil")")
    for name in [
      "HOME", "CFFIXED_USER_HOME", "SWIFTPM_CACHE_PATH", "CLANG_MODULE_CACHE_PATH", "RIPPLE_CACHE_DIR",
      "XDG_CONFIG_HOME",
    ] {
      #expect(RunIsolation.isOwned(name), "\(name)")
    }
    #expect(!RunIsolation.isOwned("PATH") && !RunIsolation.isOwned("LANG"))
  }
}
