import Foundation
import RippleCore
import TestSupport
import Testing

@testable import SystemClients

/// The process table rippled's restart cleanup and the cancellation reaper read, and the groups they reach.
@Suite struct ProcessTableTests {
  @Test func leadersReachTheirGroupsSessionsAndDescendantsOfThisUserOnly() {
    let table = [
      ProcessEntry(pid: 100, parent: 1, group: 100, session: 100, user: 1000),  // swift test, leads both
      ProcessEntry(pid: 101, parent: 100, group: 100, session: 100, user: 1000),  // swift-build, same group
      ProcessEntry(pid: 102, parent: 100, group: 102, session: 100, user: 1000),  // the test runner's own group
      ProcessEntry(pid: 103, parent: 102, group: 102, session: 100, user: 1000),  // its child
      ProcessEntry(pid: 104, parent: 1, group: 104, session: 100, user: 1000),  // an orphaned compile job
      ProcessEntry(pid: 105, parent: 103, group: 105, session: 105, user: 1000),  // left the session (setsid)
      ProcessEntry(pid: 200, parent: 1, group: 200, session: 200, user: 1000),  // unrelated
      ProcessEntry(pid: 300, parent: 1, group: 300, session: 300, user: 0),  // a leader's id, now someone else's
      ProcessEntry(pid: 301, parent: 300, group: 300, session: 300, user: 0),
    ]
    let found = ProcessTable.reached(from: [100, 300, 999], user: 1000, in: table)
    #expect(found.map(\.pid).sorted() == [100, 101, 102, 103, 104, 105])
    #expect(ProcessTable.reached(from: [], user: 1000, in: table).isEmpty)
    let groups = ProcessTable.groups(reachedFrom: [100, 999], user: 1000, in: table, excluding: 102)
    #expect(groups == [100, 104, 105, 999], "the leaders' and the reached processes' groups, not the caller's")
  }

  @Test func procStatLinesParseEvenWithParenthesesInTheCommand() {
    let entry = ProcessTable.entry(pid: 42, user: 7, stat: "42 (my (odd) cmd) S 17 40 39 0 -1 4194560 1")
    #expect(entry == ProcessEntry(pid: 42, parent: 17, group: 40, session: 39, user: 7))
    #expect(ProcessTable.entry(pid: 1, user: 0, stat: "garbage") == nil)
    #expect(ProcessTable.entry(pid: 1, user: 0, stat: "1 (init) S 0 1") == nil, "no session field")
    #if os(Linux)
      let live = ProcessTable.current()
      #expect(live.contains { $0.pid == getpid() && $0.group == getpgrp() && $0.session == getsid(0) })
    #endif
  }

  /// `swift test` (100) started the test runner, which left the session; once `swift test` is killed, the
  /// runner is an orphan in no group or session of the child's, and only the group found before reaches it.
  @Test func theReaperKeepsTheGroupsItFoundAfterTheirParentIsGone() {
    let user = getuid()
    let reaper = ProcessGroupReaper()
    #expect(reaper.groupsToSignal(in: []).isEmpty, "nothing started, nothing to signal")
    reaper.started(100)
    let first = reaper.groupsToSignal(in: [
      ProcessEntry(pid: 100, parent: 1, group: 100, session: 100, user: user),
      ProcessEntry(pid: 102, parent: 100, group: 102, session: 102, user: user),
      ProcessEntry(pid: 104, parent: 1, group: 104, session: 100, user: user),  // an orphan in the session
    ])
    #expect(first == [100, 102, 104])
    let later = reaper.groupsToSignal(in: [ProcessEntry(pid: 102, parent: 1, group: 102, session: 102, user: user)])
    #expect(later == [100, 102, 104])
  }

  /// Whether `pid` leads a process group within 10 s (`perl`'s `setpgrp` runs before it execs `sleep`).
  static func leadsAGroup(_ pid: Int32) async -> Bool {
    await poll(every: .milliseconds(20), timeout: .seconds(10)) {
      ProcessTable.current().contains { $0.pid == pid && $0.group == pid }
    }
  }

  /// swift-subprocess reports the child from a task of its own, which a busy pool may start after the request
  /// was cancelled: the reaper then stops the child once it learns of it.
  @Test(.timeLimit(.minutes(1)))
  func aChildReportedAfterTheCancellationIsStoppedToo() async throws {
    #if os(Linux)
      let child = Process()
      child.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
      child.arguments = ["-e", "setpgrp(0, 0); exec @ARGV", "sleep", "300"]
      try child.run()
      defer { if child.isRunning { kill(child.processIdentifier, SIGKILL) } }
      let pid = child.processIdentifier
      try #require(await Self.leadsAGroup(pid), "setpgrp made the sleep lead a group of its own")
      let reaper = ProcessGroupReaper()
      reaper.cancel()
      #expect(!processHasEnded(pid), "nothing to signal before the child is known")
      reaper.started(pid)
      let ended = await poll(every: .milliseconds(50), timeout: .seconds(20)) { processHasEnded(pid) }
      #expect(ended, "the child reported after the cancellation was not stopped")
    #endif
  }

  /// A real child whose own child leads a process group of its own, as `swift test`'s runner and llbuild's
  /// compile jobs do: the child's group alone misses it, and it would run on after the cancelled request. As a
  /// background job of `sh` it ignores SIGINT, so it takes the SIGTERM that follows.
  @Test(.timeLimit(.minutes(1)))
  func cancellingARequestStopsTheGroupsItsDescendantsLead() async throws {
    #if os(Linux)
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-reap-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let pidFile = folder.appendingPathComponent("pid").path
      let script =
        "perl -e 'setpgrp(0, 0); exec @ARGV' sleep 300 & echo $! > '\(pidFile).tmp' && mv '\(pidFile).tmp' '\(pidFile)'; wait"
      let task = Task { try await ProcessClient.live.run(ProcessRequest("/bin/sh", ["-c", script])) }
      let written = await poll(every: .milliseconds(20), timeout: .seconds(20)) {
        FileManager.default.fileExists(atPath: pidFile)
      }
      try #require(written, "the shell never started its background job")
      let text = try String(contentsOfFile: pidFile, encoding: .utf8)
      let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
      defer { kill(pid, SIGKILL) }
      try #require(await Self.leadsAGroup(pid), "setpgrp made the sleep lead a group of its own")
      task.cancel()
      _ = try? await task.value
      let ended = await poll(every: .milliseconds(50), timeout: .seconds(20)) { processHasEnded(pid) }
      #expect(ended, "the grandchild in its own group outlived the cancelled request")
    #endif
  }
}
