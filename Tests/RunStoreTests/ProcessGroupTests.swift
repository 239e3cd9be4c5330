import Foundation
import RunModel
import Testing

@testable import RunStore

@Suite("Process groups of running runs")
struct ProcessGroupTests {
  @Test func recordedGroupsSurviveAReopenUntilForgottenOrCleared() throws {
    try withTempDirectory { directory in
      let path = directory + "/runs.sqlite"
      let (first, second): (RunRecord, RunRecord)
      do {
        let store = try RunStore(path: path)
        first = try makeRun(store, in: .running)
        second = try makeRun(store, in: .running, head: "other")
        try store.recordProcessGroup(4242, run: first.id)
        try store.recordProcessGroup(4242, run: first.id)  // twice: one row
        try store.recordProcessGroup(4343, run: first.id)
        try store.recordProcessGroup(5000, run: second.id)
      }
      let store = try RunStore(path: path)
      #expect(
        try store.processGroups().map { "\($0.run):\($0.pgid)" } == [
          "\(first.id):4242", "\(first.id):4343", "\(second.id):5000",
        ])
      try store.forgetProcessGroups(run: first.id, pgid: 4242)
      #expect(try store.processGroups().map(\.pgid) == [4343, 5000])
      try store.forgetProcessGroups(run: first.id)
      #expect(try store.processGroups().map(\.pgid) == [5000])
      try store.clearProcessGroups()
      #expect(try store.processGroups().isEmpty)
    }
  }

  @Test func aPrunedRunTakesItsGroupsAlong() throws {
    try withStore { store, _ in
      let run = try makeRun(store, in: .running)
      try store.recordProcessGroup(77, run: run.id)
      _ = try store.finish(run.id, state: .passed, reason: nil)
      _ = try store.prune(maxRuns: 0, maxAge: .seconds(1))
      #expect(try store.processGroups().isEmpty)
    }
  }

  @Test func aGroupOfAnUnknownRunIsRefused() throws {
    _ = try withStore { store, _ in
      #expect(throws: RunStoreError.self) { try store.recordProcessGroup(1, run: 999) }
    }
  }
}

@Suite("Checkpoint at a clean stop")
struct CheckpointTests {
  @Test func aCheckpointLeavesEveryCommittedRowInTheDatabaseFileAndAnEmptyWAL() throws {
    try withStore { store, path in
      let run = try makeRun(store, in: .passed, head: "checkpointed-head")
      let wal = path + "-wal"
      #expect(((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int ?? 0) > 0)
      try store.checkpoint()
      #expect(((try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int ?? 0) == 0)
      let file = try Data(contentsOf: URL(fileURLWithPath: path))
      #expect(file.range(of: Data("checkpointed-head".utf8)) != nil)
      #expect(try store.run(run.id)?.head == "checkpointed-head")
    }
  }
}
