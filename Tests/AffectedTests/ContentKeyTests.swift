import Affected
import PackageModel
import PassRecords
import RippleConfig
import RippleCore
import Testing

/// The app graph's files (`mode:id`): one per target, a README, a CI file and the root `Package.resolved`.
private let appFiles: [String: String] = [
  "Sources/Core/Core.swift": "100644:c1", "Sources/Net/Net.swift": "100644:n1", "Sources/Api/Api.swift": "100644:a1",
  "Sources/TestSupport/Support.swift": "100644:s1", "Tests/CoreTests/CoreTests.swift": "100644:ct1",
  "Tests/NetTests/NetTests.swift": "100644:nt1", "Tests/ApiTests/ApiTests.swift": "100644:at1",
  "README.md": "100644:r1", "Bootstrap/words.txt": "100644:w1", "Package.swift": "100644:m1",
  "Package.resolved": "100644:p1", ".github/ci.yml": "100644:ci1", "Sources/Net/Vendor": "160000:v1",
  "Config/Secrets.swift.template": "100644:t1",
]

struct KeyState {
  var files = appFiles
  var graph = PackageGraph(packages: [appPackage(dependencies: [remote("swift-log")])])
  var fontsSHA = String(repeating: "ab", count: 32)
  var toolchain = "Swift version 6.3.1"
  var common: [String: String] = [:]
  var unowned: UnownedPolicy = .all
  var pins: ContentKeys.Pins = .pinned(["swift-log": "1.6.0@aaaa"])
  var unkeyablePaths: [String: String] = [:]
  var secretValues = ["TOKEN": "API_TOKEN"]

  func key(_ target: String) -> RecordKey { targetKey(target).inputs.key }

  func targetKey(_ target: String) -> ContentKeys.TargetKey {
    let ref = TargetRef(package: ".", name: target)
    return ContentKeys.keys(for: [ref], in: graph, context: context(for: [ref]))[ref]!
  }

  /// The keys of `targets` and the nodes of their closures.
  func graphKeys(_ targets: [String]) -> (
    keys: [TargetRef: ContentKeys.TargetKey], nodes: [TargetRef: ContentKeys.TargetNode]
  ) {
    let refs = targets.map { TargetRef(package: ".", name: $0) }
    return ContentKeys.graphKeys(for: refs, in: graph, context: context(for: refs))
  }

  func context(for refs: [TargetRef]) -> ContentKeys.Context {
    var common = KeyInputs()
    common.add("toolchain", "swift --version", toolchain)
    for (name, value) in self.common { common.add("environment", name, value) }
    var assets = AssetsConfig(
      assets: [
        AssetSpec(id: "fonts", source: .file(path: "f.zip"), sha256: fontsSHA, destination: "Sources/Net/Fonts")
      ],
      generate: [
        GenerateSpec(
          id: "words", command: ["gzip"], inputs: [Glob("Bootstrap/words.txt")], destination: "Sources/Core/Words")
      ])
    assets.secrets = [
      SecretSpec(
        id: "api", template: "Config/Secrets.swift.template", output: "Sources/Api/Secrets.swift",
        values: secretValues)
    ]
    let attribution = KeyAttribution(
      graph: graph, selection: SelectionConfig(ignore: [Glob("**/*.md"), Glob(".github/**")], unowned: unowned),
      assets: assets, configPath: "ripple.yml")
    let given = ContentKeys.attribute(
      files, closure: ContentKeys.closure(of: refs, in: graph), by: attribution, problems: unkeyablePaths)
    return ContentKeys.Context(
      targetFiles: given.targetFiles, everyone: given.everyone, assets: assets, common: common,
      unkeyable: given.unkeyable, pins: [".": pins])
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
    #expect(changed { $0.files["Sources/Core/Core.swift"] = "100644:c2" } == ["CoreTests", "NetTests", "ApiTests"])
    #expect(changed { $0.files["Sources/Net/Net.swift"] = "100644:n2" } == ["NetTests", "ApiTests"])
    #expect(changed { $0.files["Sources/TestSupport/Support.swift"] = "100644:s2" } == ["CoreTests", "ApiTests"])
    #expect(changed { $0.files["Tests/NetTests/Extra.swift"] = "100644:x" } == ["NetTests"])
  }

  @Test func aFileModeAndAMovedSubmoduleChangeTheirReadersKeys() {
    #expect(changed { $0.files["Sources/Net/Net.swift"] = "100755:n1" } == ["NetTests", "ApiTests"])
    #expect(changed { $0.files["Sources/Net/Vendor"] = "160000:v2" } == ["NetTests", "ApiTests"])
    #expect(changed { $0.files["Sources/Net/Vendor"] = "160000:v1 (not checked out)" } == ["NetTests", "ApiTests"])
  }

