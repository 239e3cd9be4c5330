import Foundation
import PassRecords
import ResultStore
import ResultStoreLive
import RippleConfig
import Testing

/// The local folder: sharded files, atomic replacement, LRU bound, the size limit.
@Suite struct LocalFolderStoreTests {
  private func store(_ folder: String, maxSize: Int64 = ResultCacheConfig.defaultMaxSize) throws -> ResultStoreClient {
    try ResultStores.make(
      .local(path: folder), config: config(maxSize: maxSize), environment: [:], cacheDirectory: "/nonexistent")
  }

  @Test func roundTripInAShardFolderAndAMissingRecordIsNil() async throws {
    try await withTemporaryDirectory { directory in
      let store = try store(directory + "/results")
      let key = freshKey()
      #expect(try await store.load(key) == nil)
      let data = recordBytes("first")
      try await store.save(key, data)
      #expect(try await store.load(key) == data)
      #expect(FileManager.default.fileExists(atPath: "\(directory)/results/\(key.hex.prefix(2))/\(key.hex)"))
      let replacement = recordBytes("second", size: 10)
      try await store.save(key, replacement)
      #expect(try await store.load(key) == replacement)
      #expect(store.name == directory + "/results")
    }
  }

  @Test func theDefaultFolderIsInRipplesCacheFolder() throws {
    #expect(
      ResultStores.defaultCacheDirectory(environment: ["RIPPLE_CACHE_DIR": "/ci/cache", "HOME": "/h"]) == "/ci/cache")
    #expect(ResultStores.defaultCacheDirectory(environment: ["XDG_CACHE_HOME": "/xdg", "HOME": "/h"]) == "/xdg/ripple")
    #if os(Linux)
      #expect(ResultStores.defaultCacheDirectory(environment: ["HOME": "/h"]) == "/h/.cache/ripple")
    #endif
    let store = try ResultStores.make(.local(path: nil), config: config(), environment: [:], cacheDirectory: "/c")
    #expect(store.name == "/c/results")
    let fromConfig = try ResultStores.make(ResultCacheConfig(), environment: [:], cacheDirectory: "/c")
    #expect(fromConfig.name == "/c/results")
  }

  @Test func twoWritersRacingOneKeyLeaveOneWholeRecord() async throws {
    try await withTemporaryDirectory { directory in
      let store = try store(directory)
      let key = freshKey()
      // Large enough that a torn write would be likely to show.
      let a = recordBytes("a", fill: "a", size: 256 << 10)
      let b = recordBytes("b", fill: "b", size: 200 << 10)
      let seen = try await withThrowingTaskGroup(of: [Data].self) { group in
        for data in [a, b] {
          group.addTask {
            var loaded: [Data] = []
            for _ in 0..<50 {
              try await store.save(key, data)
              if let record = try await store.load(key) { loaded.append(record) }
            }
            return loaded
          }
        }
        return try await group.reduce(into: []) { $0 += $1 }
      }
      #expect(seen.count == 100)
      #expect(seen.allSatisfy { $0 == a || $0 == b })
      let final = try #require(try await store.load(key))
      #expect(final == a || final == b)
      let shard = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/\(key.hex.prefix(2))")
      #expect(shard == [key.hex], "no temporary file is left behind")
    }
  }

  @Test func pastMaxSizeTheLeastRecentlyUsedRecordsGoUntilNinetyPercent() async throws {
    try await withTemporaryDirectory { directory in
      let store = try store(directory, maxSize: 10_000)
      let keys = (0..<12).map { _ in freshKey() }
      for key in keys[0..<8] { try await store.save(key, recordBytes("r", size: 1000)) }
      // File times tick coarsely: give the first eight distinct ages, oldest first, then use the first.
      for (index, key) in keys[0..<8].enumerated() {
        try FileManager.default.setAttributes(
          [.modificationDate: Date(timeIntervalSinceNow: Double(index) - 100)],
          ofItemAtPath: "\(directory)/\(key.hex.prefix(2))/\(key.hex)")
      }
      #expect(try await store.load(keys[0]) != nil)
      for key in keys[8...] {
        try await store.save(key, recordBytes("r", size: 1000))
        #expect(folderSize(directory) <= 10_000)
      }
      // At 11 000 bytes the two least recently used (keys 1 and 2) went, down to 9 000.
      #expect(try await store.load(keys[0]) != nil)
      #expect(try await store.load(keys[1]) == nil)
      #expect(try await store.load(keys[2]) == nil)
      for key in keys[3...] { #expect(try await store.load(key) != nil) }
      #expect(folderSize(directory) == 10_000)
    }
  }

  @Test func aRecordOverTheLimitIsRefusedBothWays() async throws {
    try await withTemporaryDirectory { directory in
      let store = try store(directory)
      let key = freshKey()
      let oversized = Data(count: ResultStoreLimits.maximumRecordBytes + 1)
      let saveError = await #expect(throws: ResultStoreError.self) { try await store.save(key, oversized) }
      #expect(saveError?.kind == .tooLarge)
      #expect(try await store.load(key) == nil)
      // One put there by someone else is not read.
      try FileManager.default.createDirectory(
        atPath: "\(directory)/\(key.hex.prefix(2))", withIntermediateDirectories: true)
      try oversized.write(to: URL(fileURLWithPath: "\(directory)/\(key.hex.prefix(2))/\(key.hex)"))
      let loadError = await #expect(throws: ResultStoreError.self) { try await store.load(key) }
      #expect(loadError?.kind == .tooLarge)
    }
  }

  private func folderSize(_ folder: String) -> Int {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var total = 0
    while let path = enumerator?.nextObject() as? String {
      let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + path)
      if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
    }
    return total
  }
}
