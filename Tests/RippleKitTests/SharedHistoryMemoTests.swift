import Foundation
import PassRecords
import ResultStore
import RippleCore
import TestSupport
import Testing

@testable import RippleKit

/// `ripple test --base auto` asks for the team's history twice (the green commits, then the timings of the plan):
/// one workspace reads each slot once, and says a read's warnings each time it is asked.
@Suite struct SharedHistoryMemoTests {
  /// A store that counts its reads, over a memory store or answering every read with an error.
  static func counting(down: Bool = false) -> (ResultStoreClient, Locked<[String]>) {
    let loads = Locked<[String]>([])
    let memory = ResultStoreClient.memory()
    let client = ResultStoreClient(
      name: "counting",
      load: { key in
        loads.withLock { $0.append(key.hex) }
        if down { throw ResultStoreError(.unreachable, store: "counting", detail: "refused") }
        return try await memory.load(key)
      },
      save: { key, data in try await memory.save(key, data) })
    return (client, loads)
  }

  static func workspace(_ repository: GitFixture, store: ResultStoreClient) throws -> Workspace {
    var services = RippleServices(process: .failing, environment: ["RIPPLE_BRANCH": "feature/x"])
    services.makeResultStore = { _, _, _ in store }
    return try Workspace.open(directory: repository.root, services: services)
  }

  @Test func oneWorkspaceReadsEachSlotOnceAndANewOneReadsAgain() async throws {
    let repository = try GitFixture()
    try repository.write("README.md", "x\n")
    try repository.commitAll("init")
    let (store, loads) = Self.counting()
    let workspace = try Self.workspace(repository, store: store)
    var warnings: [String] = []
    let first = try #require(await workspace.loadSharedHistory(ResultCacheUse(), slot: 1, warnings: &warnings))
    let second = try #require(await workspace.loadSharedHistory(ResultCacheUse(), slot: 3, warnings: &warnings))
    // An unprotected branch reads the protected scope and its own: 2 × 4 slots, each once.
    #expect(first.scopes == ["protected", "branch:feature/x"])
    // 2 × 4 slots, each once, and each slot's next-write marker once (a replay's tell): 16 reads, all different.
    #expect(loads.withLock { $0.count } == 16 && Set(loads.withLock { $0 }).count == 16)
    // Each caller still gets its own slot to write.
    #expect(first.slot == 1 && first.merged.slot == 1 && second.slot == 3 && second.merged.slot == 3)
    #expect(warnings.isEmpty, "\(warnings)")

    _ = try #require(
      await Self.workspace(repository, store: store).loadSharedHistory(ResultCacheUse(), slot: 0, warnings: &warnings))
    #expect(loads.withLock { $0.count } == 32, "another workspace (the next command, rippled's next run) reads again")
  }

  @Test func aStoreThatIsDownIsAskedOnceAndEveryCallerIsTold() async throws {
    let repository = try GitFixture()
    try repository.write("README.md", "x\n")
    try repository.commitAll("init")
    let (store, loads) = Self.counting(down: true)
    let workspace = try Self.workspace(repository, store: store)
    var first: [String] = []
    var second: [String] = []
    let a = try #require(await workspace.loadSharedHistory(ResultCacheUse(), slot: 0, warnings: &first))
    let b = try #require(await workspace.loadSharedHistory(ResultCacheUse(), slot: 0, warnings: &second))
    #expect(loads.withLock { $0.count } == 8)
    #expect(first.contains { $0.contains("the shared history could not be read from counting") }, "\(first)")
    #expect(second == first)
    // Nothing is written back to a store that did not answer.
    #expect(a.writeScope == nil && b.writeScope == nil)
  }
}
