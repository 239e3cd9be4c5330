import Affected
import Foundation
import Git
import PackageModel
import PassRecords
import RippleConfig
import RippleCore
import TestSupport
import Testing

@testable import RippleKit

/// No false hit from the faster path (issue 50): the keys' files found by reading only the closures' folders
/// and digesting trees by id equal those of a scan of every file of the state (`ContentKeys.attribute`, with
/// git's own `ls-tree` and `hash-object` standing for the index), on a repository with excludes, nested
/// targets and packages, links into other folders, `selection.inputs`, `generate:` inputs, global and
/// ignored files and untracked files, through a run of edits and commits.
@Suite struct KeyDifferentialTests {
  static let graph = PackageGraph(packages: [
    Package(
      path: ".", name: "App", packageFingerprint: "",
      targets: [
        Target(name: "Core", kind: .library, directory: "Sources/Core", excludedPaths: ["Sources/Core/Skip"]),
        Target(name: "Inner", kind: .library, directory: "Sources/Core/Inner"),
        Target(
          name: "Net", kind: .library, directory: "Sources/Net",
          dependencies: [.target("Core")],
          linkedPaths: [LinkedPath(path: "Shared/NetExtras", link: "Sources/Net/Extras")]),
        Target(name: "Api", kind: .library, directory: "Sources/Api", dependencies: [.target("Net")]),
        Target(name: "CoreTests", kind: .test, directory: "Tests/CoreTests", dependencies: [.target("Core")]),
        Target(name: "NetTests", kind: .test, directory: "Tests/NetTests", dependencies: [.target("Net")]),
        Target(
          name: "ApiTests", kind: .test, directory: "Tests/ApiTests", dependencies: [.target("Api"), .target("Inner")]),
      ]),
    Package(
      path: "Packages/Util", name: "Util", packageFingerprint: "",
      targets: [Target(name: "Util", kind: .library, directory: "Packages/Util/Sources/Util")]),
  ])

  static let selection = SelectionConfig(
    ignore: [Glob("**/*.md")], global: [Glob("Global/**")], unowned: .all,
    inputs: ["ApiTests": [Glob("Fixtures/api/**")]])

  static var assets: AssetsConfig {
    AssetsConfig(generate: [
      GenerateSpec(id: "words", command: ["gzip"], inputs: [Glob("Bootstrap/*.txt")], destination: "Sources/Core/Words")
    ])
  }

  static let tests = ["CoreTests", "NetTests", "ApiTests"].map { TargetRef(package: ".", name: $0) }

  func attribution() -> KeyAttribution {
    KeyAttribution(graph: Self.graph, selection: Self.selection, assets: Self.assets, configPath: "ripple.yml")
  }

