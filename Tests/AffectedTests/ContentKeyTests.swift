import Affected
import PackageModel
import PassRecords
import RippleConfig
import RippleCore
import Testing

/// The app graph's files: one per target, a README, a CI file and the root `Package.resolved`.
private let appFiles: [String: String] = [
  "Sources/Core/Core.swift": "c1", "Sources/Net/Net.swift": "n1", "Sources/Api/Api.swift": "a1",
  "Sources/TestSupport/Support.swift": "s1", "Tests/CoreTests/CoreTests.swift": "ct1",
  "Tests/NetTests/NetTests.swift": "nt1", "Tests/ApiTests/ApiTests.swift": "at1", "README.md": "r1",
  "Bootstrap/words.txt": "w1", "Package.swift": "m1", "Package.resolved": "p1", ".github/ci.yml": "ci1",
]

struct KeyState {
  var files = appFiles
  var graph = appGraph
  var fontsSHA = String(repeating: "ab", count: 32)
  var toolchain = "Swift version 6.3.1"
  var common: [String: String] = [:]
  var unowned: UnownedPolicy = .all

  func key(_ target: String) -> RecordKey {
    var common = KeyInputs()
    common.add("toolchain", "swift --version", toolchain)
    for (name, value) in self.common { common.add("environment", name, value) }
    let assets = AssetsConfig(
      assets: [
        AssetSpec(id: "fonts", source: .file(path: "f.zip"), sha256: fontsSHA, destination: "Sources/Net/Fonts")
      ],
      generate: [
        GenerateSpec(
          id: "words", command: ["gzip"], inputs: [Glob("Bootstrap/words.txt")], destination: "Sources/Core/Words")
      ])
    let context = ContentKeys.Context(
      files: files, selection: SelectionConfig(ignore: [Glob("**/*.md"), Glob(".github/**")], unowned: unowned),
      assets: assets, configPath: "ripple.yml", common: common)
    let ref = TargetRef(package: ".", name: target)
    return ContentKeys.inputs(for: [ref], in: graph, context: context)[ref]!.key
  }
}

/// The differential test of false hits: every input kind that can change a result changes the key of the
/// targets it reaches, and nothing else does.
@Suite("Pass records: content keys change exactly when a result can")
struct ContentKeyTests {
  let before = KeyState()

  private func changed(_ edit: (inout KeyState) -> Void) -> Set<String> {
    var after = before
    edit(&after)
    return Set(["CoreTests", "NetTests", "ApiTests"].filter { before.key($0) != after.key($0) })
  }

  @Test func aTransitiveSourceChangesTheKeysOfEveryTestReachingIt() {
    #expect(changed { $0.files["Sources/Core/Core.swift"] = "c2" } == ["CoreTests", "NetTests", "ApiTests"])
    #expect(changed { $0.files["Sources/Net/Net.swift"] = "n2" } == ["NetTests", "ApiTests"])
    #expect(changed { $0.files["Sources/TestSupport/Support.swift"] = "s2" } == ["CoreTests", "ApiTests"])
    #expect(changed { $0.files["Tests/NetTests/Extra.swift"] = "x" } == ["NetTests"])
  }

  @Test func anEvaluatedManifestEntryChangesItsTargetsKeys() {
    let edited = changed {
      $0.graph = PackageGraph(packages: [
        appPackage(replacing: [lib("Net", .target("Core")).with(fingerprint: "Net@2")])
      ])
    }
    #expect(edited == ["NetTests", "ApiTests"])
    #expect(changed { $0.graph = PackageGraph(packages: [appPackage(fingerprint: "tools 6.1; macOS 14")]) }.count == 3)
  }

  @Test func aPinAnAssetAndAGeneratedInputChangeWhatUsesThem() {
    #expect(changed { $0.files["Package.resolved"] = "p2" }.count == 3)
    #expect(changed { $0.fontsSHA = String(repeating: "cd", count: 32) } == ["NetTests", "ApiTests"])
    #expect(changed { $0.files["Bootstrap/words.txt"] = "w2" } == ["CoreTests", "NetTests", "ApiTests"])
  }

  @Test func theToolchainAndAllowListedVariablesChangeEveryKey() {
    #expect(changed { $0.toolchain = "Swift version 6.2" }.count == 3)
    #expect(changed { $0.common["CI_SDK"] = "2" }.count == 3)
  }

  @Test func anIgnoredFileAManifestTextAndAnUnrelatedTargetChangeNothingElse() {
    #expect(changed { $0.files["README.md"] = "r2" }.isEmpty)
    #expect(changed { $0.files[".github/ci.yml"] = "ci2" }.isEmpty)
    // A comment in Package.swift: its evaluation (the fingerprints) is what counts.
    #expect(changed { $0.files["Package.swift"] = "m2" }.isEmpty)
    #expect(changed { $0.files["Tests/ApiTests/ApiTests.swift"] = "at2" } == ["ApiTests"])
  }

  @Test func anUnownedFileChangesEveryKeyUnlessTheSelectionIgnoresUnownedFiles() {
    #expect(changed { $0.files["scripts/fixture.json"] = "f" }.count == 3)
    var ignoring = before
    ignoring.unowned = .ignore
    var after = ignoring
    after.files["scripts/fixture.json"] = "f"
    #expect(ignoring.key("CoreTests") == after.key("CoreTests"))
  }
}
