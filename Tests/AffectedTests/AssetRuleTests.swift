import Affected
import PackageModel
import RippleConfig
import RippleCore
import Testing

private let sha1 = String(repeating: "ab", count: 32)
private let sha2 = String(repeating: "cd", count: 32)

/// Fonts into Net's resources, a word list gzipped into Core's, then imported into Api's.
private func config(
  fontsSHA: String = sha1, wordsCommand: [String] = ["gzip"], unowned: UnownedPolicy = .all
) -> RippleConfiguration {
  RippleConfiguration(
    selection: SelectionConfig(unowned: unowned),
    assets: AssetsConfig(
      assets: [
        AssetSpec(id: "fonts", source: .file(path: "f.zip"), sha256: fontsSHA, destination: "Sources/Net/Fonts")
      ],
      generate: [
        GenerateSpec(
          id: "words", command: wordsCommand, inputs: [Glob("Bootstrap/words.txt")],
          destination: "Sources/Core/Dictionaries"),
        GenerateSpec(
          id: "words-db", command: ["sqlite3"],
          inputs: [Glob("Sources/Core/Dictionaries/*.gz"), Glob("Bootstrap/*.sql")],
          destination: "Sources/Api/Dictionaries", after: ["words"]),
      ]))
}

private func run(_ changes: [ChangedFile], base: RippleConfiguration?, head: RippleConfiguration?) -> AffectedResult {
  let result = AffectedAnalysis.analyze(
    AffectedInput(
      changes: changes, base: appGraph, head: appGraph, selection: head?.selection ?? .init(),
      assetManifests: AssetManifests(configPath: "ripple.yml", base: base, head: head)))
  for target in result.targets { #expect(!target.reasons.isEmpty) }
  return result
}

@Suite("Assets and generated resources → targets (rule 11)")
struct AssetRuleTests {
  @Test func aChangedAssetSelectsTheOwnerOfItsFolderNotEverything() {
    let result = run([.modified("ripple.yml")], base: config(), head: config(fontsSHA: sha2))
    #expect(!result.runAll)
    #expect(result.targetNames == ["Api", "ApiTests", "Net", "NetTests"])
    #expect(result.reasons("Net") == ["asset fonts changed"])
    #expect(result.explanation(for: "NetTests") == ["asset fonts changed → Net", "Net → NetTests (depends on Net)"])
    #expect(result.warnings.isEmpty)
  }

  @Test func aChangedEntryReachesTheEntriesAfterIt() {
    let result = run([.modified("ripple.yml")], base: config(), head: config(wordsCommand: ["gzip", "-9"]))
    #expect(result.reasons("Core") == ["asset words changed"])
    #expect(result.reasons("Api") == ["asset words changed → asset words-db", "depends on Net"])
    #expect(result.testNames == ["ApiTests", "CoreTests", "NetTests"])
    #expect(!result.runAll)
  }

  @Test func aChangedInputSelectsTheOwnersOfItsEntryAndShowsTheChain() {
    let result = run([.modified("Bootstrap/words.txt")], base: config(), head: config())
    #expect(!result.runAll)
    #expect(result.reasons("Core") == ["changed Bootstrap/words.txt → asset words"])
    #expect(result.reasons("Api")?.first == "changed Bootstrap/words.txt → asset words → asset words-db")
    #expect(
      result.explanation(for: "ApiTests") == [
        "changed Bootstrap/words.txt → asset words → asset words-db → Api", "Api → ApiTests (depends on Api)",
      ])
    let sql = run([.added("Bootstrap/import.sql")], base: config(), head: config())
    #expect(sql.targetNames == ["Api", "ApiTests"])
    #expect(sql.reasons("Api") == ["changed Bootstrap/import.sql → asset words-db"])
  }

  @Test func otherConfigEditsKeepTheUnownedRule() {
    var edited = config()
    edited.selection.ignore = [Glob("docs/**")]
    let result = run([.modified("ripple.yml")], base: config(), head: edited)
    #expect(result.runAll)
    #expect(result.runAllReasons == ["unowned file ripple.yml"])
    let both = run(
      [.modified("ripple.yml")], base: config(),
      head: {
        var c = edited; c.assets.assets[0].sha256 = sha2; return c
      }())
    #expect(both.runAll)
    #expect(both.reasons("Net")?.first == "asset fonts changed")
  }

  @Test func aConfigThatDoesNotParseOnOneSideKeepsTheUnownedRule() {
    let result = run([.modified("ripple.yml")], base: nil, head: config())
    #expect(result.runAllReasons == ["unowned file ripple.yml"])
  }

  @Test func anAddedOrRemovedEntrySelectsItsFolderOwners() {
    var without = config()
    without.assets.assets = []
    let added = run([.modified("ripple.yml")], base: without, head: config())
    #expect(added.targetNames == ["Api", "ApiTests", "Net", "NetTests"])
    let removed = run([.modified("ripple.yml")], base: config(), head: without)
    #expect(removed.reasons("Net") == ["asset fonts changed"])
    let unchanged = run([.modified("ripple.yml")], base: config(), head: config())
    #expect(unchanged.targets.isEmpty && !unchanged.runAll)
  }

  @Test func ignoreAndGlobalStillComeFirst() {
    var ignoring = config(fontsSHA: sha2)
    ignoring.selection.ignore = [Glob("ripple.yml"), Glob("Bootstrap/**")]
    var base = config()
    base.selection = ignoring.selection
    let result = run([.modified("ripple.yml"), .modified("Bootstrap/words.txt")], base: base, head: ignoring)
    #expect(result.targets.isEmpty && !result.runAll)
  }

  @Test func withoutManifestsTheConfigFileIsUnowned() {
    let result = AffectedAnalysis.analyze(
      AffectedInput(changes: [.modified("ripple.yml")], base: appGraph, head: appGraph))
    #expect(result.runAllReasons == ["unowned file ripple.yml"])
  }
}
