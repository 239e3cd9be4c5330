import Foundation
import TestSupport
import Testing

/// rippled with `runs.sandbox: required` and the real bubblewrap (scripts/install-deps.sh --test installs it).
@Suite("a branch cannot change what main selects", .serialized, .exclusive(.daemonCache(4)))
struct SandboxTests {
  /// A hostile branch, in one run: its test rewrites every `tree-*.txt` of the manifest cache with a valid,
  /// recomputed header and no manifests (without the sandbox, main's next run then finds no package and selects
  /// nothing, silently); it reads rippled's environment, token, a copy of it, the webhook secret and
  /// rippled.yml; it remounts `/` read-write; it connects to rippled's API; it leaves a `sleep` running in a
  /// session of its own; and its ripple.yml puts `evil/` first on PATH, whose bwrap, git, swift and sh would
  /// write a marker (issue 39, items 1, 6, 8, 9, 10). Its test passes only when every write, read, remount and
  /// connection failed; the marker must not exist, the sleep must be gone when the run ends and the log must
  /// say it was killed. The shared layer is byte for byte unchanged and main's next run selects what it should. A second branch points TMPDIR at the
  /// shared cache: its run ends `error` naming the variable, and nothing runs (item 2).
  @Test func aHostileBranchCannotEscapeItsRun() async throws {
    let h = try DaemonHarness()
    try h.makeRemote()
    try (DaemonHarness.token + "\n").write(toFile: h.root + "/token.bak", atomically: true, encoding: .utf8)
    let evil = try Self.evilTools(h)
    // rippled runs with the environment systemd/rippled.service gives it (`HOME` the state folder,
    // `XDG_CACHE_HOME` under the cache, both hidden in the sandbox): the builds still evaluate and compile.
    try h.start(
      environment: h.serviceEnvironment.merging(["AWS_SECRET_ACCESS_KEY": Self.awsSecret]) { $1 }, sandbox: "required")
    try await h.waitForReady()
    #expect(h.output.contains("runs are sandboxed with bubblewrap"), "\(h.output.suffix(2000))")
    let baseline = try await h.waitForRun(head: try h.head(), states: ["passed", "failed", "error"])
    let baselineLog = try await h.get("/api/runs/\(baseline["id"] as! Int)/log").body
    try #require(baseline["state"] as? String == "passed", "\(String(decoding: baselineLog, as: UTF8.self))")
    // SwiftPM's settings and caches are the lane's own: the log carries no warning that is not the repository's.
    let baselineText = String(decoding: baselineLog, as: UTF8.self)
    for warning in ["is not accessible or not writable", "readonly database"] {
      #expect(!baselineText.contains(warning), "\(baselineText.suffix(4000))")
    }
    let shared = DaemonHarness.sharedCache + "/ripple/manifests"
    let before = try Self.files(in: shared)
    #expect(before.keys.contains { $0.hasPrefix("tree-") }, "main's run cached its trees: \(before.keys.sorted())")

    let sleeper = "sleep \(Int.random(in: 100_000...999_999)).25"
    try h.git(["-C", h.clone, "checkout", "-q", "-b", "feature/poison"])
    try h.write(
      "Tests/OtherTests/OtherTests.swift",
      Self.hostileTest(h, cache: shared, sleeper: sleeper, evil: evil, port: try #require(h.port)))
    try h.write(
      "ripple.yml",
      Self.rippleYML(
        environment: [
          "PATH": evil + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        ], evaluated: true))
    let poison = try h.commitAndPush("Escape the run", branch: "feature/poison")
    let poisonRun = try await h.waitForRunAfterFetch(head: poison)
    let poisonLog = String(decoding: try await h.get("/api/runs/\(poisonRun["id"] as! Int)/log").body, as: UTF8.self)
    // The test expects every escape to fail: it passes only when the sandbox refused them all.
    #expect(poisonRun["state"] as? String == "passed", "\(poisonRun)\n\(poisonLog.suffix(6000))")
    #expect(try await h.testedTargets(poisonRun["id"] as! Int).contains("OtherTests"))
    #expect(!FileManager.default.fileExists(atPath: h.root + "/evil-ran"), "\(Self.evilLog(h))")
    #expect(!Self.running(sleeper), "\(sleeper) outlived its run")
    #expect(
      poisonLog.contains("left running in its sandbox") && poisonLog.contains(sleeper), "\(poisonLog.suffix(4000))")
    #expect(try Self.files(in: shared) == before, "the shared layer is unchanged")

    try h.git(["-C", h.clone, "checkout", "-q", "-b", "feature/tmpdir", "main"])
    try h.write("ripple.yml", Self.rippleYML(environment: ["TMPDIR": shared]))
    let tmpdir = try h.commitAndPush("TMPDIR at the shared cache", branch: "feature/tmpdir")
    let tmpdirRun = try await h.waitForRunAfterFetch(head: tmpdir)
    let tmpdirLog = String(decoding: try await h.get("/api/runs/\(tmpdirRun["id"] as! Int)/log").body, as: UTF8.self)
    #expect(tmpdirRun["state"] as? String == "error", "\(tmpdirRun)")
    #expect(
      (tmpdirRun["reason"] as? String)?.contains("ripple.yml sets TMPDIR in test.runs[0] (`default`).environment")
        == true, "\(tmpdirRun)")
    #expect(!tmpdirLog.contains("building"), "nothing ran: \(tmpdirLog)")
    #expect(try Self.files(in: shared) == before, "the shared layer is unchanged")

    try h.git(["-C", h.clone, "checkout", "-q", "main"])
    try h.write("Sources/Core/Core.swift", "public enum Core { public static let value = 1 }  // edited\n")
    let edit = try h.commitAndPush("Edit Core")
    let next = try await h.waitForRunAfterFetch(head: edit)
    #expect(next["state"] as? String == "passed", "\(next)")
    #expect(try await h.testedTargets(next["id"] as! Int) == ["CoreTests", "FeatureTests"])
  }

