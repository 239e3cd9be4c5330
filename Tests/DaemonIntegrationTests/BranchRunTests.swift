import Foundation
import TestSupport
import Testing

/// rippled as a real process following a bare "remote": the acceptance scenarios of the daemon issue.
/// Serialized: they share the fixture's build folder (see `DaemonHarness.sharedCache`).
@Suite("rippled follows branches", .serialized, .exclusive(.daemonCache(1)))
struct BranchRunTests {
  /// Also: each run posts its commit status to the forge (a loopback stand-in answering like GitHub).
  @Test func readyThenAPushRunsExactlyTheAffectedTests() async throws {
    let h = try DaemonHarness()
    try h.makeRemote()
    let first = try h.head()
    let forge = try await ForgeStandIn.start(directory: h.root)
    defer { forge.stop() }
    try "forge-token\n".write(toFile: h.root + "/forge-token", atomically: true, encoding: .utf8)
    _ = chmod(h.root + "/forge-token", 0o600)
    try h.start(
      repositories: """
          - name: app
            remote: \(h.remote)
            fetchInterval: 1h
            branches: [main, {pattern: "feature/*", cancelRunning: true}]
            \(DaemonHarness.testArguments)
            status:
              provider: github
              api: http://127.0.0.1:\(forge.port)
              repository: acme/app
              tokenFile: \(h.root)/forge-token
              context: ripple/tests
        """, http: "  publicURL: https://ci.example.test/ripple")
    try await h.waitForReady()
    #expect(h.notify.messages.contains { $0.contains("STATUS=") })

    // No passing run yet: the first run is the baseline and runs every test.
    let baseline = try await h.waitForRun(head: first, states: ["passed"])
    #expect(try await h.testedTargets(baseline["id"] as! Int) == ["CoreTests", "FeatureTests", "OtherTests"])

    try h.write("Sources/Other/Other.swift", "public enum Other { public static let value = 3 }  // edited\n")
    let second = try h.commitAndPush("Edit Other")
    let run = try await h.waitForRunAfterFetch(head: second)
    #expect(run["state"] as? String == "passed", "\(run)")
    let id = try #require(run["id"] as? Int)
    #expect(try await h.testedTargets(id) == ["OtherTests"])
    #expect(run["base"] as? String == first)
    #expect(run["selectedTestTargets"] as? Int == 1)
    #expect(run["totalTestTargets"] as? Int == 3)
    // The log names the run's steps; the watchdog was fed (WATCHDOG_USEC=2 s → every second).
    let log = String(decoding: try await h.get("/api/runs/\(id)/log").body, as: UTF8.self)
    #expect(log.contains("1 of 3 test targets selected"), "\(log)")
    #expect(h.notify.contains("WATCHDOG=1"))
    #expect(h.output.contains("<6>run \(id): "), "journald lines carry the run id")

    // Each run posted `pending`, then its result, for its commit, in order, with the run page as target.
    try await h.eventually("both runs' final statuses", timeout: .seconds(30)) {
      forge.requests.filter { $0.fields["state"] == "success" }.count == 2
    }
    for (sha, run) in [(first, baseline["id"] as! Int), (second, id)] {
      let posted = forge.requests.filter { $0.path == "/repos/acme/app/statuses/\(sha)" }
      #expect(posted.map { $0.fields["state"] } == ["pending", "success"], "\(posted.map(\.body))")
      #expect(posted.allSatisfy { $0.authorization == "Bearer forge-token" && $0.fields["context"] == "ripple/tests" })
      #expect(posted.last?.fields["target_url"] == "https://ci.example.test/ripple/runs/\(run)")
    }
    let last = forge.requests.last { $0.path.hasSuffix(second) }
    #expect(last?.fields["description"]?.contains("1 of 3 test targets") == true, "\(last?.body ?? "")")
    #expect(!h.output.contains("forge-token"), "the token is never logged")
  }

