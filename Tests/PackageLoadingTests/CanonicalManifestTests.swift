import Foundation
import PackageModel
import TestSupport
import Testing

@testable import PackageLoading

/// One manifest, one key (issue 47): sets `dump-package` prints in iteration order are sorted, and
/// evaluations see only the entry's variables and the toolchain's.
@Suite struct CanonicalManifestTests {
  /// A document as SwiftPM prints it, with its traits in the order `order` gives.
  func document(_ order: [Int]) throws -> JSONValue {
    let traits = ["\"ConfigurationSupport\"", "\"FullFoundation\"", "\"Tracing\""]
    let listed = order.map { traits[$0] }.joined(separator: ",")
    let text = """
      {"name":"hb","toolsVersion":{"_version":"6.1.0"},"platforms":[{"platformName":"macos","version":"14.0"},
      {"platformName":"linux","version":""}],
      "traits":[\(order.map { "{\"name\":\(traits[$0]),\"enabledTraits\":[\(listed)]}" }.joined(separator: ","))],
      "dependencies":[{"sourceControl":[{"identity":"swift-log","location":{"remote":[{"urlString":"https://x/swift-log"}]},
      "requirement":{"range":[{"lowerBound":"1.0.0","upperBound":"2.0.0"}]},"traits":[\(listed)]}]}],
      "targets":[{"name":"A","type":"regular","dependencies":[{"product":["Log","swift-log",null,
      {"traits":[\(listed)]}]}],"settings":[{"tool":"swift","kind":{"define":["X"]},"condition":{"traits":[\(listed)]}}]}],
      "products":[]}
      """
    return try JSONValue.parse(Array(text.utf8))
  }

  func mapped(_ document: JSONValue) throws -> Package {
    try ManifestMapper.package(from: document, path: ".", manifestFile: "Package.swift", isDirectory: { _ in true })
  }

  @Test func traitsInAnyOrderGiveOneFingerprint() throws {
    let orders = [[0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]]
    let packages = try orders.map { try mapped(try document($0)) }
    for package in packages.dropFirst() {
      #expect(package.packageFingerprint == packages[0].packageFingerprint)
      #expect(package.targets.map(\.fingerprint) == packages[0].targets.map(\.fingerprint))
      #expect(package.dependencies.map(\.fingerprint) == packages[0].dependencies.map(\.fingerprint))
    }
    // The order of a real list (platforms) still counts; only sets are sorted.
    let platforms = try document([0, 1, 2]).sortingSets()["platforms"]
    #expect(platforms?.array?.first?["platformName"]?.string == "macos")
  }

  @Test func anEvaluationInheritsOnlyTheToolchainsVariablesAndTheEntrys() {
    let inherited = [
      "PATH": "/usr/bin", "HOME": "/root", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "TEST_SERVER": "1",
      "SWIFT_EXEC": "/opt/swiftc", "SWIFTPM_TESTS_MODULECACHE": "/m", "RIPPLE_RESULT_SIGNING_KEY": "k",
    ]
    let (process, key) = ManifestEnvironment.scrubbed(inherited: inherited, effective: ["MODE": "ci", "OLD": nil])
    #expect(process["AWS_SECRET_ACCESS_KEY"] == .some(nil), "removed")
    #expect(process["RIPPLE_RESULT_SIGNING_KEY"] == .some(nil))
    #expect(process["TEST_SERVER"] == .some(nil))
    #expect(process["PATH"] == nil && process["SWIFT_EXEC"] == nil, "inherited as they are")
    #expect(process["MODE"] == "ci" && process["OLD"] == .some(nil))
    // The key holds every value passed, and no name of what was only scrubbed.
    #expect(key["HOME"] == "/root" && key["SWIFTPM_TESTS_MODULECACHE"] == "/m" && key["MODE"] == "ci")
    #expect(key["AWS_SECRET_ACCESS_KEY"] == nil && key["TEST_SERVER"] == nil)
  }

  @Test func theVariablesAManifestReadsAreFoundByName() {
    let source = """
      import PackageDescription
      import Foundation
      let flag = ProcessInfo.processInfo.environment["FEATURE_X"] != nil
      let home = Context.environment[ "HOME" ]
      let legacy = getenv("LEGACY_MODE")
      let note = "environment is not read here"
      """
    #expect(ManifestEnvironment.variablesRead(bySource: source) == ["FEATURE_X", "HOME", "LEGACY_MODE"])
  }

  @Test func theWordSearchBeforeTheExpressionsFindsAWordAnywhereAndNoPartOfOne() {
    #expect(ManifestEnvironment.holds("environment", "environment"))
    #expect(ManifestEnvironment.holds("x.envienvironment[", "environment"), "after a false start")
    #expect(ManifestEnvironment.holds("let a = getenv", "getenv"), "at the end")
    #expect(!ManifestEnvironment.holds("environmen", "environment"))
    #expect(!ManifestEnvironment.holds("", "getenv"))
    #expect(!ManifestEnvironment.holds("get env(\"X\")", "getenv"))
    #expect(ManifestEnvironment.variablesRead(bySource: "let targets = [\"A\"]\n").isEmpty)
  }

  @Test func theCacheKeyOfAnEvaluationChangesWithAToolchainVariable() {
    func key(_ inherited: [String: String]) -> String {
      let (_, keyed) = ManifestEnvironment.scrubbed(inherited: inherited, effective: [:])
      return ManifestCache.key(
        manifestID: "m", manifestFile: "Package.swift", packagePath: ".", rootName: "repo", environment: keyed,
        toolchain: "6.3.1")
    }
    #expect(key(["HOME": "/a"]) != key(["HOME": "/b"]))
    #expect(key(["HOME": "/a", "UNRELATED": "1"]) == key(["HOME": "/a", "UNRELATED": "2"]))
  }

  /// A real manifest with traits (Hummingbird, from the package mirror), evaluated afresh four times by the real
  /// `swift package dump-package`: its set-valued fields come out in varying order, its fingerprints never.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/opt/swift-packages/hummingbird-project/hummingbird.git")))
  func aRealManifestWithTraitsGivesOneFingerprintPerEvaluation() throws {
    let folder = try TemporaryDirectory()
    let archive = try Command.run(
      [
        "sh", "-c", "git -C \"$0\" archive HEAD Package.swift | tar -x -C \"$1\"",
        "/opt/swift-packages/hummingbird-project/hummingbird.git", folder.path,
      ])
    try #require(archive.status == 0, "\(archive.standardError)")
    var packages: [Package] = []
    for _ in 0..<4 {
      let dump = try Command.run(["swift", "package", "dump-package", "--package-path", folder.path])
      try #require(dump.status == 0, "\(dump.standardError)")
      let document = try JSONValue.parse(Array(dump.standardOutput.utf8))
      #expect(document["traits"]?.array?.isEmpty == false, "the manifest declares traits")
      packages.append(try mapped(document))
    }
    for package in packages.dropFirst() {
      #expect(package.packageFingerprint == packages[0].packageFingerprint)
      #expect(package.targets.map(\.fingerprint) == packages[0].targets.map(\.fingerprint))
      #expect(package.dependencies.map(\.fingerprint) == packages[0].dependencies.map(\.fingerprint))
    }
  }
}
