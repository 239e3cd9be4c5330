import Foundation
import PassRecords
import ResultStore
import RippleCore
import TestRunner
import TestSupport
import Testing

@testable import RippleKit

/// History that cannot be rolled back unseen (issue 48): every write of a slot leaves a marker of its number, so
/// a slot put back to an older one, overwritten with garbage or deleted is detected and said.
@Suite struct HistoryRollbackTests {
  /// A memory store whose `hidden` keys read as absent (a deleted slot).
  static func store(hiding hidden: Locked<Set<String>>) -> ResultStoreClient {
    let memory = ResultStoreClient.memory()
    var client = ResultStoreClient(
      name: "team",
      load: { key in hidden.withLock { $0.contains(key.hex) } ? nil : try await memory.load(key) },
      save: { key, data in try await memory.save(key, data) })
    client.writtenOnlyByThisUser = true
    return client
  }

  static func write(_ repository: GitFixture, store: ResultStoreClient) async throws {
    let workspace = try SharedHistoryMemoTests.workspace(repository, store: store)
    var warnings: [String] = []
    let context = try #require(await workspace.loadSharedHistory(ResultCacheUse(), slot: 0, warnings: &warnings))
    let job = TestJob(
      selection: TestSelection(packages: []), options: TestRunOptions(repositoryRoot: repository.root),
      history: TimingHistory(), timingStore: TimingStore(path: repository.root + "/t.json"), warnings: [],
      nothingMessage: "")
    let result = TestRunResult(packages: [PackageResult(path: ".", status: .passed)], duration: 1)
    #expect(
      await workspace.writeSharedHistory(context, result: result, job: job, tested: workspace.testedCommit(job)) == [])
  }

  static func read(_ repository: GitFixture, store: ResultStoreClient) async throws -> [String] {
    var warnings: [String] = []
    _ = try #require(
      await SharedHistoryMemoTests.workspace(repository, store: store)
        .loadSharedHistory(ResultCacheUse(), slot: 0, warnings: &warnings))
    return warnings
  }

  @Test func aReplayedAGarbageAndADeletedSlotAreSaidAndTheSequenceNeverGoesBack() async throws {
    let repository = try GitFixture()
    try repository.write("README.md", "x\n")
    try repository.commitAll("init")
    let hidden = Locked<Set<String>>([])
    let store = Self.store(hiding: hidden)
    let workspace = try SharedHistoryMemoTests.workspace(repository, store: store)
    let namespace = workspace.historyNamespace()
    let key = HistoryRecord.key(namespace: namespace, scope: "branch:feature/x", slot: 0)

    try await Self.write(repository, store: store)
    let first = try #require(try await store.load(key))
    try await Self.write(repository, store: store)
    #expect(try await Self.read(repository, store: store).isEmpty, "written twice, read as it is: nothing to say")

    // A store writer puts the first write back: a valid record, but write 2's marker exists.
    try await store.save(key, first)
    let replayed = try await Self.read(repository, store: store)
    #expect(replayed.contains { $0.contains("was rolled back to write 1, but write 2") }, "\(replayed)")

    // Garbage over the slot: unreadable, and its first write's marker says it held something.
    try await store.save(key, Data("garbage".utf8))
    let garbage = try await Self.read(repository, store: store)
    #expect(garbage.contains { $0.contains("is gone or unreadable, but it was written") }, "\(garbage)")

    // Deleted: the same.
    hidden.withLock { _ = $0.insert(key.hex) }
    let deleted = try await Self.read(repository, store: store)
    #expect(deleted.contains { $0.contains("is gone or unreadable") }, "\(deleted)")
    hidden.withLock { $0 = [] }

    // The next write goes on from the newest marker (3), never back to a number a replay could reuse.
    try await Self.write(repository, store: store)
    let data = try #require(try await store.load(key))
    let policy = TrustPolicy(trustedKeys: [], branch: "feature/x", branchIsProtected: false, now: Date())
    guard
      case .trusted(let record, _) = policy.judgeHistory(data, namespace: namespace, scope: "branch:feature/x", slot: 0)
    else {
      Issue.record("the new slot is not believed")
      return
    }
    #expect(record.sequence == 3)
    #expect(try await Self.read(repository, store: store).isEmpty)
  }
}
