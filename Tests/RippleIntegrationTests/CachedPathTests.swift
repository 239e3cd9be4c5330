import Foundation
import TestSupport
import Testing

/// The warm path (issue 11): discovery cached per git tree, manifests keyed by blob id, one cached graph
/// per side. Each test checks the answer of a warm run against a run with an empty cache, and counts the
/// `dump-package` processes through a stand-in `swift` that logs its arguments.
@Suite("cached paths: tree discovery, blob-keyed manifests, cached graphs", .serialized, .exclusive(.cooperativeThread))
struct CachedPathTests {
  /// Two packages: `Packages/Base` (library Base) and `Packages/App` using it by path; and a standalone
  /// `Packages/Tool`.
  static func make() throws -> TestRepository {
    let repo = try TestRepository(folderName: "cached")
    try repo.write("Packages/Base/Package.swift", manifest("Base", targets: ["Base"]))
    try repo.write(
      "Packages/App/Package.swift",
      manifest("App", targets: ["App"], dependency: ("../Base", "Base")))
    try repo.write("Packages/Tool/Package.swift", manifest("Tool", targets: ["Tool"]))
    for (package, target) in [("Base", "Base"), ("App", "App"), ("Tool", "Tool")] {
      try repo.write("Packages/\(package)/Sources/\(target)/\(target).swift", "public enum \(target) {}\n")
      try repo.write("Packages/\(package)/Tests/\(target)Tests/T.swift", "import Testing\n@Test func t() {}\n")
    }
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("Initial import")
    return repo
  }

  static func manifest(_ name: String, targets: [String], dependency: (path: String, package: String)? = nil)
    -> String
  {
    let dependencies = dependency.map { "[.package(path: \"\($0.path)\")]" } ?? "[]"
    let used = dependency.map { ", .product(name: \"\($0.package)\", package: \"\($0.package)\")" } ?? ""
    let entries = targets.map {
      """
          .target(name: "\($0)", dependencies: [\(used.dropFirst(2))]),
          .testTarget(name: "\($0)Tests", dependencies: ["\($0)"]),
      """
    }
    return """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "\(name)",
        products: [\(targets.map { ".library(name: \"\($0)\", targets: [\"\($0)\"])" }.joined(separator: ", "))],
        dependencies: \(dependencies),
        targets: [
      \(entries.joined(separator: "\n"))
        ]
      )

      """
  }

  /// A private cache and a `swift` that logs every call before running the real one.
  final class Probe {
    let directory: String
    var cache: String { directory + "/cache" }
    var log: String { directory + "/swift.log" }
    var swift: String { directory + "/swift" }