  /// Every file on disk (links not followed, `.git` skipped), as `mode:id`, by git's own hash-object.
  func scanDisk(_ repo: GitFixture) throws -> [String: String] {
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: repo.root)!
    var pending: [String] = []
    while let path = enumerator.nextObject() as? String {
      if path == ".git" || path.hasPrefix(".git/") {
        enumerator.skipDescendants()
        continue
      }
      var status = stat()
      guard lstat(repo.path(path), &status) == 0 else { continue }
      switch status.st_mode & S_IFMT {
      case S_IFLNK:
        let text = try FileManager.default.destinationOfSymbolicLink(atPath: repo.path(path))
        files[path] = "120000:" + GitBlobID.of(Array(text.utf8))
      case S_IFREG:
        pending.append(path)
        files[path] = status.st_mode & 0o100 != 0 ? "100755:" : "100644:"
      default:
        continue
      }
    }
    let ids = try repo.git(["hash-object", "--no-filters"] + pending).split(separator: "\n")
    for (path, id) in zip(pending, ids) { files[path]! += id }
    return files
  }

  /// HEAD's files as `ls-tree` lists them.
  func scanHead(_ repo: GitFixture) throws -> [String: String] {
    var files: [String: String] = [:]
    for line in try repo.git("ls-tree", "-r", "-z", "HEAD").split(separator: "\0") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      let fields = parts[0].split(separator: " ")
      files[String(parts[1])] = "\(fields[0]):\(fields[2])"
    }
    return files
  }

  func compare(_ repo: GitFixture, cache: String, _ step: String) throws {
    let attribution = attribution()
    let closure = ContentKeys.closure(of: Self.tests, in: Self.graph)
    let disk = KeyInputsOnDisk(
      root: repo.root, repository: try GitRepository.discover(from: repo.root), cacheFolder: cache,
      attribution: attribution)
    let fast = disk.targetFiles(of: closure, in: Self.graph)
    let everyone = try disk.everyone(edited: [])
    let scanned = ContentKeys.attribute(try scanDisk(repo), closure: closure, by: attribution)
    let committed = ContentKeys.attribute(try scanHead(repo), closure: closure, by: attribution)
    #expect(fast.unkeyable.isEmpty, "\(step): \(fast.unkeyable)")
    for target in closure.sorted(by: { $0.description < $1.description }) {
      let found = fast.files[target] ?? [:]
      let expected = scanned.targetFiles[target] ?? [:]
      #expect(found == expected, "\(step): \(target) has \(found.keys.sorted()), the scan \(expected.keys.sorted())")
      // The digest the walk gives (made, or taken from its stat cache's section) is the scan's files' digest.
      #expect(fast.digests[target] == FolderDigest.of(expected), "\(step): \(target)'s files digest")
    }
    #expect(everyone == committed.everyone, "\(step): every key's files")
    // And so the keys themselves.
    let context = { (files: [TargetRef: [String: String]], digests: [TargetRef: String], everyone: KeyInputs) in
      ContentKeys.Context(
        targetFiles: files, fileDigests: digests, everyone: everyone, assets: Self.assets, common: KeyInputs())
    }
    let keys = ContentKeys.keys(for: Self.tests, in: Self.graph, context: context(fast.files, fast.digests, everyone))
    let reference = ContentKeys.keys(
      for: Self.tests, in: Self.graph, context: context(scanned.targetFiles, [:], committed.everyone))
    #expect(keys == reference, "\(step): keys")
  }

  @Test func theClosuresFoldersAndTreeDigestsGiveTheKeysOfAScanOfEveryFile() throws {
    let repo = try GitFixture()
    let files = [
      "Package.swift", "Packages/Util/Package.swift", "Sources/Core/Core.swift", "Sources/Core/Skip/Excluded.txt",
      "Sources/Core/Inner/Inner.swift", "Sources/Core/Words/.keep", "Sources/Net/Net.swift", "Sources/Api/Api.swift",
      "Shared/NetExtras/Extra.swift", "Shared/Other/Unowned.swift", "Tests/CoreTests/CoreTests.swift",
      "Tests/NetTests/NetTests.swift", "Tests/ApiTests/ApiTests.swift", "Fixtures/api/one.json",
      "Fixtures/other/two.json", "Bootstrap/words.txt", "Global/tool.yml", "README.md", "Sources/Core/Notes.md",
      "Packages/Util/Sources/Util/Util.swift", "scripts/run.sh", "ripple.yml",
    ]
    for (index, path) in files.enumerated() { try repo.write(path, "// \(index)\n") }
    try repo.symlink("Sources/Net/Extras", to: "../../Shared/NetExtras")
    try repo.write(".gitignore", "Sources/Core/Generated/\n")
    _ = try repo.commitAll("initial")
    let cache = try TemporaryDirectory()
    try compare(repo, cache: cache.path, "initial")

    // Untracked and ignored files in closure folders, an executable bit, an edit through the link.
    try repo.write("Sources/Core/Generated/Gen.swift", "let generated = 1\n")
    try repo.write("Tests/NetTests/New.swift", "// new\n")
    try repo.makeExecutable("Sources/Api/Api.swift")
    try repo.write("Shared/NetExtras/Extra.swift", "// edited through the link\n")
    try compare(repo, cache: cache.path, "edited")

    // Committed: the trees changed along some folders, the cache holds the others.
    try repo.write("scripts/run.sh", "# changed\n")
    try repo.write("Global/tool.yml", "changed: true\n")
    try repo.remove("Sources/Core/Skip/Excluded.txt")
    _ = try repo.commitAll("second")
    try compare(repo, cache: cache.path, "second")

    try repo.write("Shared/Other/More/Deep.swift", "// unowned, deeper\n")
    try repo.write("Fixtures/api/three.json", "{}\n")
    _ = try repo.commitAll("third")
    try compare(repo, cache: cache.path, "third")
    // With no cache at all: the same.
    let empty = try TemporaryDirectory()
    try compare(repo, cache: empty.path, "third, cold")
  }
}
