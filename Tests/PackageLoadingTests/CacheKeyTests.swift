import Foundation
import PackageLoading
import RippleCore
import Testing

/// `ManifestCacheKey` (docs/DESIGN.md, section 7): what the key covers, built from trees in memory.
@Suite struct CacheKeyTests {
  static func tree(_ files: [String: String], rootName: String = "repo") -> TreeSnapshot {
    TreeSnapshot(label: "test", rootName: rootName, files: files.keys.sorted(), workingDirectoryRoot: nil) { path in
      files[path].map { Array($0.utf8) }
    }
  }

  static let files = [
    "Package.swift": "// root\n", "Sources/App/App.swift": "enum App {}\n",
    "Packages/Core/Package.swift": "// core\n", "Packages/Core/Package@swift-6.0.swift": "// core 6\n",
    "Vendor/.build/x/Package.swift": "// never a package\n",
  ]

  static func key(
    _ files: [String: String] = files, environments: [[String: String]] = [[:]], exclude: [Glob] = [],
    toolchain: String = "Swift version 6.3.1\nTarget: x86_64-unknown-linux-gnu", rootName: String = "repo",
    toolchains: [String] = []
  ) throws -> ManifestCacheKey {
    try ManifestCacheKey.make(
      tree: tree(files, rootName: rootName), environments: environments, excludePackages: exclude,
      toolchains: toolchains, toolchain: toolchain)
  }

  @Test func coversTheListedToolchainsInOrder() throws {
    let base = try Self.key()
    let matrix = try Self.key(toolchains: ["6.0", "6.1"])
    #expect(matrix.key != base.key)
    #expect(matrix.restorePrefix == base.restorePrefix, "the entries of the installed toolchain still apply")
    #expect(try Self.key(toolchains: ["6.1", "6.0"]).key != matrix.key)
    #expect(try Self.key(toolchains: ["6.0", "6.1"]).key == matrix.key)
  }

  @Test func coversEveryManifestOfEveryPackageAndNothingElse() throws {
    let base = try Self.key()
    #expect(base.packageCount == 2)
    #expect(base.manifestCount == 3, "both manifests of Core count, the one under .build does not")
    #expect(try Self.key() == base)
    #expect(base.key.hasPrefix(base.restorePrefix) && base.key.count == base.restorePrefix.count + 64)

    var edited = Self.files
    edited["Sources/App/App.swift"] = "enum App { case changed }\n"
    edited["Vendor/.build/x/Package.swift"] = "// still not a package\n"
    #expect(try Self.key(edited).key == base.key)

    edited["Packages/Core/Package@swift-6.0.swift"] = "// core 6, edited\n"
    let versioned = try Self.key(edited)
    #expect(versioned.key != base.key)
    #expect(versioned.restorePrefix == base.restorePrefix)
  }

  @Test func coversTheEnvironmentsTheToolchainAndTheFolderName() throws {
    let base = try Self.key().key
    #expect(try Self.key(environments: []).key == base, "no entry means one empty environment")
    #expect(try Self.key(environments: [[:], ["TEST_SERVER": "1"]]).key != base)
    #expect(
      try Self.key(environments: [["A": "1", "B": "2"]]).key == Self.key(environments: [["B": "2", "A": "1"]]).key)
    #expect(try Self.key(environments: [["A": "12"]]).key != Self.key(environments: [["A1": "2"]]).key)
    let other = try Self.key(toolchain: "Swift version 6.2\nTarget: x86_64-unknown-linux-gnu")
    let prefix = try Self.key().restorePrefix
    #expect(other.key != base && !other.key.hasPrefix(prefix), "another toolchain restores nothing")
    #expect(try Self.key(rootName: "other-checkout").key != base)
  }

  @Test func excludedPackagesDoNotCount() throws {
    var edited = Self.files
    edited["Packages/Core/Package.swift"] = "// core, edited\n"
    let exclude = [Glob("Packages/Core")]
    #expect(try Self.key(exclude: exclude).key == Self.key(edited, exclude: exclude).key)
    #expect(try Self.key(exclude: exclude).packageCount == 1)
  }
}

@Suite struct CacheDirectoryUsageTests {
  @Test func measuresAndPrunesEveryFileByAge() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-cache-usage-\(UUID().uuidString)")
      .path
    defer { try? FileManager.default.removeItem(atPath: root) }
    #expect(try CacheDirectoryUsage.measure(root + "/missing") == CacheDirectoryUsage(), "missing is empty")
    try FileManager.default.createDirectory(atPath: root + "/nested", withIntermediateDirectories: true)
    let now = Date()
    for (name, size, age) in [("old.json", 10, 40 * 86400.0), ("nested/new.json", 5, 60.0), (".tmp-x", 3, 2 * 86400.0)]
    {
      let path = root + "/" + name
      try Data(repeating: 1, count: size).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes([.modificationDate: now - age], ofItemAtPath: path)
    }
    let usage = try CacheDirectoryUsage.measure(root)
    #expect(usage.files == 3 && usage.bytes == 18)
    #expect(abs((usage.oldest ?? now).timeIntervalSince(now - 40 * 86400)) < 1)

    let removed = try CacheDirectoryUsage.prune(root, writtenBefore: now - 86400)
    #expect(removed.files == 2 && removed.bytes == 13)
    #expect(FileManager.default.fileExists(atPath: root + "/nested/new.json"))
    #expect(try CacheDirectoryUsage.prune(root, writtenBefore: nil).files == 1)
    #expect(try CacheDirectoryUsage.measure(root).files == 0)
  }

  @Test func aFileWhereTheDirectoryShouldBeIsAnError() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-cache-file-\(UUID().uuidString)")
      .path
    try Data().write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: CacheDirectoryError.notADirectory(path: path)) { try CacheDirectoryUsage.measure(path) }
  }
}