    init() throws {
      directory =
        FileManager.default.temporaryDirectory.appendingPathComponent("ripple-cached-\(UUID().uuidString)")
        .path
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      try "#!/bin/sh\necho \"$*\" >> '\(log)'\nexec swift \"$@\"\n".write(
        toFile: swift, atomically: true, encoding: .utf8)
      chmod(swift, 0o755)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The number of `dump-package` runs logged so far, and the log emptied.
    func takeEvaluations() -> Int {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      try? FileManager.default.removeItem(atPath: log)
      return text.split(separator: "\n").filter { $0.contains("dump-package") }.count
    }

    func affected(_ arguments: [String], in repo: TestRepository, cache: String? = nil) throws -> [String: Any] {
      let result = try RippleBinary.run(
        ["affected", "--format", "json"] + arguments, in: repo.root,
        environment: ["RIPPLE_CACHE_DIR": cache ?? self.cache, "RIPPLE_SWIFT": swift])
      guard result.status == 0 else { throw CommandFailure(argv: ["ripple", "affected"] + arguments, result: result) }
      var json = try #require(
        try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
      json["base"] = nil
      json["head"] = nil
      json["mergeBase"] = nil
      return json
    }

    /// The same question with an empty cache: what the answer must be.
    func fresh(_ arguments: [String], in repo: TestRepository) throws -> [String: Any] {
      let empty = directory + "/fresh-\(UUID().uuidString)"
      defer { try? FileManager.default.removeItem(atPath: empty) }
      let answer = try affected(arguments, in: repo, cache: empty)
      _ = takeEvaluations()
      return answer
    }

    func cacheFiles(prefix: String) -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/manifests")) ?? []).filter {
        $0.hasPrefix(prefix)
      }
    }
  }

  static func tests(_ json: [String: Any]) -> [String] {
    ((json["testTargets"] as? [[String: Any]]) ?? []).map { "\($0["package"] ?? "?"):\($0["name"] ?? "?")" }.sorted()
  }

  /// Equal documents: compared as canonical JSON (sorted keys).
  static func same(_ a: [String: Any], _ b: [String: Any]) -> Bool {
    func text(_ value: [String: Any]) -> Data? {
      try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    }
    return text(a) != nil && text(a) == text(b)
  }

  @Test func renamedPackageFolderEvaluatesOnlyThatPackageThenHits() throws {
    let repo = try Self.make()
    let probe = try Probe()
    try repo.append("Packages/Tool/Sources/Tool/Tool.swift", "// edit\n")
    try repo.commitAll("edit")
    _ = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 3, "cold: one evaluation per package")

    try repo.git("mv", "Packages/Tool", "Packages/Tools")
    try repo.commitAll("rename Tool's folder")
    let warm = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 1, "only the moved package: its path is part of its key")
    #expect(Self.tests(warm) == ["Packages/Tools:ToolTests"])
    let again = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 0, "both graphs cached")
    #expect(Self.same(warm, again))
    #expect(Self.same(warm, try probe.fresh(["--base", "HEAD~1", "--head", "HEAD"], in: repo)))
    #expect(!probe.cacheFiles(prefix: "graph-").isEmpty && !probe.cacheFiles(prefix: "tree-").isEmpty)
  }

  @Test func packageAddedAndRemovedInAChangedTree() throws {
    let repo = try Self.make()
    let probe = try Probe()
    _ = try probe.affected(["--base", "HEAD", "--head", "HEAD"], in: repo)
    _ = probe.takeEvaluations()

    try repo.remove("Packages/Tool")
    try repo.write("Packages/New/Package.swift", Self.manifest("New", targets: ["New"]))
    try repo.write("Packages/New/Sources/New/New.swift", "public enum New {}\n")
    try repo.write("Packages/New/Tests/NewTests/T.swift", "import Testing\n")
    // The working tree: the new package is untracked, the removal unstaged.
    let worktree = try probe.affected(["--base", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 1, "only the new package is evaluated")
    #expect(Self.tests(worktree) == ["Packages/New:NewTests"])
    let removed = ((worktree["removedTargets"] as? [[String: Any]]) ?? []).map { "\($0["name"] ?? "")" }.sorted()
    #expect(removed == ["Tool", "ToolTests"])
    #expect(Self.same(worktree, try probe.fresh(["--base", "HEAD"], in: repo)))

    try repo.commitAll("replace Tool with New")
    let committed = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 0, "the new package's manifest is cached by its blob id")
    #expect(Self.tests(committed) == ["Packages/New:NewTests"])
    #expect(Self.same(committed, try probe.fresh(["--base", "HEAD~1", "--head", "HEAD"], in: repo)))
  }

  @Test func equalManifestBytesInAMovedFolderResolveAgainstTheNewFolder() throws {
    let repo = try Self.make()
    let probe = try Probe()
    _ = try probe.affected(["--base", "HEAD", "--head", "HEAD"], in: repo)
    _ = probe.takeEvaluations()

    // Same manifest bytes (same blob), another folder, and a source file that only exists there.
    try repo.write("Tools/Tool/Package.swift", Self.manifest("Tool", targets: ["Tool"]))
    try repo.write("Tools/Tool/Sources/Tool/Other.swift", "public enum Other {}\n")
    try repo.write("Tools/Tool/Tests/ToolTests/T.swift", "import Testing\n")
    try repo.commitAll("a copy of Tool elsewhere")
    let answer = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 1, "equal bytes, other folder: another key")
    #expect(Self.tests(answer) == ["Tools/Tool:ToolTests"])
    let reasons = ((answer["testTargets"] as? [[String: Any]]) ?? []).flatMap { ($0["reasons"] as? [String]) ?? [] }
    #expect(reasons.contains("Package.swift: new package"))

    try repo.append("Tools/Tool/Sources/Tool/Other.swift", "// edit\n")
    try repo.commitAll("edit the copy")
    let edit = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 0)
    #expect(Self.tests(edit) == ["Tools/Tool:ToolTests"], "the file belongs to the copy's target, not the original")
    let graph = try RippleBinary.run(
      ["graph", "--format", "json"], in: repo.root, environment: ["RIPPLE_CACHE_DIR": probe.cache])
    #expect(graph.standardOutput.replacingOccurrences(of: "\\/", with: "/").contains("Tools/Tool/Sources/Tool"))
  }

  @Test func corruptCacheEntriesAreMissesAndRewritten() throws {
    let repo = try Self.make()
    let probe = try Probe()
    try repo.append("Packages/Base/Sources/Base/Base.swift", "// edit\n")
    try repo.commitAll("edit Base")
    let expected = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    _ = probe.takeEvaluations()
    #expect(Self.tests(expected) == ["Packages/App:AppTests", "Packages/Base:BaseTests"])

    let directory = probe.cache + "/manifests"
    let entries = try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix("toolchain-") }
    #expect(entries.contains { $0.hasPrefix("graph-") } && entries.contains { $0.hasPrefix("tree-") })
    for (index, entry) in entries.enumerated() {
      let path = directory + "/" + entry
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      // Alternately truncated and flipped inside the payload: both must fail the checksum.
      let broken = index % 2 == 0 ? bytes.dropLast(5) : Data(bytes.map { $0 == UInt8(ascii: "a") ? 0x62 : $0 })
      try broken.write(to: URL(fileURLWithPath: path))
    }
    let again = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(Self.same(again, expected))
    #expect(probe.takeEvaluations() == 3, "every corrupt manifest entry is evaluated again")
    _ = try probe.affected(["--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(probe.takeEvaluations() == 0, "and rewritten")
  }
}