  @Test func pushesWhileRunningSupersedeThePendingRunAndTheNewestRuns() async throws {
    let h = try await DaemonHarness.withPassingBaseline()

    // Run A touches Core: FeatureTests runs and holds at the gate.
    #expect(FileManager.default.createFile(atPath: h.gate, contents: nil))
    try h.write("Sources/Core/Core.swift", "public enum Core { public static let value = 1 }  // a\n")
    let a = try h.commitAndPush("A")
    try await h.triggerFetch()
    try await h.eventually("run A to reach the gate", timeout: .seconds(300)) {
      FileManager.default.fileExists(atPath: h.gate + ".started")
    }
    try h.write("README.md", "# b\n")
    let b = try h.commitAndPush("B")
    try await h.triggerFetch()
    _ = try await h.waitForRun(head: b, states: ["queued"], timeout: .seconds(60))
    try h.write("README.md", "# c\n")
    let c = try h.commitAndPush("C")
    try await h.triggerFetch()

    let superseded = try await h.waitForRun(head: b, states: ["superseded"], timeout: .seconds(60))
    #expect((superseded["reason"] as? String ?? "").contains("superseded by run"))
    try FileManager.default.removeItem(atPath: h.gate)
    let runA = try await h.waitForRun(head: a, states: ["passed"])
    let runC = try await h.waitForRun(head: c, states: ["passed"])
    #expect((runC["id"] as! Int) > (runA["id"] as! Int))
    // main does not cancel running runs (only feature/* does): A finished normally.
    #expect(try await h.runs().filter { ($0["head"] as? String) == b }.count == 1)
  }

