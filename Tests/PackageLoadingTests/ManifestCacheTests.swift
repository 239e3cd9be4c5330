import Foundation
import PackageModel
import Testing

@testable import PackageLoading

@Suite struct ManifestCacheTests {
  @Test func defaultDirectory() {
    #expect(
      ManifestCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/me"])
        == "/x/cache/ripple/manifests")
    #if os(macOS)
      #expect(
        ManifestCache.defaultDirectory(environment: ["HOME": "/Users/me"])
          == "/Users/me/Library/Caches/ripple/manifests")
    #else
      #expect(ManifestCache.defaultDirectory(environment: ["HOME": "/home/me"]) == "/home/me/.cache/ripple/manifests")
    #endif
  }

  @Test func keyCoversEveryInput() {
    func key(
      manifest: String = "m", file: String = "Package.swift", path: String = ".", rootName: String = "repo",
      environment: [String: String?] = [:], toolchain: String = "6.3.1"
    ) -> String {
      ManifestCache.key(
        manifest: Array(manifest.utf8), manifestFile: file, packagePath: path, rootName: rootName,
        environment: environment, toolchain: toolchain)
    }
    let keys = [
      key(), key(manifest: "m2"), key(file: "Package@swift-6.swift"), key(path: "Sub"), key(rootName: "repo-123"),
      key(environment: ["TEST_SERVER": "1"]), key(environment: ["TEST_SERVER": String?.none]), key(toolchain: "6.2"),
    ]
    #expect(Set(keys).count == keys.count)
    #expect(key(environment: ["A": "1", "B": "2"]) == key(environment: ["B": "2", "A": "1"]))
  }

  @Test func storesAndDetectsCorruptEntries() async throws {
    try await withTemporaryDirectory { directory in
      let cache = ManifestCache(directory: directory + "/manifests")
      #expect(cache.entry(forKey: "k") == nil)
      cache.store(Array(#"{"name":"App"}"#.utf8), forKey: "k")
      #expect(cache.entry(forKey: "k") == Array(#"{"name":"App"}"#.utf8))

      let path = try #require(cache.path(forKey: "k"))
      let stored = try Data(contentsOf: URL(fileURLWithPath: path))
      try stored.dropLast(3).write(to: URL(fileURLWithPath: path))
      #expect(cache.entry(forKey: "k") == nil, "truncated")
      try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
      #expect(cache.entry(forKey: "k") == nil, "no header")

      let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory + "/manifests")
      #expect(leftovers == ["k.json"], "no temporary files left behind")
    }
  }

  @Test func noDirectoryMeansNoCache() {
    let cache = ManifestCache(directory: nil)
    cache.store([1, 2, 3], forKey: "k")
    #expect(cache.entry(forKey: "k") == nil)
  }
}
