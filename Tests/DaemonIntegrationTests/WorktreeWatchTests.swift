import Foundation
import Testing

/// The dev-box source: a working tree watched with inotify. The fixture has no Package.swift, so a run
/// finds nothing to build and these tests measure only when runs are queued.
@Suite("rippled watches a working tree", .serialized)
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

  private func config(_ checkout: String) -> String {
    """
      - name: dev
        path: \(checkout)
        settle: 300ms
        watch: inotify
    """
  }

  private func runCount(_ h: DaemonHarness) async throws -> Int { try await h.runs().count }

  @Test func aBurstOfAThousandFileEventsMakesOneRun() async throws {
    let h = try DaemonHarness()
    let checkout = try makeCheckout(h)
    try h.start(repositories: config(checkout))
    try await h.waitForReady()
    let before = try await runCount(h)  // nothing changed since the last look: no start-up run
    #expect(before == 0)

    for index in 0..<1000 {
      try h.write("Notes/note-\(index).txt", "note \(index)\n", in: checkout)
    }
    try await h.eventually("a run for the burst", timeout: .seconds(30)) { try await runCount(h) >= 1 }
    try await Task.sleep(for: .seconds(2))  // a second run would be queued well within this
    #expect(try await runCount(h) == 1)

    // Writes to ignored files do not count.
    try h.write("ignored/x.txt", "x\n", in: checkout)
    try await Task.sleep(for: .seconds(2))
    #expect(try await runCount(h) == 1)
  }

  @Test func nothingIsEvaluatedWhileIndexLockExists() async throws {
    let h = try DaemonHarness()
    let checkout = try makeCheckout(h)
    try h.start(repositories: config(checkout))
    try await h.waitForReady()
    let lock = checkout + "/.git/index.lock"
    FileManager.default.createFile(atPath: lock, contents: nil)
    try h.write("README.md", "# edited while git holds the index\n", in: checkout)
    try await Task.sleep(for: .seconds(2))
    #expect(try await runCount(h) == 0, "waits for git to release the index")
    try FileManager.default.removeItem(atPath: lock)
    try await h.eventually("the run once the lock is gone", timeout: .seconds(30)) { try await runCount(h) == 1 }
    let run = try #require(try await h.runs().first)
    #expect(run["branch"] as? String == "worktree")
    #expect(run["trigger"] as? String == "watch")
    _ = try await h.waitForRun(head: "worktree", states: ["passed"], timeout: .seconds(60))
  }
}
