import Foundation
import TestSupport
import Testing

/// `ripple affected` end to end: real git repositories, real manifests evaluated by SwiftPM, the real binary.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct AffectedCommandTests {
  @Test func sharedPackageEditReachesTestsInEveryPackageThatUsesIt() throws {
    let repo = try ModularFixture.make()
    try repo.append("Packages/Shared/Sources/Model/Model.swift", "public let version = 2\n")
    try repo.commitAll("Model change")
    let (tests, json) = try RippleBinary.affectedTests(["--base", "HEAD~1", "--head", "HEAD"], in: repo.root)
    #expect(
      tests == [
        ".:AppFeatureTests", "Packages/Server:ServerCoreTests", "Packages/Server:ServerIntegrationTests",
        "Packages/Shared:ModelTests", "Packages/Shared:NetTests",
      ])
    #expect(json["schemaVersion"] as? Int == 1)
    #expect(json["runAll"] as? Bool == false)
    let changed = try #require(json["changedFiles"] as? [[String: Any]])
    #expect(changed.map { $0["path"] as? String } == ["Packages/Shared/Sources/Model/Model.swift"])
    for target in try #require(json["testTargets"] as? [[String: Any]]) {
      #expect(!((target["reasons"] as? [String]) ?? []).isEmpty, "every selected target has reasons")
    }
  }

  @Test func workingTreeIncludesUntrackedFilesAndSnapshotsBelongToTheirTarget() throws {
    let repo = try ModularFixture.make()
    try repo.write("Sources/AppCore/New Folder/Naïve file.swift", "enum N {}\n")
    try repo.write("Tests/AppFeatureTests/__Snapshots__/screen.txt", "snapshot v2\n")
    let (tests, json) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(tests == [".:AppCoreTests", ".:AppFeatureTests"])
    #expect(json["head"] as? String == "worktree")
  }

  @Test func commentOnlyManifestEditSelectsNothing() throws {
    let repo = try ModularFixture.make()
    try repo.write(
      "Package.swift",
      ModularFixture.rootManifest.replacingOccurrences(of: "let package", with: "// a comment\nlet package"))
    let (tests, json) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(tests.isEmpty)
    #expect(json["runAll"] as? Bool == false)
  }

  @Test func dependencyAddedToOneTargetSelectsItAndItsDependents() throws {
    let repo = try ModularFixture.make()
    try repo.write(
      "Package.swift",
      ModularFixture.rootManifest.replacingOccurrences(
        of: #".target(name: "AppCore", dependencies: [.product(name: "Remote", package: "remote")])"#,
        with: #".target(name: "AppCore", dependencies: [.product(name: "Remote", package: "remote"), "TestSupport"])"#))
    let (tests, _) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(tests == [".:AppCoreTests", ".:AppFeatureTests"])
  }

  @Test func ignoredGlobalAndUnownedFiles() throws {
    let repo = try ModularFixture.make()
    try repo.append("README.md", "more\n")
    #expect(try RippleBinary.affectedTests([], in: repo.root).tests.isEmpty)

    try repo.append("Makefile", "# tweak\n")
    let (all, json) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(all.count == 6, "every test target of every package, TEST_SERVER ones included: \(all)")
    #expect(json["runAll"] as? Bool == true)
    #expect((json["runAllReasons"] as? [String])?.contains { $0.contains("Makefile") } == true)

    try repo.git("checkout", "--", "Makefile")
    try repo.write("scripts/tool.sh", "echo\n")
    let unowned = try RippleBinary.run(["affected", "--format", "json"], in: repo.root)
    #expect(unowned.status == 0)
    #expect(unowned.standardError.contains("scripts/tool.sh"), "the warning names the unowned file")
    let unownedJSON = try JSONSerialization.jsonObject(with: Data(unowned.standardOutput.utf8)) as? [String: Any]
    #expect(unownedJSON?["runAll"] as? Bool == true)

    try repo.append("ripple.yml", "  unowned: ignore\n")
    try repo.commitAll("config")
    try repo.write("scripts/other.sh", "echo\n")
    #expect(try RippleBinary.affectedTests(["--base", "HEAD"], in: repo.root).tests.isEmpty)
  }

  @Test func resolvedPinBumpSelectsTheTargetsUsingThatPackage() throws {
    let repo = try ModularFixture.make()
    try repo.write("Package.resolved", Self.resolved(version: "1.0.0", revision: "aaaa"))
    try repo.commitAll("pin")
    try repo.write("Package.resolved", Self.resolved(version: "1.1.0", revision: "bbbb"))
    let (tests, _) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(tests == [".:AppCoreTests", ".:AppFeatureTests"])
  }

  static func resolved(version: String, revision: String) -> String {
    """
    {
      "originHash" : "x",
      "pins" : [
        {
          "identity" : "remote",
          "kind" : "remoteSourceControl",
          "location" : "https://example.invalid/nowhere/remote.git",
          "state" : { "revision" : "\(revision)", "version" : "\(version)" }
        }
      ],
      "version" : 3
    }
    """
  }

  @Test func failingManifestIsAnErrorOrEverythingWithFallback() throws {
    let repo = try ModularFixture.make()
    try repo.write("Packages/Server/Package.swift", ModularFixture.serverManifest + "this is not swift\n")
    let failed = try RippleBinary.run(["affected"], in: repo.root)
    #expect(failed.status != 0)
    #expect(failed.standardError.contains("Packages/Server"), "names the package: \(failed.standardError)")

    let fallback = try RippleBinary.run(["affected", "--fallback", "all", "--format", "json"], in: repo.root)
    #expect(fallback.status == 0, "\(fallback.standardError)")
    let json = try JSONSerialization.jsonObject(with: Data(fallback.standardOutput.utf8)) as? [String: Any]
    #expect(json?["runAll"] as? Bool == true)
  }

  @Test func explainShowsTheChainToATarget() throws {
    let repo = try ModularFixture.make()
    try repo.append("Packages/Shared/Sources/Model/Model.swift", "// edit\n")
    let result = try RippleBinary.run(["affected", "--explain", "AppFeatureTests"], in: repo.root)
    #expect(result.status == 0, "\(result.standardError)")
    for hop in ["Model.swift", "Net", "AppFeature", "AppFeatureTests"] {
      #expect(result.standardOutput.contains(hop), "\(hop) in \(result.standardOutput)")
    }
    // A typo gets the closest name; a target no change reaches says so (issue 43).
    let typo = try RippleBinary.run(["affected", "--explain", "AppFeatureTest"], in: repo.root)
    #expect(typo.status == 2 && typo.standardError.contains("did you mean `AppFeatureTests`?"), "\(typo.standardError)")
    let untouched = try RippleBinary.run(["affected", "--explain", "AppCoreTests"], in: repo.root)
    #expect(untouched.status == 2)
    #expect(untouched.standardError.contains("`AppCoreTests` is not affected: no changed file reaches it"))
  }

  @Test func machineFormats() throws {
    let repo = try ModularFixture.make()
    try repo.append("Sources/AppCore/AppCore.swift", "// edit\n")
    let names = try RippleBinary.run(["affected", "--format", "names"], in: repo.root)
    #expect(names.standardOutput == "AppCoreTests\nAppFeatureTests\n")
    let filter = try RippleBinary.run(["affected", "--format", "filter"], in: repo.root)
    #expect(filter.standardOutput == "^(AppCoreTests|AppFeatureTests)\\.\n")
    let outputFile = repo.root + "/gh-output"
    FileManager.default.createFile(atPath: outputFile, contents: Data())
    let github = try RippleBinary.run(
      ["affected", "--format", "github"], in: repo.root, environment: ["GITHUB_OUTPUT": outputFile])
    #expect(github.status == 0)
    #expect(try String(contentsOfFile: outputFile, encoding: .utf8).contains("AppCoreTests"))
    let matrix = try RippleBinary.run(["affected", "--format", "matrix", "--shards", "2"], in: repo.root)
    let include =
      (try JSONSerialization.jsonObject(with: Data(matrix.standardOutput.utf8)) as? [String: Any])?["include"]
      as? [[String: Any]]
    #expect(include?.count == 2)
  }

  /// Issue 38: plugins sharing code through a symbolic link to a sibling folder. SwiftPM compiles what the link
  /// reaches as the target's sources, so a change there selects that target and its tests, not every test: in
  /// the working tree and between commits (where git stores the link as a blob of mode 120000). Links out of
  /// the repository or in a cycle are warnings, not a crash or a hang.
  @Test func aFileReachedThroughASymlinkedFolderBelongsToTheTargetsLinkingIt() throws {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "Plugins",
        targets: [
          .target(name: "PluginA"), .target(name: "PluginB"),
          .testTarget(name: "PluginATests", dependencies: ["PluginA"]),
          .testTarget(name: "PluginBTests", dependencies: ["PluginB"]),
        ]
      )

      """)
    try repo.write("Sources/PluginA/A.swift", "public let a = shared\n")
    try repo.write("Sources/PluginB/B.swift", "public let b = 2\n")
    try repo.write("Tests/PluginATests/ATests.swift", "import Testing\n@Test func a() {}\n")
    try repo.write("Tests/PluginBTests/BTests.swift", "import Testing\n@Test func b() {}\n")
    try repo.write("Shared/X.swift", "let shared = 1\n")
    try repo.symlink("Sources/PluginA/Shared", to: "../../Shared")
    try repo.symlink("Sources/PluginB/Outside", to: "/usr/share")
    try repo.symlink("Sources/PluginB/Loop", to: "Loop")
    try repo.commitAll("Initial import")

    try repo.append("Shared/X.swift", "let more = 2\n")
    let worktree = try RippleBinary.affectedTests([], in: repo.root)
    try repo.commitAll("Shared change")
    let commits = try RippleBinary.affectedTests(["--base", "HEAD~1", "--head", "HEAD"], in: repo.root)
    for (side, result) in [("worktree", worktree), ("commits", commits)] {
      #expect(result.tests == [".:PluginATests"], "\(side)")
      #expect(result.json["runAll"] as? Bool == false, "\(side): \(result.json)")
      let targets = try #require(result.json["targets"] as? [[String: Any]])
      let pluginA = try #require(targets.first { $0["name"] as? String == "PluginA" })
      #expect(
        pluginA["reasons"] as? [String] == ["changed Shared/X.swift (through Sources/PluginA/Shared)"], "\(side)")
      let warnings = (result.json["warnings"] as? [String]) ?? []
      #expect(
        warnings.contains {
          $0.hasPrefix(
            "the symbolic link Sources/PluginB/Outside (→ /usr/share) in PluginB leads out of the repository")
        }, "\(side): \(warnings)")
      #expect(
        warnings.contains {
          $0.hasPrefix("the symbolic link Sources/PluginB/Loop (→ Loop) in PluginB does not resolve within 40 links")
        }, "\(side): \(warnings)")
    }
  }
}
