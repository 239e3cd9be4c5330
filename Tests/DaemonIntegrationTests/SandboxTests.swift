import Foundation
import TestSupport
import Testing

/// rippled with `runs.sandbox: required` and the real bubblewrap (scripts/install-deps.sh --test installs it).
@Suite("a branch cannot change what main selects", .serialized, .exclusive(.daemonCache(4)))
struct SandboxTests {
  /// A branch's test rewrites every `tree-*.txt` of the manifest cache with a valid, recomputed header and no
  /// manifests (without the sandbox, main's next run then finds no package and selects nothing, silently). In
  /// the sandbox the cache is hidden and read-only: the writes fail, the branch's own cache entries go to its
  /// layer, the shared layer is byte for byte unchanged and main's next run selects what it should. The same
  /// test, in its branch's first run, tries its own `.git` (a `core.worktree` there would aim rippled's next
  /// checkout elsewhere): read-only too.
  ///
  /// rippled runs with the environment systemd/rippled.service gives it (`HOME` the state folder, `XDG_CACHE_HOME`
  /// under the cache, both hidden in the sandbox): the builds still evaluate manifests and compile.
  @Test func aBranchsTestCannotRewriteTheSharedCache() async throws {
    let h = try DaemonHarness()
    try h.makeRemote()
    try h.start(environment: h.serviceEnvironment, sandbox: "required")
    try await h.waitForReady()
    #expect(h.output.contains("runs are sandboxed with bubblewrap"), "\(h.output.suffix(2000))")
    let baseline = try await h.waitForRun(head: try h.head(), states: ["passed", "failed", "error"])
    let baselineLog = try await h.get("/api/runs/\(baseline["id"] as! Int)/log").body
    try #require(baseline["state"] as? String == "passed", "\(String(decoding: baselineLog, as: UTF8.self))")
    let shared = DaemonHarness.sharedCache + "/ripple/manifests"
    let before = try Self.files(in: shared)
    #expect(before.keys.contains { $0.hasPrefix("tree-") }, "main's run cached its trees: \(before.keys.sorted())")

    try h.git(["-C", h.clone, "checkout", "-q", "-b", "feature/poison"])
    try h.write("Tests/OtherTests/OtherTests.swift", Self.poisoningTest(cache: shared))
    let poison = try h.commitAndPush("Rewrite the shared cache", branch: "feature/poison")
    let poisonRun = try await h.waitForRunAfterFetch(head: poison)
    // The test expects every write to fail: it passes only when the sandbox refused them all.
    #expect(poisonRun["state"] as? String == "passed", "\(poisonRun)")
    #expect(try await h.testedTargets(poisonRun["id"] as! Int) == ["OtherTests"])
    #expect(try Self.files(in: shared) == before, "the shared layer is unchanged")

    try h.git(["-C", h.clone, "checkout", "-q", "main"])
    try h.write("Sources/Core/Core.swift", "public enum Core { public static let value = 1 }  // edited\n")
    let edit = try h.commitAndPush("Edit Core")
    let next = try await h.waitForRunAfterFetch(head: edit)
    #expect(next["state"] as? String == "passed", "\(next)")
    #expect(try await h.testedTargets(next["id"] as! Int) == ["CoreTests", "FeatureTests"])
  }

  /// Without bwrap on PATH: `required` refuses (exit 3) before creating anything, `auto` says what it means.
  @Test func requiredWithoutBubblewrapRefusesToStart() throws {
    let h = try DaemonHarness()
    try h.git(["init", "-q", "--bare", "-b", "main", h.remote])
    let noBwrap = ["PATH": h.root + "/empty-path"]
    try h.writeConfig(sandbox: "required")
    let check = try runCommand(
      [DaemonHarness.binary, "check-config", "--config", h.root + "/rippled.yml"], environment: noBwrap)
    #expect(check.status == 3, "\(check.standardOutput)\n\(check.standardError)")
    #expect(check.standardError.contains("runs.sandbox is `required` and the sandbox is unavailable"))
    #expect(check.standardError.contains("bubblewrap (`bwrap`) is not installed"), "\(check.standardError)")
    #expect(!check.standardOutput.contains(": ok"), "the error, not ok: \(check.standardOutput)")
    let serve = try runCommand([DaemonHarness.binary, "--config", h.root + "/rippled.yml"], environment: noBwrap)
    #expect(serve.status == 3, "\(serve.standardError)")
    #expect(serve.standardError.contains("runs.sandbox is `required`"), "\(serve.standardError)")
    #expect(!FileManager.default.fileExists(atPath: h.state), "serve created the state folder first")

    try h.writeConfig(sandbox: "auto")
    let auto = try runCommand(
      [DaemonHarness.binary, "check-config", "--config", h.root + "/rippled.yml"], environment: noBwrap)
    #expect(auto.status == 0, "\(auto.standardError)")
    #expect(auto.standardOutput.contains("sandbox: auto: unavailable: bubblewrap (`bwrap`) is not installed"))
    #expect(auto.standardOutput.contains("can write the daemon's state, cache"), "\(auto.standardOutput)")
  }

  /// Every `tree-*.txt` of `cache` rewritten with an empty manifest list under a valid header (SHA-256 of the
  /// empty payload), and a new one created; the test passes only if no write succeeded.
  static func poisoningTest(cache: String) -> String {
    """
    import Foundation
    import Other
    import Testing

    @Test func other() {
      let cache = "\(cache)"
      let poisoned = Data("ripple-tree-1 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\\n".utf8)
      var names = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
      names = names.filter { $0.hasPrefix("tree-") } + ["tree-" + String(repeating: "0", count: 40) + ".txt"]
      var written: [String] = []
      for name in names {
        if (try? poisoned.write(to: URL(fileURLWithPath: cache + "/" + name))) != nil { written.append(name) }
      }
      let git = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".git/config")
      if let config = FileHandle(forWritingAtPath: git.path) { written.append(".git/config"); config.closeFile() }
      #expect(written.isEmpty, "the sandbox let the test write \\(written)")
      #expect(Other.value == 3)
    }

    """
  }

  static func files(in folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".tmp-") {
      result[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return result
  }
}
