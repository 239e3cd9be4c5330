import Foundation
import TestSupport
import Testing

/// The dev-box source: a working tree watched with inotify. The fixture has no Package.swift, so a run
/// finds nothing to build and these tests measure only when runs are queued.
@Suite("rippled watches a working tree", .serialized, .exclusive(.daemonCache(3)))
struct WorktreeWatchTests {
  private func makeCheckout(_ h: DaemonHarness) throws -> String {
    let checkout = h.root + "/checkout"
    try h.git(["init", "-q", "-b", "main", checkout])
    try h.write("README.md", "# dev\n", in: checkout)
    try h.write(".gitignore", "ignored/\n", in: checkout)
    try h.git(["-C", checkout, "add", "-A"])
    try h.git(["-C", checkout, "commit", "-q", "-m", "init"])
    return checkout
  }

  /// `name`: the fingerprint of the last tree queued is kept in the cache, which the tests of one run share;
  /// a test counting runs from its start needs a name of its own.
  private func config(_ checkout: String, name: String = "dev", settle: String = "300ms") -> String {
    """
      - name: \(name)
        path: \(checkout)
        settle: \(settle)
        watch: inotify
    """
  }

  private func runCount(_ h: DaemonHarness) async throws -> Int { try await h.runs().count }

  /// The source's entry in /api/status: `looks` (finished) and `waitingForIndexLock`, the signals that a save was
  /// looked at.
  private func source(_ h: DaemonHarness) async throws -> [String: Any] {
    let status = try #require(try await h.json("/api/status") as? [String: Any])
    let repositories = try #require(status["repositories"] as? [[String: Any]])
    return try #require(repositories.first)
  }

  private func looks(_ h: DaemonHarness) async throws -> Int { try await source(h)["looks"] as? Int ?? -1 }

  /// Writes `README.md` with the bytes it has (git sees no change), and waits until the source has looked at
  /// it: every event written before it has been looked at too (one watcher, batches in order).
  private func barrier(_ h: DaemonHarness, _ checkout: String) async throws {
    let before = try await looks(h)
    let readme = try String(contentsOfFile: checkout + "/README.md", encoding: .utf8)
    try h.write("README.md", readme, in: checkout)
    try await h.eventually("the source to look at the unchanged save", timeout: .seconds(30)) {
      try await looks(h) > before
    }
  }

  /// A burst is one batch only while it lasts less than a batch's cap (10 × settle) and has no quiet gap as
  /// long as the window. With 300 ms (a 3 s cap) and a thousand writes from the test process, a loaded
  /// 2-core CI machine once made two runs of it. So one shell writes the burst (milliseconds of work), and
  /// the window is 1 s, far above a scheduling pause of the shell or of rippled.
  @Test func aBurstOfAThousandFileEventsMakesOneRun() async throws {
    let h = try DaemonHarness()
    let checkout = try makeCheckout(h)
    try h.start(repositories: config(checkout, settle: "1s"))
    try await h.waitForReady()
    let before = try await runCount(h)  // nothing changed since the last look: no start-up run
    #expect(before == 0)

    let burst = try Command.run(
      [
        "sh", "-c",
        "mkdir Notes && i=0 && while [ $i -lt 1000 ]; do echo \"note $i\" > Notes/note-$i.txt; i=$((i+1)); done",
      ],
      in: checkout)
    try #require(burst.status == 0, "\(burst.standardError)")
    try await h.eventually("a run for the burst", timeout: .seconds(30)) { try await runCount(h) >= 1 }
    try await barrier(h, checkout)  // every event of the burst has been looked at
    #expect(try await runCount(h) == 1)

    // Writes to ignored files do not count.
    try h.write("ignored/x.txt", "x\n", in: checkout)
    try await barrier(h, checkout)
    #expect(try await runCount(h) == 1)
  }

