import Foundation
import RippleCore
import SystemClients
import TestSupport
import Testing

@Suite struct SandboxPolicyTests {
  static let policy = SandboxPolicy(
    hiddenDirectories: ["/var/cache/rippled/", "/var/lib/rippled", "/var/log/rippled"],
    hiddenFiles: ["/etc/ripple/token"],
    readOnly: ["/var/cache/rippled/work/app/main/app/.git", "/var/cache/rippled/mirrors/app.git"],
    writable: ["/var/cache/rippled/work/app/main/app", "/var/cache/rippled/tmp/run-7"])

  @Test func mountsParentsFirstHidingBeforeShowingAgain() {
    let argv = Self.policy.prefix(bwrap: "bwrap", workingDirectory: "/var/cache/rippled/work/app/main/app")
    #expect(
      argv == [
        "bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--proc", "/proc", "--cap-drop", "ALL",
        "--tmpfs", "/var/cache/rippled", "--tmpfs", "/var/lib/rippled", "--tmpfs", "/var/log/rippled",
        "--ro-bind", "/dev/null", "/etc/ripple/token",
        "--ro-bind", "/var/cache/rippled/mirrors/app.git", "/var/cache/rippled/mirrors/app.git",
        "--bind", "/var/cache/rippled/tmp/run-7", "/var/cache/rippled/tmp/run-7",
        "--bind", "/var/cache/rippled/work/app/main/app", "/var/cache/rippled/work/app/main/app",
        "--ro-bind", "/var/cache/rippled/work/app/main/app/.git", "/var/cache/rippled/work/app/main/app/.git",
        "--remount-ro", "/var/cache/rippled", "--remount-ro", "/var/lib/rippled", "--remount-ro", "/var/log/rippled",
        "--chdir", "/var/cache/rippled/work/app/main/app", "--",
      ])
    // Never a new session: its setsid() would take the command out of the group the reaper signals.
    #expect(!argv.contains("--new-session") && !argv.contains("--die-with-parent"))
  }

  @Test func wrapRunsTheCommandAfterTheSeparatorWithItsTemporaryFolderWritable() {
    let request = ProcessRequest(
      "swift", ["package", "dump-package", "--package-path", "/x/p"], workingDirectory: nil,
      environment: ["TMPDIR": "/var/cache/rippled/tmp/run-7/ripple-manifests-1/tmp"], timeout: .seconds(600))
    let wrapped = Self.policy.wrap(request, bwrap: "/usr/bin/bwrap")
    #expect(wrapped.executable == "/usr/bin/bwrap")
    #expect(Array(wrapped.arguments.suffix(6)) == ["--", "swift", "package", "dump-package", "--package-path", "/x/p"])
    let tmp = "/var/cache/rippled/tmp/run-7/ripple-manifests-1/tmp"
    let bind = wrapped.arguments.firstIndex(of: tmp).map { wrapped.arguments[$0 - 1] }
    #expect(bind == "--bind")
    #expect(!wrapped.arguments.contains("--chdir"))
    #expect(wrapped.environment == request.environment && wrapped.timeout == request.timeout)
  }

  /// Issue 39, item 2: a TMPDIR in (or holding) what the sandbox hides or shows read-only never becomes
  /// writable, whoever set it; Ripple's own private ones (in the run's folder, or in /tmp) do.
  @Test func aTemporaryFolderInsideWhatIsProtectedNeverBecomesWritable() {
    func writable(_ temporary: String) -> String? {
      Self.policy.writableTemporary(ProcessRequest("swift", environment: ["TMPDIR": temporary]))
    }
    #expect(writable("/var/cache/rippled/ripple/manifests") == nil)
    #expect(writable("/var/cache/rippled") == nil)
    #expect(writable("/var/cache") == nil, "it holds the hidden cache")
    #expect(writable("/") == nil)
    #expect(writable("/var/cache/rippled/work/app/main/app/.git/objects") == nil)
    #expect(writable("/etc/ripple/token/") == nil)
    #expect(
      writable("/var/cache/rippled/tmp/run-7/ripple-manifests-1/tmp")
        == "/var/cache/rippled/tmp/run-7/ripple-manifests-1/tmp")
    #expect(writable("/tmp/ripple-tmp-1234") == "/tmp/ripple-tmp-1234")
    #expect(writable("relative") == nil)
    let wrapped = Self.policy.wrap(
      ProcessRequest("swift", environment: ["TMPDIR": "/var/cache/rippled/ripple/manifests"]), bwrap: "bwrap")
    #expect(!wrapped.arguments.contains("/var/cache/rippled/ripple/manifests"), "\(wrapped.arguments)")
  }

  /// Issue 39, item 6: only the allowed variables of this process are inherited; what the request sets stays.
  @Test func onlyAllowedVariablesAreInherited() {
    let requested: [String: String?] = ["TMPDIR": "/run/tmp", "TEST_SERVER": "1", "GONE": nil]
    let restricted = EnvironmentAllowList().restricting(
      requested, inherited: ["PATH", "HOME", "LANG", "TMPDIR", "AWS_SECRET_ACCESS_KEY", "RIPPLE_CACHE_DIR", "GONE"])
    let expected: [String: String?] = [
      "TMPDIR": "/run/tmp", "TEST_SERVER": "1", "GONE": nil, "AWS_SECRET_ACCESS_KEY": nil, "RIPPLE_CACHE_DIR": nil,
    ]
    #expect(restricted == expected)
    #expect(EnvironmentAllowList.defaultNames == ["PATH", "HOME", "LANG", "TMPDIR"])
  }

  /// Issue 39, item 9: a namespace's init (a member of the sandbox's group whose parent is outside it) and the
  /// rest of its namespace, whatever group or session they moved to; nothing of this process's namespace.
  @Test func theRemainsOfASandboxAreItsNamespace() {
    let table = [
      NamespacedProcess(pid: 100, parent: 1, group: 100, namespace: "pid:[1]", command: "rippled"),
      NamespacedProcess(pid: 200, parent: 1, group: 150, namespace: "pid:[9]", command: "bwrap --ro-bind / /"),
      NamespacedProcess(pid: 201, parent: 200, group: 150, namespace: "pid:[9]", command: "sleep 600"),
      NamespacedProcess(pid: 202, parent: 200, group: 202, namespace: "pid:[9]", command: "setsid sleep 700"),
      NamespacedProcess(pid: 300, parent: 1, group: 300, namespace: "pid:[8]", command: "bwrap (another run)"),
      NamespacedProcess(pid: 151, parent: 100, group: 150, namespace: "pid:[1]", command: "outside, same group"),
    ]
    let found = SandboxRemains.find(group: 150, ownNamespace: "pid:[1]", in: table)
    #expect(found.inits.map(\.pid) == [200])
    #expect(found.leftovers.map(\.pid) == [201, 202])
    #expect(SandboxRemains.find(group: 160, ownNamespace: "pid:[1]", in: table).inits.isEmpty)
  }

  /// Issue 39, item 1: a name is looked up on the PATH given (rippled's), never on the request's.
  @Test func executablesAreLookedUpOnTheCallersPath() async throws {
    let root = NSTemporaryDirectory() + "/ripple-lookup-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: root) }
    for folder in ["good", "evil"] {
      try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
      FileManager.default.createFile(
        atPath: root + "/\(folder)/git", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
    }
    let recording = ScriptedProcess().on(.any, .exit(0))
    let client = recording.client.resolvingExecutables(path: root + "/good", lookup: ExecutableLookup())
    let request = ProcessRequest("git", ["status"], environment: ["PATH": root + "/evil"])
    #expect(try await client.run(request).request == request)
    #expect(recording.requests.first?.executable == root + "/good/git")
    await #expect(throws: ProcessError.self) { _ = try await client.run(ProcessRequest("bwrap")) }
  }

  @Test func anEmptyPolicyIsTheReadOnlyBase() {
    #expect(
      SandboxPolicy().prefix(bwrap: "bwrap", workingDirectory: nil) == ["bwrap"] + SandboxPolicy.baseArguments + ["--"])
  }

  /// Issue 39, item 10: `runs.network: isolated` is bwrap's `--unshare-net`, right after the base, and the probe
  /// tries it as runs will use it.
  @Test func anIsolatedNetworkIsANamespaceOfItsOwn() async {
    var policy = Self.policy
    #expect(!policy.prefix(bwrap: "bwrap", workingDirectory: nil).contains("--unshare-net"), "the host's by default")
    policy.isolatesNetwork = true
    let prefix = policy.prefix(bwrap: "bwrap", workingDirectory: nil)
    let expected = ["bwrap"] + SandboxPolicy.baseArguments + ["--unshare-net"]
    #expect(Array(prefix.prefix(expected.count)) == expected)
    let probe = ScriptedProcess()
      .on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
      .on(.command("bwrap"), .exit(0))
    let availability = await SandboxProbe.probe(process: probe.client, isolatingNetwork: true)
    #expect(availability == .available(version: "bubblewrap 0.8.0"))
    #expect(probe.requests.last?.arguments == SandboxPolicy.baseArguments + ["--unshare-net", "--", "true"])
  }

  @Test func probeSaysBubblewrapIsMissing() async {
    let missing = ScriptedProcess().on(.command("bwrap"), .fail(ProcessError.notFound(executable: "bwrap")))
    guard case .unavailable(let reason) = await SandboxProbe.probe(process: missing.client) else {
      Issue.record("a missing bwrap was reported available")
      return
    }
    #expect(reason.contains("bubblewrap (`bwrap`) is not installed"), "\(reason)")
    #expect(reason.contains("apt-get install bubblewrap"))
  }

  @Test func probeSaysWhenNamespacesAreRefused() async {
    let refusing = ScriptedProcess()
      .on(.command("bwrap", "--version"), .exit(0, stdout: "bubblewrap 0.8.0\n"))
      .on(.command("bwrap"), .exit(1, stderr: "bwrap: No permissions to creating new namespace\n"))
    guard case .unavailable(let reason) = await SandboxProbe.probe(process: refusing.client) else {
      Issue.record("bwrap without namespaces was reported available")
      return
    }
    #expect(reason.contains("bubblewrap 0.8.0 is installed but cannot create its namespaces"), "\(reason)")
    #expect(reason.contains("No permissions to creating new namespace"))
  }
}