  @Test func aFailedRunKeepsTheBaseAtTheLastPassingCommit() async throws {
    let h = try await DaemonHarness.withPassingBaseline()
    let passing = try h.head()

    try h.write("Tests/OtherTests/OtherTests.swift", Fixture.otherTests(passing: false))
    let broken = try h.commitAndPush("Break OtherTests")
    let failed = try await h.waitForRunAfterFetch(head: broken)
    #expect(failed["state"] as? String == "failed")
    #expect(failed["failedTests"] as? Int == 1)

    // A push that touches nothing testable still compares with the last passing commit: OtherTests runs again.
    try h.write("README.md", "# docs only\n")
    let docs = try h.commitAndPush("Docs")
    let next = try await h.waitForRunAfterFetch(head: docs)
    #expect(next["base"] as? String == passing, "\(next)")
    #expect(try await h.testedTargets(next["id"] as! Int) == ["OtherTests"])
    #expect(next["state"] as? String == "failed")

    try h.write("Tests/OtherTests/OtherTests.swift", Fixture.otherTests(passing: true))
    let fix = try h.commitAndPush("Fix OtherTests")
    #expect(try await h.waitForRunAfterFetch(head: fix)["state"] as? String == "passed")

    // A re-run of the broken commit's run re-tests it from that run's base, never from the fix (a descendant,
    // which would leave nothing to test): it fails again and makes no base.
    let (status, body) = try await h.request(
      "POST", "/api/runs/\(failed["id"] as! Int)/rerun", headers: ["Authorization": "Bearer \(DaemonHarness.token)"])
    #expect(status == 202, "\(String(decoding: body, as: UTF8.self))")
    let rerunID = try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? Int)
    var rerun: [String: Any] = [:]
    try await h.eventually("the re-run of run \(failed["id"] ?? "?") ends", timeout: .seconds(300)) {
      rerun = try await h.runs().first { $0["id"] as? Int == rerunID } ?? [:]
      return ["passed", "failed", "error"].contains(rerun["state"] as? String ?? "")
    }
    #expect(rerun["state"] as? String == "failed", "\(rerun)")
    #expect(rerun["head"] as? String == broken && rerun["base"] as? String == passing, "\(rerun)")
    #expect(try await h.testedTargets(rerunID) == ["OtherTests"])
    let page = String(decoding: try await h.get("/runs/\(rerunID)").body, as: UTF8.self)
    #expect(
      page.contains("re-run of run \(failed["id"] as! Int): comparing with"), "the run page says which base and why")

    // The next push compares with the fix, the newest passing ancestor, not with the re-run's commit.
    try h.write("README.md", "# docs again\n")
    let later = try h.commitAndPush("Docs again")
    let after = try await h.waitForRunAfterFetch(head: later)
    #expect(after["base"] as? String == fix, "\(after)")
    #expect(after["state"] as? String == "passed")
  }

  @Test func killNineMidRunThenRestartRecordsInterruptedAndRequeuesOnce() async throws {
    let h = try await DaemonHarness.withPassingBaseline()

    #expect(FileManager.default.createFile(atPath: h.gate, contents: nil))
    try h.write(
      "Sources/Feature/Feature.swift",
      "import Core\npublic enum Feature { public static let value = Core.value + 1 }  // k\n")
    let head = try h.commitAndPush("Feature change")
    try await h.triggerFetch()
    try await h.eventually("the run to reach the gate", timeout: .seconds(300)) {
      FileManager.default.fileExists(atPath: h.gate + ".started")
    }
    let running = try await h.waitForRun(head: head, states: ["running"], timeout: .seconds(10))
    h.stop()  // kill -9
    try FileManager.default.removeItem(atPath: h.gate)  // the orphaned test process may finish now

    try h.start()
    try await h.waitForReady()
    let interruptedID = running["id"] as! Int
    let retry = try await h.waitForRun(head: head, states: ["passed"])
    #expect(retry["retryOf"] as? Int == interruptedID)
    #expect(retry["trigger"] as? String == "requeue")
    let original = try await h.detail(interruptedID)
    #expect((original["run"] as? [String: Any])?["state"] as? String == "interrupted")

    // A second restart does not queue it again.
    h.stop()
    try h.start()
    // Interrupted runs are recovered and the queue resumed before READY: the decision is made by now.
    try await h.waitForReady()
    #expect(try await h.runs().filter { ($0["retryOf"] as? Int) == interruptedID }.count == 1)
    #expect(try await h.runs().filter { ($0["head"] as? String) == head }.count == 2)
  }

  @Test func sigtermMidRunStopsGracefullyAndRecordsIt() async throws {
    let h = try await DaemonHarness.withPassingBaseline(grace: "2s")

    #expect(FileManager.default.createFile(atPath: h.gate, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: h.gate) }
    try h.write("Sources/Core/Core.swift", "public enum Core { public static let value = 1 }  // t\n")
    let head = try h.commitAndPush("Core change")
    try await h.triggerFetch()
    try await h.eventually("the run to reach the gate", timeout: .seconds(300)) {
      FileManager.default.fileExists(atPath: h.gate + ".started")
    }
    let run = try await h.waitForRun(head: head, states: ["running"], timeout: .seconds(10))
    h.signal(SIGTERM)
    let status = try await h.waitForExit(timeout: .seconds(60))
    #expect(status == 0, "\(h.output.suffix(3000))")
    #expect(h.notify.contains("STOPPING=1"))
    #expect(h.output.contains("grace period over"))

    // Restarted, the store says what happened, and the work is queued again (once).
    try h.start()
    try await h.waitForReady()
    let original = try await h.detail(run["id"] as! Int)
    let record = try #require(original["run"] as? [String: Any])
    #expect(record["state"] as? String == "interrupted")
    #expect((record["reason"] as? String ?? "").contains("grace period"))
    let transitions = (original["transitions"] as? [[String: Any]] ?? []).map { $0["to"] as? String ?? "?" }
    #expect(transitions == ["queued", "running", "interrupted"])
    try FileManager.default.removeItem(atPath: h.gate)
    let retry = try await h.waitForRun(head: head, states: ["passed"])
    #expect(retry["retryOf"] as? Int == run["id"] as? Int)
  }
}

/// Command lines of running processes that contain `text` (from /proc; no procps needed).
func processes(matching text: String) -> [String] {
  let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
  return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
    let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
    return line.contains(text) ? line : nil
  }
}

extension DaemonHarness {
  /// The fixture pushed, the daemon started and ready, and its first run (every test) passed.
  static func withPassingBaseline(grace: String = "30s") async throws -> DaemonHarness {
    let h = try DaemonHarness()
    try h.makeRemote()
    try h.start(grace: grace)
    try await h.waitForReady()
    _ = try await h.waitForRun(head: try h.head(), states: ["passed"])
    return h
  }