  @Test func nothingIsEvaluatedWhileIndexLockExists() async throws {
    let h = try DaemonHarness()
    let checkout = try makeCheckout(h)
    try h.start(repositories: config(checkout, name: "locked"))
    try await h.waitForReady()
    let lock = checkout + "/.git/index.lock"
    #expect(FileManager.default.createFile(atPath: lock, contents: nil))
    try h.write("README.md", "# edited while git holds the index\n", in: checkout)
    try await h.eventually("the look to wait for the index lock", timeout: .seconds(30)) {
      try await source(h)["waitingForIndexLock"] as? Bool == true
    }
    #expect(try await runCount(h) == 0, "waits for git to release the index")
    try FileManager.default.removeItem(atPath: lock)
    try await h.eventually("the run once the lock is gone", timeout: .seconds(30)) { try await runCount(h) == 1 }
    let run = try #require(try await h.runs().first)
    #expect(run["branch"] as? String == "worktree")
    #expect(run["trigger"] as? String == "watch")
    _ = try await h.waitForRun(head: "worktree", states: ["passed"], timeout: .seconds(60))
  }

  /// The changed files recorded for `run`; nil before its analysis is recorded.
  private func changedFiles(_ h: DaemonHarness, run: [String: Any]) async throws -> [String]? {
    guard let id = run["id"] as? Int, let analysis = try await h.detail(id)["analysis"] as? [String: Any] else {
      return nil
    }
    return (analysis["changedFiles"] as? [String])?.sorted()
  }

  /// Each save is looked at through the watcher's paths alone (no status scan); the run's changes must
  /// still be exactly git's: a save, the same bytes again (nothing), a new untracked file, a deletion, and
  /// a branch switch (HEAD moved: one full look).
  @Test func eachKindOfSaveMakesARunWithGitsChanges() async throws {
    let h = try DaemonHarness()
    let checkout = try makeCheckout(h)
    try h.write("notes.txt", "notes\n", in: checkout)
    try h.git(["-C", checkout, "add", "-A"])
    try h.git(["-C", checkout, "commit", "-q", "-m", "notes"])
    try h.git(["-C", checkout, "checkout", "-q", "-b", "feature"])
    try h.write("feature.txt", "on the feature branch\n", in: checkout)
    try h.git(["-C", checkout, "add", "-A"])
    try h.git(["-C", checkout, "commit", "-q", "-m", "feature"])
    try h.git(["-C", checkout, "checkout", "-q", "main"])
    try h.start(repositories: config(checkout, name: "saves"))
    try await h.waitForReady()

    func nextRun(_ count: Int) async throws -> [String] {
      try await h.eventually("run \(count)", timeout: .seconds(60)) { try await runCount(h) >= count }
      try await barrier(h, checkout)
      #expect(try await runCount(h) == count, "one run per settled save")
      let runs = try await h.runs()
      let run = try #require(runs.max { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) })
      let id = try #require(run["id"] as? Int)
      try await h.eventually("run \(count) finished", timeout: .seconds(60)) {
        let state = try await h.runs().first { $0["id"] as? Int == id }?["state"] as? String
        return state.map { !["queued", "running"].contains($0) } ?? false
      }
      return try await changedFiles(h, run: run) ?? []
    }

    try h.write("README.md", "# dev, edited\n", in: checkout)
    #expect(try await nextRun(1) == ["README.md"])

    let looked = try await looks(h)
    try h.write("README.md", "# dev, edited\n", in: checkout)  // the same bytes
    try await h.eventually("the look at the same bytes", timeout: .seconds(30)) { try await looks(h) > looked }
    #expect(try await runCount(h) == 1, "a save without new content queues nothing")

    try h.write("Sources/new.txt", "untracked\n", in: checkout)
    #expect(try await nextRun(2) == ["README.md", "Sources/new.txt"])

    try FileManager.default.removeItem(atPath: checkout + "/notes.txt")
    #expect(try await nextRun(3) == ["README.md", "Sources/new.txt", "notes.txt"])

    // Undo everything, then switch branches: HEAD moves, git's changes come from the commits.
    try h.git(["-C", checkout, "checkout", "-q", "--", "."])
    try FileManager.default.removeItem(atPath: checkout + "/Sources")
    try await barrier(h, checkout)  // the undo is looked at on its own, before the switch
    try h.git(["-C", checkout, "checkout", "-q", "feature"])
    try await h.eventually("the run after the switch", timeout: .seconds(60)) {
      let runs = try await h.runs()
      guard let last = runs.max(by: { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }) else { return false }
      return try await changedFiles(h, run: last) == ["feature.txt"]
    }
  }
}
