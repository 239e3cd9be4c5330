import Foundation
import TestSupport
import Testing

@testable import RippleKit

/// `ripple cache prune` reaches the caches pass-record keys keep beside the manifests, and a read marks a cache file
/// used, so one every run reads is never pruned for its age.
@Suite struct KeyCachePruneTests {
  static func setModified(_ path: String, _ date: Date) throws {
    try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
  }

  static func modified(_ path: String) throws -> Date {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
  }

  @Test func pruneRemovesUnusedKeyCachesAndManifestsButNotWhatARunRead() throws {
    let cache = try TemporaryDirectory()
    let now = Date()
    let services = RippleServices(process: .failing, environment: ["RIPPLE_CACHE_DIR": cache.path])
    #expect(
      CacheJob.keyCacheDirectories(services: services) == [cache.path + "/blob-ids", cache.path + "/tree-digests"])
    let read = cache.path + "/blob-ids/read.tsv"
    let unread = cache.path + "/tree-digests/unread.tsv"
    let recent = cache.path + "/tree-digests/recent.roots"
    for file in [read, unread, recent] { CheckedCacheFile.write(file, format: "test-format-1", lines: ["a\tb"]) }
    let manifest = cache.path + "/manifests/old.json"
    try FileManager.default.createDirectory(atPath: cache.path + "/manifests", withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: URL(fileURLWithPath: manifest))
    for file in [read, unread, manifest] { try Self.setModified(file, now - 40 * 86400) }
    let hoursAgo = now - 2 * 3600
    try Self.setModified(recent, hoursAgo)

    // A run reads one stale file (marked used) and one read within the day (left as it is: no write per read).
    #expect(CheckedCacheFile.lines(read, format: "test-format-1")?.count == 1)
    #expect(abs(try Self.modified(read).timeIntervalSince(now)) < 60)
    #expect(CheckedCacheFile.lines(recent, format: "test-format-1") != nil)
    #expect(abs(try Self.modified(recent).timeIntervalSince(hoursAgo)) < 1)
    // A file that is not the format's whole is not marked.
    #expect(CheckedCacheFile.lines(unread, format: "another-format-1") == nil)
    #expect(try Self.modified(unread) < now - 30 * 86400)

    let removed = try CacheJob.prune(olderThan: 30 * 86400, services: services, now: now)
    #expect(removed.files == 2, "the unread digests and the old manifest")
    #expect(!FileManager.default.fileExists(atPath: unread) && !FileManager.default.fileExists(atPath: manifest))
    #expect(FileManager.default.fileExists(atPath: read) && FileManager.default.fileExists(atPath: recent))
    #expect(try CacheJob.prune(olderThan: nil, services: services, now: now).files == 2)
  }

  @Test func withoutRippleCacheDirTheKeyCachesAreBesideTheDefaultManifests() {
    let services = RippleServices(process: .failing, environment: ["XDG_CACHE_HOME": "/srv/cache"])
    #expect(
      CacheJob.keyCacheDirectories(services: services) == [
        "/srv/cache/ripple/blob-ids", "/srv/cache/ripple/tree-digests",
      ])
  }
}
