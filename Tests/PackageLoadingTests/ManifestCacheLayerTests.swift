import Foundation
import PackageModel
import Testing

@testable import PackageLoading

/// rippled's runs of unprotected branches write their own layer and read it over the shared one.
@Suite struct ManifestCacheLayerTests {
  @Test func anOverlayReadsTheSharedLayerAndWritesOnlyItsOwn() async throws {
    try await withTemporaryDirectory { directory in
      let shared = ManifestCache(directory: directory + "/manifests")
      let branch = ManifestCache(directory: directory + "/manifests", overlay: directory + "/branches/feature-x")
      let tree = String(repeating: "a", count: 40)
      let mainManifests = [ManifestFile(path: "Package.swift", blobID: String(repeating: "1", count: 40))]
      shared.store(Array(#"{"name":"Main"}"#.utf8), forKey: "k")
      shared.storeManifests(mainManifests, ofTree: tree)
      let graph = PackageGraph(packages: [])
      shared.storeGraph(graph, forKey: "g")

      // The branch sees what the shared layer has.
      #expect(branch.entry(forKey: "k") == Array(#"{"name":"Main"}"#.utf8))
      #expect(branch.manifests(ofTree: tree) == mainManifests)
      #expect(branch.graph(forKey: "g") != nil)

      // Its writes, even for the same keys, land in its own layer; the shared one is unchanged.
      let sharedFiles = try Self.contents(of: directory + "/manifests")
      branch.store(Array(#"{"name":"Branch"}"#.utf8), forKey: "k")
      branch.storeManifests([], ofTree: tree)
      branch.storeGraph(graph, forKey: "g2")
      #expect(try Self.contents(of: directory + "/manifests") == sharedFiles)
      #expect(shared.entry(forKey: "k") == Array(#"{"name":"Main"}"#.utf8))
      #expect(shared.manifests(ofTree: tree) == mainManifests)
      #expect(shared.graph(forKey: "g2") == nil)
      // The branch reads its own layer first.
      #expect(branch.entry(forKey: "k") == Array(#"{"name":"Branch"}"#.utf8))
      #expect(branch.manifests(ofTree: tree) == [])
      #expect(branch.path(forKey: "k") == directory + "/branches/feature-x/k.json")
    }
  }

  @Test func aCorruptOverlayEntryFallsBackToTheSharedOne() async throws {
    try await withTemporaryDirectory { directory in
      let shared = ManifestCache(directory: directory + "/manifests")
      let branch = ManifestCache(directory: directory + "/manifests", overlay: directory + "/branch")
      shared.store(Array("shared".utf8), forKey: "k")
      branch.store(Array("mine".utf8), forKey: "k")
      try Data("ripple-manifest-cache-3 0000\nmine".utf8).write(
        to: URL(fileURLWithPath: try #require(branch.path(forKey: "k"))))
      #expect(branch.entry(forKey: "k") == Array("shared".utf8))
    }
  }

  static func contents(of folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
      result[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return result
  }
}
