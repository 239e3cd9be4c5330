import PackageModel
import RippleConfig
import RippleCore
import Testing

@testable import Affected

@Suite("Changed paths → targets (rules 3, 7, 8)")
struct ChangedPathTests {
  @Test func libraryEditSelectsItsTestsAndTheTestsOfItsDependents() {
    let result = analyze([.modified("Sources/Net/Client.swift")], base: appGraph)
    #expect(result.targetNames == ["Api", "ApiTests", "Net", "NetTests"])
    #expect(result.testNames == ["ApiTests", "NetTests"])
    #expect(result.reasons("Net") == ["changed Sources/Net/Client.swift"])
    #expect(result.reasons("NetTests") == ["depends on Net"])
    #expect(result.reasons("ApiTests") == ["depends on Api"])
    #expect(!result.runAll)
    #expect(result.warnings.isEmpty)
  }

  @Test func testTargetEditSelectsOnlyThatTestTarget() {
    let result = analyze([.modified("Tests/NetTests/ClientTests.swift")], base: appGraph)
    #expect(result.targetNames == ["NetTests"])
    #expect(result.reasons("NetTests") == ["changed Tests/NetTests/ClientTests.swift"])
  }

  @Test func testSupportTargetReachesBothTestTargetsUsingIt() {
    let result = analyze([.modified("Sources/TestSupport/Mocks.swift")], base: appGraph)
    #expect(result.testNames == ["ApiTests", "CoreTests"])
    #expect(result.reasons("CoreTests") == ["depends on TestSupport"])
  }

  @Test func deletedTestFileSelectsItsTestTargetFromTheBaseGraph() {
    let result = analyze([.deleted("Tests/ApiTests/OldTests.swift")], base: appGraph)
    #expect(result.testNames == ["ApiTests"])
    #expect(result.reasons("ApiTests") == ["deleted Tests/ApiTests/OldTests.swift"])
  }

  @Test func fileMovedBetweenTargetsChangesBoth() {
    let result = analyze([.renamed("Sources/Core/Cache.swift", "Sources/Net/Cache.swift")], base: appGraph)
    let reason = "renamed Sources/Core/Cache.swift → Sources/Net/Cache.swift"
    #expect(result.reasons("Core") == [reason])
    #expect(result.reasons("Net") == [reason, "depends on Core"])
    #expect(result.testNames == ["ApiTests", "CoreTests", "NetTests"])
  }

  @Test func modifiedFileIsOwnedInBothGraphsWhenTheTargetMoved() {
    let head = PackageGraph(packages: [appPackage(replacing: [lib("Net", .target("Core"), path: "Sources/Network")])])
    let result = analyze([.modified("Sources/Net/Client.swift")], base: appGraph, head: head)
    #expect(result.reasons("Net")?.first == "changed Sources/Net/Client.swift")
  }

  @Test func customPathAndSourceAndSrcDirectoriesOwnTheirFiles() {
    let graph = PackageGraph(packages: [
      pkg(
        ".",
        [
          lib("Custom", path: "Modules/Custom/Code"), lib("Legacy", path: "Source/Legacy"),
          lib("Tiny", path: "src/Tiny"),
          test("CustomTests", .target("Custom"), .target("Legacy"), .target("Tiny")),
        ])
    ])
    #expect(analyze([.modified("Modules/Custom/Code/A.swift")], base: graph).reasons("Custom") != nil)
    #expect(analyze([.modified("Source/Legacy/B.swift")], base: graph).targetNames == ["CustomTests", "Legacy"])
    #expect(analyze([.modified("src/Tiny/C.swift")], base: graph).targetNames == ["CustomTests", "Tiny"])
  }

  @Test func deepestTargetDirectoryWins() {
    let graph = PackageGraph(packages: [
      pkg(".", [lib("Outer", path: "Sources/Outer"), lib("Inner", path: "Sources/Outer/Inner")])
    ])
    #expect(analyze([.modified("Sources/Outer/Inner/X.swift")], base: graph).targetNames == ["Inner"])
    #expect(analyze([.modified("Sources/Outer/Y.swift")], base: graph).targetNames == ["Outer"])
  }

  @Test func excludedSnapshotAndResourceFilesBelongToTheirTarget() {
    let graph = PackageGraph(packages: [pkg(".", [lib("Foo"), test("FooTests", .target("Foo"))])])
    let snapshot = analyze([.modified("Tests/FooTests/__Snapshots__/FooTests/testLayout.1.png")], base: graph)
    #expect(snapshot.targetNames == ["FooTests"])
    let resource = analyze([.modified("Sources/Foo/Resources/words.json")], base: graph)
    #expect(resource.targetNames == ["Foo", "FooTests"])
    #expect(resource.reasons("Foo") == ["changed Sources/Foo/Resources/words.json"])
  }

  @Test func ignoredReadmeSelectsNothing() {
    let selection = SelectionConfig(ignore: [Glob("**/*.md")])
    let result = analyze(
      [.modified("README.md"), .added("Sources/Net/NOTES.md")], base: appGraph, selection: selection)
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
    #expect(result.warnings.isEmpty)
  }