  func head() throws -> String {
    try git(["-C", clone, "rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Asks for a fetch through the token-protected API, then waits for the run of `head` to finish.
  func waitForRunAfterFetch(head: String, states: Set<String> = ["passed", "failed", "error"]) async throws
    -> [String: Any]
  {
    try await triggerFetch()
    return try await waitForRun(head: head, states: states)
  }

  func triggerFetch(repository: String = "app") async throws {
    let (status, body) = try await request(
      "POST", "/api/runs", body: Data("{\"repository\":\"\(repository)\",\"branch\":\"main\"}".utf8),
      headers: ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/json"])
    guard status == 202 else {
      throw HarnessError("fetch trigger → \(status): \(String(decoding: body, as: UTF8.self))")
    }
  }
}

@Suite("rippled policies: cancel on newer commit, run timeout", .serialized, .exclusive(.daemonCache(2)))
struct PolicyTests {
  @Test func aNewerCommitOnAFeatureBranchCancelsTheRunningRun() async throws {
    let h = try await DaemonHarness.withPassingBaseline()
    let mainHead = try h.head()

    #expect(FileManager.default.createFile(atPath: h.gate, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: h.gate) }
    try h.write("Sources/Feature/Feature.swift", "import Core\npublic enum Feature { public static let value = 2 }\n")
    let first = try h.commitAndPush("Feature x", branch: "feature/x")
    try await h.triggerFetch()
    try await h.eventually("the feature run to reach the gate", timeout: .seconds(300)) {
      FileManager.default.fileExists(atPath: h.gate + ".started")
    }
    try h.write("README.md", "# newer\n")
    let second = try h.commitAndPush("Newer", branch: "feature/x")
    try await h.triggerFetch()
    // feature/* has cancelRunning: the running run stops at once (the gate is still closed).
    let cancelled = try await h.waitForRun(head: first, states: ["superseded"], timeout: .seconds(60))
    #expect((cancelled["reason"] as? String ?? "").contains("while it ran"))
    // A new branch compares with main's last passing commit, not "everything".
    #expect(cancelled["base"] as? String == mainHead)
    #expect(cancelled["selectedTestTargets"] as? Int == 1)
    try FileManager.default.removeItem(atPath: h.gate)
    let newest = try await h.waitForRun(head: second, states: ["passed", "failed"])
    #expect(newest["state"] as? String == "passed", "\(newest)")
    #expect(newest["branch"] as? String == "feature/x")
  }

  @Test func aRunPastItsTimeoutIsStoppedWithItsProcesses() async throws {
    let h = try DaemonHarness()
    try h.makeRemote()
    try h.start(
      repositories: """
          - name: app
            remote: \(h.remote)
            fetchInterval: 1h
            runTimeout: 4s
            \(DaemonHarness.testArguments)
        """)
    try await h.waitForReady()
    // The baseline builds the fixture (it may time out on a cold build folder); what matters is the gated run.
    _ = try await h.waitForRun(head: try h.head(), states: ["passed", "error"])
    #expect(FileManager.default.createFile(atPath: h.gate, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: h.gate) }
    try? FileManager.default.removeItem(atPath: h.gate + ".started")
    try h.write("Sources/Core/Core.swift", "public enum Core { public static let value = 1 }  // slow\n")
    let head = try h.commitAndPush("Slow")
    let run = try await h.waitForRunAfterFetch(head: head)
    #expect(run["state"] as? String == "error")
    #expect((run["reason"] as? String ?? "").contains("timed out after"), "\(run)")
    // The gated test process is in a process group of its own (SwiftPM starts it so) but in the run's session: it is
    // gone although the gate is closed. (This lane's: the other lanes' daemons may be running the same fixture's
    // tests from their own caches.) The reaper sends SIGKILL 5 s after the timeout; without it the test process
    // would wait at the gate for as long as it exists. 30 s allows for a loaded 2-core machine.
    let laneTests = { processes(matching: "FixturePackageTests").filter { $0.contains(DaemonHarness.sharedCache) } }
    let gone = await poll(every: .milliseconds(100), timeout: .seconds(30)) { laneTests().isEmpty }
    #expect(gone, "still running: \(laneTests())\n--- rippled output ---\n\(h.output.suffix(4000))")
  }
}
