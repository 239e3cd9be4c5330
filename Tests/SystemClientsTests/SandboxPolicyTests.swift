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
        "bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--proc", "/proc",
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

  @Test func anEmptyPolicyIsTheReadOnlyBase() {
    #expect(
      SandboxPolicy().prefix(bwrap: "bwrap", workingDirectory: nil) == ["bwrap"] + SandboxPolicy.baseArguments + ["--"])
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
      _ = try await client.run(ProcessRequest("/bin/sh", ["-c", script], timeout: .seconds(2)))
    }
    // The trap runs within the 3 s before SIGTERM. Poll for the content: the file exists before `echo` wrote it.
    let signalled = { (try? String(contentsOfFile: lane + "/signal", encoding: .utf8)) == "interrupted\n" }
    let interrupted = await poll(every: .milliseconds(50), timeout: .seconds(10), until: signalled)
    #expect(FileManager.default.fileExists(atPath: lane + "/ready"))
    #expect(interrupted, "signal file: \((try? String(contentsOfFile: lane + "/signal", encoding: .utf8)) ?? "none")")
  }
}
