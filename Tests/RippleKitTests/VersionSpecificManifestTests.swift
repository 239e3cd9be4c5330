import Foundation
import Git
import PackageModel
import RippleCore
import RippleKit
import SystemClients
import TestSupport
import Testing

/// The issue's layout end to end: `Package.swift` (tools 6.2) beside `Package@swift-6.1.swift`, commits
/// between them, `ripple affected HEAD~1..HEAD` in process with the real toolchain (docs/DESIGN.md, rule 4).
@Suite struct VersionSpecificManifestTests {
  static func manifest(toolsVersion: String, aTestsDependencies: String) -> String {
    """
    // swift-tools-version:\(toolsVersion)
    import PackageDescription

    let package = Package(
      name: "Kit",
      targets: [
        .target(name: "A"), .target(name: "B"),
        .testTarget(name: "ATests", dependencies: [\(aTestsDependencies)]),
        .testTarget(name: "BTests", dependencies: ["B"]),
      ]
    )
    """
  }

  /// Committed: both manifests with ATests depending on A, sources for every target.
  static func repository(config: String? = nil) throws -> GitFixture {
    let repository = try GitFixture()
    try repository.write("Package.swift", manifest(toolsVersion: "6.2", aTestsDependencies: #""A""#))
    try repository.write("Package@swift-6.1.swift", manifest(toolsVersion: "6.1", aTestsDependencies: #""A""#))
    for name in ["A", "B"] {
      try repository.write("Sources/\(name)/\(name).swift", "public let \(name.lowercased()) = 1\n")
      try repository.write("Tests/\(name)Tests/\(name)Tests.swift", "import Testing\n@Test func ok() {}\n")
    }
    if let config { try repository.write("ripple.yml", config) }
    try repository.write(".gitignore", ".build/\n")
    try repository.commitAll("init")
    return repository
  }

  static func affected(_ repository: GitFixture, cache: TemporaryDirectory) async throws -> AffectedOutcome {
    var environment = ProcessInfo.processInfo.environment
    environment["RIPPLE_CACHE_DIR"] = cache.path
    let workspace = try Workspace.open(
      directory: repository.root, services: RippleServices(process: .live, environment: environment))
    return try await workspace.affected(AffectedRequest(changes: ChangeRequest(base: "HEAD~1", head: "HEAD")))
  }

  static func reasons(_ outcome: AffectedOutcome) -> [String: [String]] {
    Dictionary(uniqueKeysWithValues: outcome.result.testTargets.map { ($0.name, $0.reasons) })
  }

  @Test func aCommitToPackageSwiftAloneSelectsItsTestsAndOneToTheUnreadFileSelectsNothing() async throws {
    let repository = try Self.repository()
    let cache = try TemporaryDirectory(prefix: "ripple-version-specific")
    // Commit shape 1: only Package.swift changes (ATests now depends on A and B). SwiftPM 6.3 reads it.
    try repository.write("Package.swift", Self.manifest(toolsVersion: "6.2", aTestsDependencies: #""A", "B""#))
    try repository.commitAll("ATests uses B")
    let first = try await Self.affected(repository, cache: cache)
    #expect(Self.reasons(first) == ["ATests": ["Package.swift: entry changed"]])
    #expect(first.headGraph?.package(at: ".")?.manifestFile == "Package.swift")
    // Warm: the same answer from the cache.
    #expect(Self.reasons(try await Self.affected(repository, cache: cache)) == Self.reasons(first))

    // Commit shape 2: only Package@swift-6.1.swift changes. Swift 6.3 never reads it: nothing to test.
    try repository.write(
      "Package@swift-6.1.swift", Self.manifest(toolsVersion: "6.1", aTestsDependencies: #""A", "B""#))
    try repository.commitAll("the 6.1 manifest follows")
    let second = try await Self.affected(repository, cache: cache)
    #expect(second.result.testTargets.isEmpty)
  }

  @Test func withTheMatrixAChangeOnlySwift61ReadsSelectsTestsNamingTheVersion() async throws {
    let repository = try Self.repository(config: "selection:\n  toolchains: [\"6.1\", \"6.3\"]\n")
    let cache = try TemporaryDirectory(prefix: "ripple-version-specific")
    try repository.write(
      "Package@swift-6.1.swift", Self.manifest(toolsVersion: "6.1", aTestsDependencies: #""A", "B""#))
    try repository.commitAll("the 6.1 manifest: ATests uses B")
    let outcome = try await Self.affected(repository, cache: cache)
    #expect(Self.reasons(outcome) == ["ATests": ["Package@swift-6.1.swift (Swift 6.1): entry changed"]])
  }

  @Test func aListedVersionTheManifestsRuleOutIsAConfigErrorNamingTheLine() async throws {
    let repository = try Self.repository(config: "selection:\n  toolchains:\n    - \"6.3\"\n    - \"5.9\"\n")
    let cache = try TemporaryDirectory(prefix: "ripple-version-specific")
    try repository.append("Sources/A/A.swift", "public let more = 2\n")
    try repository.commitAll("edit A")
    let error = await #expect(throws: (any Error).self) { try await Self.affected(repository, cache: cache) }
    #expect((error as? any RippleError)?.category == .usage)
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains("/ripple.yml:4:7: selection.toolchains[1]: Swift 5.9 cannot read"), "\(text)")
  }
}
