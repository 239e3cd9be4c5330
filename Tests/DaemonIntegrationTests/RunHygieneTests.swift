import Foundation
import TestSupport
import Testing

/// What runs leave behind: temporary files, and processes after the daemon was killed.
@Suite("rippled runs leave nothing behind", .serialized, .exclusive(.daemonCache(2)))
struct RunHygieneTests {
  @Test func aRunLeavesNoNewEntriesInTheDaemonsTMPDIR() async throws {
    let h = try DaemonHarness()
    let temporary = h.root + "/daemon-tmp"
    try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    try h.makeRemote()
    try h.start(environment: ["TMPDIR": temporary])
    try await h.waitForReady()
    let run = try await h.waitForRun(head: try h.head(), states: ["passed", "failed", "error"])
    #expect(run["state"] as? String == "passed", "\(run)")
    let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
    #expect(left.isEmpty, "left in the daemon's TMPDIR: \(left)")
    let runFolders = (try? FileManager.default.contentsOfDirectory(atPath: DaemonHarness.sharedCache + "/tmp")) ?? []
    #expect(runFolders.isEmpty, "the run's private TMPDIR is removed with the run: \(runFolders)")
  }

  @Test func killNineMidRunThenRestartStopsTheOrphanedTestProcess() async throws {
    let h = try await DaemonHarness.withPassingBaseline()

    #expect(FileManager.default.createFile(atPath: h.gate, contents: nil))
    defer { try? FileManager.default.removeItem(atPath: h.gate) }
    try h.write(
      "Sources/Feature/Feature.swift",
      "import Core\npublic enum Feature { public static let value = Core.value + 1 }  // orphan\n")
    let head = try h.commitAndPush("Feature change")
    try await h.triggerFetch()
    try await h.eventually("the run to reach the gate", timeout: .seconds(300)) {
      FileManager.default.fileExists(atPath: h.gate + ".started")
    }
    let text = try String(contentsOfFile: h.gate + ".started", encoding: .utf8)
    let orphan = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    h.stop()  // kill -9 and waits for its exit: the test process goes on, waiting at the gate, holding the build folder
    #expect(kill(orphan, 0) == 0, "the test process outlives the killed daemon")

    // The gate stays: only the restarted daemon can end the orphan.
    try h.start()
    try await h.waitForReady()
    try await h.eventually("the orphaned test process to be stopped", timeout: .seconds(10)) {
      processHasEnded(orphan)
    }
    #expect(h.output.contains("left running"), "\(h.output.suffix(3000))")

    try FileManager.default.removeItem(atPath: h.gate)
    let retry = try await h.waitForRun(head: head, states: ["passed", "failed", "error"])
    #expect(retry["state"] as? String == "passed", "\(retry)")
    #expect(retry["trigger"] as? String == "requeue")
  }
}
