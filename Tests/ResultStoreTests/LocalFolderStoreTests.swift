import Foundation
import PassRecords
import ResultStore
import ResultStoreLive
import RippleConfig
import TestSupport
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

  // MARK: The store touches only its own files (issue 48)

  /// The refusal for `folder`, made as ripple would make it in `repository` with `home`.
  private func refusal(_ folder: String, repository: String? = nil, home: String = "/nonexistent-home")
    -> ResultStoreSetupError?
  {
    do {
      _ = try ResultStores.make(
        .local(path: folder), config: config(), environment: ["HOME": home], cacheDirectory: "/nonexistent",
        repositoryRoot: repository)
      return nil
    } catch {
      return error
    }
  }

  @Test func refusesTheRootHomeTheRepositoryInsideItAndAFileNamingThePathWithExitCode2() async throws {
    try await withTemporaryDirectory { directory in
      let repository = directory + "/repo"
      let home = directory + "/home"
      for folder in [repository + "/Sources", home] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/file"))
      let cases: [(String, String)] = [
        ("/", "it is the root folder"),
        (home, "it is your home folder"),
        (home + "/./", "it is your home folder"),
        (repository, "it is the repository's work tree"),
        (repository + "/Sources/../", "it is the repository's work tree"),
        (directory, "it holds the repository"),
        (repository + "/Sources", "it is inside the repository's work tree"),
        (repository + "/.records", "it is inside the repository's work tree"),
        (directory + "/file", "it is a file, not a folder"),
      ]
      for (folder, reason) in cases {
        let error = try #require(refusal(folder, repository: repository, home: home), "\(folder) is refused")
        #expect(error.refusesFolder)
        #expect(error.category.exitCode == 2, "a usage error: exit 2")
        #expect(error.description.contains("refusing \(folder) as the local store's folder"), "\(error)")
        #expect(error.description.contains(reason), "\(folder): \(error)")
      }
      // The default folder in Ripple's cache folder may sit in the work tree (a CI cache in .build); never the
      // work tree itself.
      let inside = try ResultStores.make(
        .local(path: nil), config: config(), environment: ["HOME": home],
        cacheDirectory: repository + "/.build/ripple-cache", repositoryRoot: repository)
      #expect(inside.name == repository + "/.build/ripple-cache/results")
      #expect(refusal(directory + "/elsewhere", repository: repository, home: home) == nil)
    }
  }

  @Test func storeDotSlashOverARepositoryWithATrackedDbFolderIsRefusedBeforeAnythingIsDeleted() async throws {
    let repository = try GitFixture()
    for index in 0..<20 { try repository.write("db/\(index).sql", String(repeating: "x", count: 1000)) }
    try repository.commitAll("db")
    let before = try FileManager.default.contentsOfDirectory(atPath: repository.root + "/db").sorted()
    let error = try #require(refusal(repository.root, repository: repository.root))
    #expect(error.description.contains("it is the repository's work tree"), "\(error)")
    // Not its own even where no repository is known: a folder of other files, without the marker.
    let foreign = try #require(refusal(repository.root))
    #expect(foreign.description.contains("which this store did not write"), "\(foreign)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: repository.root + "/db").sorted() == before)
    #expect(!FileManager.default.fileExists(atPath: repository.root + "/.ripple-result-store"))
  }

  @Test func aFolderOfOtherFilesIsRefusedAndAnUnmarkedStoreOfRecordsIsAdopted() async throws {
    try await withTemporaryDirectory { directory in
      // Round 4's store: shards of records (and a temporary file), no marker.
      let old = directory + "/old"
      let key = freshKey()
      let shard = "\(old)/\(key.hex.prefix(2))"
      try FileManager.default.createDirectory(atPath: shard, withIntermediateDirectories: true)
      try recordBytes("old").write(to: URL(fileURLWithPath: "\(shard)/\(key.hex)"))
      try Data().write(to: URL(fileURLWithPath: "\(shard)/.tmp-\(UUID().uuidString)"))
      let adopted = try store(old)
      #expect(try await adopted.load(key) == recordBytes("old"))
      try await adopted.save(freshKey(), recordBytes("new"))
      #expect(FileManager.default.fileExists(atPath: old + "/.ripple-result-store"), "adopted: marked")

      // An empty folder is taken and marked on the first save.
      let empty = directory + "/empty"
      try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
      try await self.store(empty).save(freshKey(), recordBytes("first"))
      #expect(FileManager.default.fileExists(atPath: empty + "/.ripple-result-store"))

      // Anything it does not write, anywhere, makes the folder someone else's.
      let plantings: [(String, (String) throws -> Void)] = [
        ("notes.txt", { try Data("n".utf8).write(to: URL(fileURLWithPath: $0 + "/notes.txt")) }),
        (
          "db/schema.sql",
          { folder in
            try FileManager.default.createDirectory(atPath: folder + "/db", withIntermediateDirectories: true)
            try Data("s".utf8).write(to: URL(fileURLWithPath: folder + "/db/schema.sql"))
          }
        ),
        (
          "ab/README",
          { folder in
            try FileManager.default.createDirectory(atPath: folder + "/ab", withIntermediateDirectories: true)
            try Data("r".utf8).write(to: URL(fileURLWithPath: folder + "/ab/README"))
          }
        ),
        ("cd", { try FileManager.default.createSymbolicLink(atPath: $0 + "/cd", withDestinationPath: directory) }),
      ]
      for (index, (name, plant)) in plantings.enumerated() {
        let folder = directory + "/foreign\(index)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try plant(folder)
        let error = try #require(refusal(folder), "\(name) makes the folder not a store's")
        #expect(error.description.contains("`\(name)`"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/.ripple-result-store"))
      }
    }
  }

  @Test func aPlantedTwoCharacterLinkIsNeverCountedFollowedOrDeletedAndItsFilesSurviveEviction() async throws {
    try await withTemporaryDirectory { directory in
      let folder = directory + "/store"
      let outside = directory + "/outside"
      try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
      // Files elsewhere named as records of shard `ab` would be, old, and a plain file.
      let victims = (0..<5).map { _ in "ab" + String(freshKey().hex.dropFirst(2)) } + ["precious.txt"]
      for name in victims {
        try recordBytes("victim", size: 3000).write(to: URL(fileURLWithPath: outside + "/" + name))
        try FileManager.default.setAttributes(
          [.modificationDate: Date(timeIntervalSinceNow: -86_400)], ofItemAtPath: outside + "/" + name)
      }
      let store = try store(folder, maxSize: 10_000)
      try await store.save(freshKey(avoiding: "ab"), recordBytes("r", size: 1000))
      // A co-tenant of the folder plants a shard that is a link, and a record-named link in a real shard.
      try FileManager.default.createSymbolicLink(atPath: folder + "/ab", withDestinationPath: outside)
      let realShard = try #require(
        try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.count == 2 && $0 != "ab" })
      let linkName = realShard + String(freshKey().hex.dropFirst(2))
      try FileManager.default.createSymbolicLink(
        atPath: "\(folder)/\(realShard)/\(linkName)", withDestinationPath: outside + "/precious.txt")

      let keys = (0..<15).map { _ in freshKey(avoiding: "ab") }
      for key in keys { try await store.save(key, recordBytes("r", size: 1000)) }
      // Eviction ran (16 records of 1000 bytes against 10 000) and touched only the store's own records.
      #expect(ownRecordsSize(folder) <= 10_000)
      #expect(ownRecordsSize(folder) >= 8_000)
      for name in victims {
        #expect(FileManager.default.fileExists(atPath: outside + "/" + name), "\(name) survives")
      }
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: outside + "/precious.txt")) == recordBytes("victim", size: 3000))
      #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/ab")) == outside, "never deleted")
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(realShard)/\(linkName)")) != nil)
      // Nor read, nor written through: a key in the linked shard is a miss, and its save is refused.
      let linkedKey = try #require(RecordKey(hex: victims[0]))
      #expect(try await store.load(linkedKey) == nil)
      await #expect(throws: ResultStoreError.self) { try await store.save(linkedKey, recordBytes("w")) }
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: outside + "/" + victims[0])) == recordBytes("victim", size: 3000))
      #expect(try await store.load(try #require(RecordKey(hex: linkName))) == nil, "a record-named link is no record")
    }
  }

  // MARK: No write lowers trust (issue 48)

  @Test func anUnsignedWriteNeverReplacesASignedRecordEvenRacingIt() async throws {
    try await withTemporaryDirectory { directory in
      let store = try store(directory)
      let key = freshKey()
      let signed = try sealedRecord(key, branch: "main", signed: true)
      let unsigned = try sealedRecord(key, branch: "feature/x", signed: false)
      // Writers race one key: two of a branch's unsigned record and main's signed one, each read back at once.
      let ticks = Ticks()
      let reads = try await withThrowingTaskGroup(of: [Read].self) { group in
        for data in [unsigned, signed, unsigned] {
          group.addTask {
            var reads: [Read] = []
            for _ in 0..<40 {
              _ = try await store.save(key, data, unlessLowering: lowerNoTrust)
              let before = ticks.tick()
              let record = try await store.load(key)
              reads.append(Read(before: before, after: ticks.tick(), record: record))
            }
            return reads
          }
        }
        return try await group.reduce(into: []) { $0 += $1 }
      }
      #expect(reads.count == 120)
      #expect(reads.allSatisfy { $0.record == signed || $0.record == unsigned }, "whole records only")
      // Once a read has seen the signed record, no read that began after it sees an unsigned one.
      let firstSigned = try #require(reads.filter { $0.record == signed }.map(\.after).min())
      let lowered = reads.filter { $0.record == unsigned && $0.before > firstSigned }
      #expect(lowered.isEmpty, "\(lowered.count) reads saw the unsigned record after the signed one")
      #expect(try await store.load(key) == signed, "the signed record stays")
      // Once signed, every unsigned write after it was refused.
      #expect(try await store.save(key, unsigned, unlessLowering: lowerNoTrust) != .replace)
      #expect(try await store.load(key) == signed)
      // The plain save (coverage blobs) still replaces: the rule is for records.
      let other = freshKey()
      try await store.save(other, recordBytes("blob"))
      #expect(try await store.save(other, unsigned, unlessLowering: lowerNoTrust) == .replace)
    }
  }

  /// The check and the write are one step: a checked save takes the folder's lock before it reads, so a writer
  /// holding the lock (here the test, through the marker) is waited for, and the save then decides on what that
  /// writer left: main's signed record, which stays.
  @Test func aCheckedSaveReadsUnderTheFoldersLockSoNoWriterComesBetween() async throws {
    try await withTemporaryDirectory { directory in
      let store = try store(directory)
      try await store.save(freshKey(), recordBytes("marks the folder"))
      let marker = directory + "/.ripple-result-store"
      let lock = open(marker, O_RDONLY | O_CLOEXEC)
      try #require(lock >= 0)
      defer { close(lock) }
      try #require(flock(lock, LOCK_EX) == 0)
      let key = freshKey()
      let unsigned = try sealedRecord(key, branch: "feature/x", signed: false)
      let save = Task { try await store.save(key, unsigned, unlessLowering: lowerNoTrust) }
      // The save waits for the lock: the kernel lists it as a blocked flock on the marker.
      var status = stat()
      try #require(stat(marker, &status) == 0)
      let inode = ":\(status.st_ino) "
      let waiting = await poll(timeout: .seconds(30)) {
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        return locks.split(separator: "\n").contains { $0.contains("-> FLOCK") && $0.contains(inode) }
      }
      #expect(waiting, "the checked save waits for the folder's lock")
      // Meanwhile main's signed record lands.
      let signed = try sealedRecord(key, branch: "main", signed: true)
      let shard = "\(directory)/\(key.hex.prefix(2))"
      try FileManager.default.createDirectory(atPath: shard, withIntermediateDirectories: true)
      try signed.write(to: URL(fileURLWithPath: "\(shard)/\(key.hex)"))
      flock(lock, LOCK_UN)
      #expect(try await save.value == .keep(reason: "a signed record is never replaced by an unsigned one"))
      #expect(try await store.load(key) == signed)
    }
  }

  /// One read of the race: the ticks before and after it, and what it read.
  private struct Read: Sendable {
    var before: Int
    var after: Int
    var record: Data?
  }

  /// Orders the racing tasks' reads.
  private final class Ticks: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func tick() -> Int {
      lock.withLock {
        value += 1
        return value
      }
    }
  }

  /// Bytes of the regular files in real (not linked) two-character folders.
  private func ownRecordsSize(_ folder: String) -> Int {
    let manager = FileManager.default
    var total = 0
    for shard in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where shard.count == 2 {
      let path = folder + "/" + shard
      guard (try? manager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeDirectory else {
        continue
      }
      for name in (try? manager.contentsOfDirectory(atPath: path)) ?? [] {
        let attributes = try? manager.attributesOfItem(atPath: path + "/" + name)
        if attributes?[.type] as? FileAttributeType == .typeRegular { total += (attributes?[.size] as? Int) ?? 0 }
      }
    }
    return total
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

  /// Only a folder this user owns and no group or other account may write vouches for its unsigned records
  /// (issue 48: store write access is not push access).
  @Test func onlyAFolderNoOtherAccountCanWriteIsThisUsersOwn() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.child("records")
    #expect(try store(folder).writtenOnlyByThisUser, "not made yet: its parent, this user's, decides")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(chmod(folder, 0o755) == 0)
    #expect(try store(folder).writtenOnlyByThisUser)
    #expect(chmod(folder, 0o777) == 0)
    #expect(try !store(folder).writtenOnlyByThisUser, "anyone may write it")
    #expect(chmod(folder, 0o775) == 0)
    #expect(try !store(folder).writtenOnlyByThisUser, "its group may write it")
    if geteuid() == 0 {
      #expect(chmod(folder, 0o755) == 0)
      #expect(chown(folder, 65534, 65534) == 0)
      #expect(try !store(folder).writtenOnlyByThisUser, "another account's folder")
    }
  }
}