  @Test func whatGitDoesNotTrackInAFolderKeysItsReaders() {
    // The disk is what a build reads: a file git ignores counts like a tracked one.
    let added = changed { $0.files["Sources/Core/Generated.swift"] = "100644:d1" }
    #expect(added == ["CoreTests", "NetTests", "ApiTests"])
    var after = before
    after.files["Sources/Core/Generated.swift"] = "100644:d1"
    var edited = after
    edited.files["Sources/Core/Generated.swift"] = "100644:d2"
    #expect(after.key("NetTests") != edited.key("NetTests"))
  }

  @Test func dependencyRequirementsAndResolvedPinsKeyEveryTargetOfThePackage() {
    let bumped = changed {
      $0.graph = PackageGraph(packages: [appPackage(dependencies: [remote("swift-log", version: "from: 2.0.0")])])
    }
    #expect(bumped == ["CoreTests", "NetTests", "ApiTests"])
    #expect(changed { $0.pins = .pinned(["swift-log": "1.6.1@bbbb"]) }.count == 3)
    // The file's own bytes (formatting, originHash) are not what SwiftPM builds with; its pins are.
    #expect(changed { $0.files["Package.resolved"] = "100644:p2" }.isEmpty)
    var missing = before
    missing.pins = .missing
    #expect(missing.targetKey("CoreTests").pinsProblem?.contains("Package.resolved is missing") == true)
    #expect(!missing.targetKey("CoreTests").isKeyable)
    missing.pins = .unusable("Package.resolved cannot be used: version 9 is not supported")
    #expect(missing.targetKey("NetTests").pinsProblem == "Package.resolved cannot be used: version 9 is not supported")
    // Without a remote dependency no pins are read: a missing file is no problem.
    var local = before
    local.graph = appGraph
    local.pins = .missing
    #expect(local.targetKey("CoreTests").isKeyable)
  }

  @Test func aSecretsEntryAndItsTemplateKeyTheOwnerOfItsOutput() {
    #expect(changed { $0.secretValues = ["TOKEN": "OTHER_TOKEN"] } == ["ApiTests"])
    #expect(changed { $0.files["Config/Secrets.swift.template"] = "100644:t2" } == ["ApiTests"])
  }

  @Test func aPathNoKeyCanHoldMakesItsReadersUnkeyable() {
    var state = before
    state.unkeyablePaths["Sources/Net/Shared"] = "Sources/Net/Shared links outside the repository (/opt/shared)"
    state.files["Sources/Net/Shared"] = "120000:l1"
    #expect(state.targetKey("NetTests").unkeyable == ["Sources/Net/Shared links outside the repository (/opt/shared)"])
    #expect(!state.targetKey("ApiTests").isKeyable)
    #expect(state.targetKey("CoreTests").isKeyable)
  }

  @Test func anEvaluatedManifestEntryChangesItsTargetsKeys() {
    let edited = changed {
      $0.graph = PackageGraph(packages: [
        appPackage(
          replacing: [lib("Net", .target("Core")).with(fingerprint: "Net@2")], dependencies: [remote("swift-log")])
      ])
    }
    #expect(edited == ["NetTests", "ApiTests"])
    #expect(
      changed {
        $0.graph = PackageGraph(packages: [
          appPackage(fingerprint: "tools 6.1; macOS 14", dependencies: [remote("swift-log")])
        ])
      }.count == 3)
  }

  @Test func anAssetAndAGeneratedInputChangeWhatUsesThem() {
    #expect(changed { $0.fontsSHA = String(repeating: "cd", count: 32) } == ["NetTests", "ApiTests"])
    #expect(changed { $0.files["Bootstrap/words.txt"] = "100644:w2" } == ["CoreTests", "NetTests", "ApiTests"])
  }

  @Test func theToolchainAndAllowListedVariablesChangeEveryKey() {
    #expect(changed { $0.toolchain = "Swift version 6.2" }.count == 3)
    #expect(changed { $0.common["CI_SDK"] = "2" }.count == 3)
  }

  @Test func anIgnoredFileAManifestTextAndAnUnrelatedTargetChangeNothingElse() {
    #expect(changed { $0.files["README.md"] = "100644:r2" }.isEmpty)
    #expect(changed { $0.files[".github/ci.yml"] = "100644:ci2" }.isEmpty)
    // A comment in Package.swift: its evaluation (the fingerprints) is what counts.
    #expect(changed { $0.files["Package.swift"] = "100644:m2" }.isEmpty)
    #expect(changed { $0.files["Tests/ApiTests/ApiTests.swift"] = "100644:at2" } == ["ApiTests"])
  }

  @Test func anUnownedFileChangesEveryKeyUnlessTheSelectionIgnoresUnownedFiles() {
    #expect(changed { $0.files["scripts/fixture.json"] = "100644:f" }.count == 3)
    var ignoring = before
    ignoring.unowned = .ignore
    var after = ignoring
    after.files["scripts/fixture.json"] = "100644:f"
    #expect(ignoring.key("CoreTests") == after.key("CoreTests"))
  }
}