  @Test func globalFileRunsEveryTestTarget() {
    let selection = SelectionConfig(global: [Glob("Makefile")])
    let result = analyze(
      [.modified("Makefile"), .modified("Sources/Net/A.swift")], base: appGraph, selection: selection)
    #expect(result.runAll)
    #expect(result.runAllReasons == ["global file Makefile"])
    #expect(result.testNames == ["ApiTests", "CoreTests", "NetTests"])
    #expect(result.reasons("CoreTests") == ["global file Makefile"])
    #expect(result.reasons("NetTests") == ["depends on Net", "global file Makefile"])
  }

  @Test func unownedFileRunsEverythingWithAWarningByDefault() throws {
    let result = analyze([.modified("scripts/release.sh")], base: appGraph)
    #expect(result.runAll)
    #expect(result.runAllReasons == ["unowned file scripts/release.sh"])
    #expect(result.testNames == ["ApiTests", "CoreTests", "NetTests"])
    let warning = try #require(result.warnings.first)
    for part in ["scripts/release.sh", "selection.ignore", "selection.global", "selection.inputs", "unowned: ignore"] {
      #expect(warning.contains(part), "warning lacks \(part)")
    }
  }

  /// 40,000 paths no target owns (a data folder committed at once): each reason kept once by a set, the lists
  /// bounded, every test reached with the same reasons (issue 50: this was quadratic, 147 s).
  @Test func fortyThousandUnownedPathsAreSaidBoundedAndEachOnce() throws {
    let paths = (0..<40_000).map { "Data/set\($0 % 7)/row\($0).json" }
    let result = analyze(paths.map { .modified($0) } + paths.prefix(10).map { .modified($0) }, base: appGraph)
    #expect(result.runAll)
    #expect(result.runAllReasons.count == SelectionBuilder.maxReasons + 1)
    #expect(result.runAllReasons.first == "unowned file Data/set0/row0.json")
    #expect(result.runAllReasons.last == "… and \(40_000 - SelectionBuilder.maxReasons) more")
    #expect(result.reasons("CoreTests") == result.runAllReasons)
    let warning = try #require(result.warnings.first)
    #expect(warning.hasPrefix("40000 changed files are in no target"))
    #expect(warning.contains("and \(40_000 - SelectionBuilder.maxReasons) more."))
    #expect(warning.count < 5_000)
  }

  @Test func unownedFileIsIgnoredWithUnownedIgnore() {
    let result = analyze(
      [.modified("scripts/release.sh")], base: appGraph, selection: SelectionConfig(unowned: .ignore))
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
    #expect(result.warnings.isEmpty)
  }

  @Test func inputsGlobSelectsTheNamedTargets() {
    let selection = SelectionConfig(
      inputs: ["Api": [Glob("Bootstrap/*.sql")], ".:Core": [Glob("Data/**")], "Missing": [Glob("x")]])
    let result = analyze(
      [.modified("Bootstrap/words.sql"), .added("Data/a/b.json")], base: appGraph, selection: selection)
    #expect(result.reasons("Api") == ["input Bootstrap/words.sql", "depends on Net"])
    #expect(result.reasons("Core") == ["input Data/a/b.json"])
    #expect(result.testNames == ["ApiTests", "CoreTests", "NetTests"])
    #expect(!result.runAll)
    #expect(result.warnings == ["selection.inputs names `Missing`, which is not a target of any package"])
  }

  @Test func inputsAlsoApplyToAFileATargetOwns() {
    let selection = SelectionConfig(inputs: ["Api": [Glob("Sources/Core/Resources/**")]])
    let result = analyze([.modified("Sources/Core/Resources/a.json")], base: appGraph, selection: selection)
    #expect(result.reasons("Core") == ["changed Sources/Core/Resources/a.json"])
    #expect(result.reasons("Api") == ["input Sources/Core/Resources/a.json", "depends on Net"])
  }

  @Test func directOnlyStopsAtDirectDependents() {
    let result = analyze([.modified("Sources/Core/A.swift")], base: appGraph, directOnly: true)
    #expect(result.targetNames == ["Core", "CoreTests", "Net", "TestSupport"])
    let transitive = analyze([.modified("Sources/Core/A.swift")], base: appGraph)
    #expect(transitive.targetNames == ["Api", "ApiTests", "Core", "CoreTests", "Net", "NetTests", "TestSupport"])
  }

  @Test func targetsFromAManifestEnvironmentAreSelectedWhenChanged() {
    // The loader unions the graphs of every manifest environment; `ServerTests` exists only with TEST_SERVER=1.
    let graph = PackageGraph(packages: [appPackage(adding: [test("ServerTests", .target("Api"))])])
    #expect(analyze([.modified("Tests/ServerTests/RouteTests.swift")], base: graph).testNames == ["ServerTests"])
    #expect(analyze([.modified("Sources/Api/Route.swift")], base: graph).testNames == ["ApiTests", "ServerTests"])
  }

  @Test func manifestFilesAreLeftToTheManifestRulesNotUnowned() {
    let result = analyze(
      [.modified("Package.swift"), .modified("Package@swift-5.9.swift")], base: appGraph,
      selection: SelectionConfig(unowned: .all))
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
  }

  @Test func packageResolvedWithoutPinsRunsEverything() {
    let result = analyze([.modified("Package.resolved")], base: appGraph)
    #expect(result.runAll)
    #expect(result.runAllReasons == ["Package.resolved changed but its pins were not compared"])
  }
}