  static let awsSecret = "integration-aws-secret"

  /// ripple.yml with one test run setting `environment`; `evaluated`: the manifests are evaluated in it too
  /// (else also in the default environment, which Ripple evaluates with the run's variables removed: without
  /// PATH, SwiftPM's clang finds no linker).
  static func rippleYML(environment: [String: String], evaluated: Bool = false) -> String {
    let variables = environment.map { "\($0.key): \"\($0.value)\"" }
    return """
      selection:
        ignore: ["**/*.md"]
      \(evaluated ? "  manifestEnvironments: [{\(variables.joined(separator: ", "))}]" : "")
      test:
        runs:
          - name: default
            environment: {\(variables.joined(separator: ", "))}

      """
  }

  /// `<root>/evil`: a bwrap, git, swift and sh that append to `<root>/evil-ran`, then run the real one (so a
  /// rippled that starts them still runs the branch, and the marker is the only trace). Outside the work
  /// tree only because its path must be known before the push; on the branch's PATH all the same.
  static func evilTools(_ h: DaemonHarness) throws -> String {
    let folder = h.root + "/evil"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for tool in ["bwrap", "git", "swift", "sh"] {
      let script = "#!/bin/sh\necho \"$0 $*\" >> \(h.root)/evil-ran\nPATH='\(path)' exec \(tool) \"$@\"\n"
      FileManager.default.createFile(
        atPath: folder + "/" + tool, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
    }
    return folder
  }

  static func evilLog(_ h: DaemonHarness) -> String {
    "an evil tool ran outside the sandbox: "
      + ((try? String(contentsOfFile: h.root + "/evil-ran", encoding: .utf8)) ?? "")
  }

  /// Every `tree-*.txt` of `cache` rewritten with an empty manifest list under a valid header (SHA-256 of the
  /// empty payload), and a new one created; rippled's secrets, config and environment read; `/` remounted;
  /// `sleeper` started in a session of its own; rippled's API on 127.0.0.1:`port` connected to. The test passes
  /// only if no write, read, remount or connection succeeded and the branch's PATH reached it.
  static func hostileTest(_ h: DaemonHarness, cache: String, sleeper: String, evil: String, port: Int) -> String {
    """
    import Foundation
    import Other
    import Testing

    @Test func other() throws {
      let cache = "\(cache)"
      let poisoned = Data("ripple-tree-1 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\\n".utf8)
      var names = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
      names = names.filter { $0.hasPrefix("tree-") } + ["tree-" + String(repeating: "0", count: 40) + ".txt"]
      var written: [String] = []
      for name in names {
        if (try? poisoned.write(to: URL(fileURLWithPath: cache + "/" + name))) != nil { written.append(name) }
      }
      // In its branch's first run, its own `.git` is read-only too (a `core.worktree` there would aim rippled's
      // next checkout elsewhere).
      let git = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".git/config")
      if let config = FileHandle(forWritingAtPath: git.path) { written.append(".git/config"); config.closeFile() }
      #expect(written.isEmpty, "the sandbox let the test write \\(written)")

      let environment = ProcessInfo.processInfo.environment
      #expect(environment["AWS_SECRET_ACCESS_KEY"] == nil, "rippled's environment leaked")
      #expect(environment["PATH"]?.hasPrefix("\(evil):") == true, "the branch's PATH applies inside")
      for file in ["token", "token.bak", "webhook-secret", "rippled.yml"] {
        let content = FileManager.default.contents(atPath: "\(h.root)/" + file) ?? Data()
        #expect(content.isEmpty, "read \\(file)")
      }

      let mount = try Process.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "mount -o remount,rw / 2>&1"])
      mount.waitUntilExit()
      #expect(mount.terminationStatus != 0, "remounted / read-write")

      // runs.network: isolated (the default): rippled's API is out of reach (issue 39, item 10).
      let api = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(\(port)).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(api, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      close(api)
      #expect(!connected, "reached rippled's API on 127.0.0.1:\(port)")

      // Not waited for: Foundation's Process learns of the shell's end through a descriptor the sleep then
      // holds. The sleep keeps none of the test's (one of SwiftPM's pipes would keep `swift test` waiting).
      for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        if let descriptor = Int32(name), descriptor > 2 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      }
      let leftover = Process()
      leftover.executableURL = URL(fileURLWithPath: "/bin/sh")
      leftover.arguments = ["-c", "setsid nohup \(sleeper) </dev/null >/dev/null 2>&1 &"]
      leftover.standardInput = FileHandle.nullDevice
      leftover.standardOutput = FileHandle.nullDevice
      leftover.standardError = FileHandle.nullDevice
      try leftover.run()
      var started = false
      for _ in 0..<100 where !started {
        started = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { name in
          let command = FileManager.default.contents(atPath: "/proc/" + name + "/cmdline") ?? Data()
          return String(decoding: command, as: UTF8.self).replacingOccurrences(of: "\\0", with: " ")
            .hasPrefix("\(sleeper)")
        }
        if !started { usleep(50_000) }
      }
      #expect(started, "the sleep started")
      #expect(Other.value == 3)
    }

    """
  }

  /// Whether a process with this command line runs.
  static func running(_ command: String) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.contains { name in
      guard Int32(name) != nil, let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else {
        return false
      }
      return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ") == command
    }
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

  static func files(in folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".tmp-") {
      result[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return result
  }
}
