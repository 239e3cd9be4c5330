import Foundation
import TestSupport
import Testing

/// `ripple cache key|path|stats|prune` (docs/DESIGN.md, section 7).
@Suite(.serialized, .exclusive(.cooperativeThread)) struct CacheCommandTests {
  static func key(_ repo: TestRepository, _ extra: [String] = []) throws -> String {
    let result = try RippleBinary.run(["cache", "key"] + extra, in: repo.root)
    guard result.status == 0 else { throw CommandFailure(argv: ["ripple", "cache", "key"] + extra, result: result) }
    return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func theKeyFollowsManifestsEnvironmentsAndNothingElse() throws {
    let repo = try ModularFixture.make()
    let first = try Self.key(repo)
    #expect(first.hasPrefix("ripple-manifests-1-"))
    #expect(try Self.key(repo) == first, "stable")
    let prefix = try Self.key(repo, ["--restore-prefix"])
    #expect(first.hasPrefix(prefix) && first != prefix)

    try repo.append("Sources/AppCore/AppCore.swift", "// a source edit\n")
    try repo.append("README.md", "docs\n")
    #expect(try Self.key(repo) == first, "sources do not change evaluated manifests")

    try repo.append("Packages/Server/Package.swift", "// a comment is still other bytes\n")
    let edited = try Self.key(repo)
    #expect(edited != first)
    #expect(edited.hasPrefix(prefix), "same toolchain, same prefix")

    try repo.write("Packages/Server/Package@swift-6.0.swift", ModularFixture.serverManifest)
    let versioned = try Self.key(repo)
    #expect(versioned != edited, "every manifest of a package counts")

    try repo.write(
      "ripple.yml", ModularFixture.config.replacingOccurrences(of: "TEST_SERVER: \"1\"", with: "TEST_SERVER: \"2\""))
    let environments = try Self.key(repo)
    #expect(environments != versioned, "the manifest environments count")

    try repo.write("ripple.yml", ModularFixture.config + "  toolchains: [\"6.0\", \"6.3\"]\n")
    let matrix = try Self.key(repo)
    #expect(matrix != environments && matrix.hasPrefix(prefix), "the listed toolchains count")
  }

  @Test func aCloneElsewhereWithTheSameFolderNameHasTheSameKey() throws {
    let origin = try ModularFixture.make()
    let clone = try TestRepository(folderName: "checkout")
    let other = try TestRepository(folderName: "checkout")
    for target in [clone, other] {
      // The checkout replaces the empty repository `TestRepository` made, keeping its folder name.
      try FileManager.default.removeItem(atPath: target.root)
      try run(["/usr/bin/git", "clone", "-q", origin.root, target.root])
    }
    #expect(try Self.key(clone) == Self.key(other), "a key for any CI machine")
    let json = try RippleBinary.run(["cache", "key", "--format", "json"], in: clone.root)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: String])
    #expect(object["key"] == (try Self.key(clone)))
    #expect(object["packages"] == "3")
    #expect(object["manifests"] == "3")
  }

  @Test func pathStatsAndPruneWorkOnTheCacheAffectedUses() throws {
    let repo = try ModularFixture.make()
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-cache-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: cache) }
    let environment = ["RIPPLE_CACHE_DIR": cache]
    let path = try RippleBinary.run(["cache", "path"], in: repo.root, environment: environment)
    #expect(path.standardOutput == cache + "/manifests\n")

    let empty = try RippleBinary.run(["cache", "stats", "--format", "json"], in: repo.root, environment: environment)
    #expect(empty.status == 0, "a cache not yet created is empty: \(empty.standardError)")
    let emptyObject = try JSONSerialization.jsonObject(with: Data(empty.standardOutput.utf8)) as? [String: Any]
    #expect(emptyObject?["files"] as? Int == 0, "\(empty.standardOutput)")
    #expect(emptyObject?["path"] as? String == cache + "/manifests")

    try repo.append("Sources/AppCore/AppCore.swift", "// edit\n")
    let affected = try RippleBinary.run(["affected"], in: repo.root, environment: environment)
    #expect(affected.status == 0, "\(affected.standardError)")
    let stats = try RippleBinary.run(["cache", "stats", "--format", "json"], in: repo.root, environment: environment)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])
    let files = try #require(object["files"] as? Int)
    #expect(files >= 6, "3 packages x 2 environments evaluated and stored: \(stats.standardOutput)")
    #expect((object["bytes"] as? Int ?? 0) > 0)

    let young = try RippleBinary.run(["cache", "prune", "--older-than", "1d"], in: repo.root, environment: environment)
    #expect(young.status == 0)
    #expect(young.standardOutput.hasPrefix("removed 0 files"), "\(young.standardOutput)")
    let all = try RippleBinary.run(["cache", "prune", "--all"], in: repo.root, environment: environment)
    #expect(all.standardOutput.hasPrefix("removed \(files) files"), "\(all.standardOutput)")
    let after = try RippleBinary.run(["cache", "stats"], in: repo.root, environment: environment)
    #expect(after.standardOutput.contains("files: 0"), "\(after.standardOutput)")
  }

  @Test(arguments: [
    ["cache", "prune", "--older-than", "soon"], ["cache", "prune", "--all", "--older-than", "1d"],
    ["cache", "key", "--restore-prefix", "--format", "json"], ["cache", "nonsense"],
  ])
  func badCacheOptionsAreUsageErrors(arguments: [String]) throws {
    let repo = try ModularFixture.make()
    let result = try RippleBinary.run(arguments, in: repo.root)
    #expect(result.status == 2, "\(arguments): \(result.standardOutput) \(result.standardError)")
  }
}
