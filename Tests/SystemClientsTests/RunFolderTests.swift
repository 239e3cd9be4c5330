import Foundation
import Testing

@testable import TestSupport

/// The folders a test run keeps in TMPDIR: the first use in a run removes those of runs that have ended.
@Suite struct RunFolderTests {
  @Test func onlyTheFoldersOfEndedRunsAreRemoved() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-folder-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead = ended.processIdentifier
    let names = [
      "p-\(dead)", "p-\(dead)-2", "p-\(getpid())", "p-\(getppid())-1", "p-\(dead)x", "p-", "other-\(dead)",
      "pq-\(dead)",
    ]
    for name in names {
      try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: true)
    }
    RunFolder.sweep(prefix: "p", in: directory)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
    #expect(left == Set(names).subtracting(["p-\(dead)", "p-\(dead)-2"]))
    #expect(RunFolder.ownerPID(of: "p-12-3", prefix: "p") == 12)
    #expect(RunFolder.ownerPID(of: "p-12x", prefix: "p") == nil)
    #expect(RunFolder.ownerPID(of: "pq-12", prefix: "p") == nil)
  }
}