/// The real bubblewrap (scripts/install-deps.sh --test installs it).
#if os(Linux)
  let sandboxTestsEnabled = true
#else
  let sandboxTestsEnabled = false
#endif

@Suite(.enabled(if: sandboxTestsEnabled)) struct SandboxedProcessTests {
  final class Folder: @unchecked Sendable {
    let path: String
    init() throws {
      path =
        URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
        + "/ripple-sandbox-\(UUID().uuidString.prefix(8))"
      for sub in ["state", "cache/work/lane", "cache/manifests"] {
        try FileManager.default.createDirectory(atPath: path + "/" + sub, withIntermediateDirectories: true)
      }
      try Data("ripple-tree-1 abc\n".utf8).write(to: URL(fileURLWithPath: path + "/cache/manifests/tree-1.txt"))
      try Data("secret\n".utf8).write(to: URL(fileURLWithPath: path + "/token"))
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  @Test func hiddenFoldersAreEmptyAndReadOnlyWhileTheWorkTreeIsWritable() async throws {
    let folder = try Folder()
    let root = folder.path
    let client = ProcessClient.live.sandboxed(
      SandboxPolicy(
        hiddenDirectories: [root + "/state", root + "/cache"], hiddenFiles: [root + "/token"],
        writable: [root + "/cache/work/lane"]))
    let script = """
      ls -A \(root)/cache; cat \(root)/token; echo "token read"
      echo poisoned > \(root)/cache/manifests/tree-1.txt || echo "cache write refused"
      echo x > \(root)/state/rippled.sqlite || echo "state write refused"
      echo built > \(root)/cache/work/lane/out && echo "work tree written"
      exit 7
      """
    let request = ProcessRequest("/bin/sh", ["-c", script], workingDirectory: root + "/cache/work/lane")
    let result = try await client.run(request)
    #expect(result.exitStatus == 7, "the command's status comes through: \(result.errorString)")
    #expect(result.request == request, "messages name the command, not bwrap")
    #expect(result.outputString == "work\ntoken read\ncache write refused\nstate write refused\nwork tree written\n")
    #expect(result.errorString.contains("Read-only file system") || result.errorString.contains("No such file"))
    #expect(try String(contentsOfFile: root + "/cache/manifests/tree-1.txt", encoding: .utf8) == "ripple-tree-1 abc\n")
    #expect(try String(contentsOfFile: root + "/cache/work/lane/out", encoding: .utf8) == "built\n")
    #expect(!FileManager.default.fileExists(atPath: root + "/state/rippled.sqlite"))
  }

  /// Issue 39, item 9: what a command leaves running in its sandbox (even in a session of its own) is killed
  /// when it ends, and reported.
  @Test func whatACommandLeavesRunningIsKilledWhenItEnds() async throws {
    let folder = try Folder()
    let marker = "\(Int.random(in: 100_000...999_999)).5"
    let reported = Locked<[NamespacedProcess]>([])
    let client = ProcessClient.live.sandboxed(
      SandboxPolicy(hiddenDirectories: [folder.path + "/cache"]),
      leftovers: { _, killed in reported.withLock { $0 += killed } })
    let result = try await client.run(
      ProcessRequest("/bin/sh", ["-c", "setsid nohup sleep \(marker) >/dev/null 2>&1 & echo started"]))
    #expect(result.outputString == "started\n")
    let gone = await poll(every: .milliseconds(50), timeout: .seconds(5)) { !Self.running("sleep \(marker)") }
    #expect(gone, "sleep \(marker) outlived its sandbox")
    // Under load the leftover may still be the forked shell or `setsid nohup …` when the command ends: its
    // command line names the sleep either way.
    #expect(
      reported.withLock { $0.contains { $0.command.contains("sleep \(marker)") } }, "\(reported.withLock { $0 })")
  }

  /// Issue 39, item 8: no capability inside, also when the tests run as root (a remount then works without
  /// `--cap-drop ALL`).
  @Test func theSandboxHasNoCapabilities() async throws {
    let client = ProcessClient.live.sandboxed(SandboxPolicy())
    let result = try await client.run(
      ProcessRequest(
        "/bin/sh", ["-c", "grep CapEff /proc/self/status; mount -o remount,rw / 2>/dev/null && echo remounted"]))
    #expect(result.outputString == "CapEff:\t0000000000000000\n", "\(result.outputString)")
  }

  /// Issue 39, item 6: the command sees the allowed variables and its own, none of the others.
  @Test func onlyTheAllowedEnvironmentReachesTheCommand() async throws {
    setenv("RIPPLE_SANDBOX_TEST_SECRET", "s3cr3t", 1)
    let client = ProcessClient.live.sandboxed(SandboxPolicy(), environment: EnvironmentAllowList(["PATH"]))
    let result = try await client.run(
      ProcessRequest(
        "/bin/sh", ["-c", "echo \"${RIPPLE_SANDBOX_TEST_SECRET:-none} $RUN_VARIABLE ${PATH:+path}\""],
        environment: ["RUN_VARIABLE": "mine"]))
    #expect(result.outputString == "none mine path\n")
  }

  /// Whether a process with this command line runs (this user's, any namespace).
  static func running(_ command: String) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.contains { name in
      guard Int32(name) != nil, let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else {
        return false
      }
      return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ") == command
    }
  }

  /// The timeout's SIGINT reaches the command inside the sandbox (same process group, no new session), which
  /// stops as it would outside it.
  @Test func aTimeoutInterruptsTheSandboxedCommand() async throws {
    let folder = try Folder()
    let lane = folder.path + "/cache/work/lane"
    let client = ProcessClient.live.sandboxed(
      SandboxPolicy(hiddenDirectories: [folder.path + "/cache"], writable: [lane]))
    let script =
      "trap 'echo interrupted > \(lane)/signal; exit 130' INT; echo ready > \(lane)/ready; while :; do sleep 0.05; done"
    await #expect(throws: ProcessError.self) {
      // 5 s: bwrap and the shell must start and write `ready` first, which a loaded machine may delay.
      _ = try await client.run(ProcessRequest("/bin/sh", ["-c", script], timeout: .seconds(5)))
    }
    // The trap runs within the 3 s before SIGTERM. Poll for the content: the file exists before `echo` wrote it.
    let signalled = { (try? String(contentsOfFile: lane + "/signal", encoding: .utf8)) == "interrupted\n" }
    let interrupted = await poll(every: .milliseconds(50), timeout: .seconds(10), until: signalled)
    #expect(FileManager.default.fileExists(atPath: lane + "/ready"))
    #expect(interrupted, "signal file: \((try? String(contentsOfFile: lane + "/signal", encoding: .utf8)) ?? "none")")
  }
}
