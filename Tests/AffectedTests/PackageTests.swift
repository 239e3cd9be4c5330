import Affected
import PackageModel
import RippleConfig
import RippleCore
import Testing

/// A root app, a nested shared package and a nested feature package, linked by `.package(path:)`.
private func workspace(sharedProduct: [String] = ["Shared"], sharedFingerprint: String = "Shared@1") -> PackageGraph {
  PackageGraph(packages: [
    pkg(
      ".",
      [
        lib("App", .product("Shared", package: "Shared"), .product("Feature", package: "feature")),
        test("AppTests", .target("App")),
      ],
      dependencies: [local("Packages/Shared"), local("Packages/Feature")]),
    pkg(
      "Packages/Shared",
      [lib("Shared").with(fingerprint: sharedFingerprint), lib("Extra"), test("SharedTests", .target("Shared"))],
      products: [Product(name: "Shared", targets: sharedProduct)]),
    pkg(
      "Packages/Feature", [lib("Feature", .byName("Shared")), test("FeatureTests", .target("Feature"))],
      products: [Product(name: "Feature", targets: ["Feature"])], dependencies: [local("Packages/Shared")]),
  ])
}

@Suite("Packages: nesting, local path edges, manifests (rules 2, 4, 6)")
struct PackageTests {
  @Test func nestedPackageOwnsItsFiles() {
    let graph = workspace()
    let result = analyze([.modified("Packages/Shared/Sources/Shared/Model.swift")], base: graph)
    #expect(
      result.reasons("Shared", package: "Packages/Shared") == ["changed Packages/Shared/Sources/Shared/Model.swift"])
    #expect(result.reasons("Shared") == nil)
    let rootFile = analyze([.modified("Sources/App/Main.swift")], base: graph)
    #expect(
      rootFile.targets.map(\.ref) == [TargetRef(package: ".", name: "App"), TargetRef(package: ".", name: "AppTests")])
  }

  @Test func localPathPackageEditReachesTestsInTwoOtherPackages() {
    let result = analyze([.modified("Packages/Shared/Sources/Shared/Model.swift")], base: workspace())
    #expect(
      result.testTargets.map(\.ref) == [
        TargetRef(package: ".", name: "AppTests"),
        TargetRef(package: "Packages/Feature", name: "FeatureTests"),
        TargetRef(package: "Packages/Shared", name: "SharedTests"),
      ])
    #expect(result.reasons("App") == ["depends on Packages/Shared:Shared", "depends on Packages/Feature:Feature"])
    #expect(result.reasons("Feature", package: "Packages/Feature") == ["depends on Packages/Shared:Shared"])
    #expect(result.reasons("Extra", package: "Packages/Shared") == nil)
  }

  @Test func commentOnlyManifestEditChangesNothing() {
    let result = analyze([.modified("Package.swift"), .modified("Packages/Shared/Package.swift")], base: workspace())
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
    #expect(result.warnings.isEmpty)
  }

  @Test func dependencyAddedToOneTargetChangesItAndItsDependents() {
    let head = PackageGraph(packages: [
      appPackage(replacing: [lib("Net", .target("Core"), .target("TestSupport")).with(fingerprint: "Net@2")])
    ])
    let result = analyze([.modified("Package.swift")], base: appGraph, head: head)
    #expect(result.reasons("Net") == ["Package.swift: entry changed"])
    #expect(result.targetNames == ["Api", "ApiTests", "Net", "NetTests"])
  }

  @Test func packageSettingsChangeEveryTargetOfThatPackageOnly() {
    let base = workspace()
    var head = base
    head.packages[2].packageFingerprint = "tools 6.0; macOS 14"  // Packages/Shared
    let result = analyze([.modified("Packages/Shared/Package.swift")], base: base, head: head)
    let reason = "Package.swift: package settings changed (platforms, tools version, …)"
    #expect(result.reasons("Shared", package: "Packages/Shared") == [reason])
    #expect(result.reasons("Extra", package: "Packages/Shared") == [reason])
    #expect(result.reasons("SharedTests", package: "Packages/Shared") == [reason, "depends on Shared"])
    #expect(result.reasons("AppTests") == ["depends on App"])
  }

  @Test func newTestTargetIsSelected() {
    let head = PackageGraph(packages: [appPackage(adding: [test("ClientTests", .target("Net"))])])
    let result = analyze([.added("Tests/ClientTests/A.swift"), .modified("Package.swift")], base: appGraph, head: head)
    #expect(result.testNames == ["ClientTests"])
    #expect(result.reasons("ClientTests") == ["changed Tests/ClientTests/A.swift", "Package.swift: new target"])
  }

  @Test func removedTestTargetIsReportedNotSelected() throws {
    let base = PackageGraph(packages: [appPackage(adding: [test("OldTests", .target("Net"))])])
    let result = analyze(
      [.deleted("Tests/OldTests/A.swift"), .modified("Package.swift")], base: base, head: appGraph)
    #expect(result.targets.isEmpty)
    let removed = try #require(result.removedTargets.first)
    #expect(result.removedTargets.count == 1)
    #expect(removed.name == "OldTests")
    #expect(removed.reasons == ["removed from Package.swift", "deleted Tests/OldTests/A.swift"])
  }

  @Test func newPackageChangesAllItsTargets() {
    let head = PackageGraph(
      packages: appGraph.packages + [pkg("Tools/Gen", [lib("Gen"), test("GenTests", .target("Gen"))])])
    let result = analyze([.added("Tools/Gen/Package.swift")], base: appGraph, head: head)
    #expect(
      result.targets.map(\.ref) == [
        TargetRef(package: "Tools/Gen", name: "Gen"), TargetRef(package: "Tools/Gen", name: "GenTests"),
      ])
    #expect(result.reasons("Gen", package: "Tools/Gen") == ["Package.swift: new package"])
  }

  @Test func changedPackageDependencyChangesTheTargetsUsingItsProducts() {
    func graph(_ version: String) -> PackageGraph {
      PackageGraph(packages: [
        pkg(
          ".",
          [
            lib("Parser", .product("Yams", package: "Yams")), lib("Net"),
            test("ParserTests", .target("Parser")), test("NetTests", .target("Net")),
          ], dependencies: [remote("yams", version: version)])
      ])
    }
    let result = analyze([.modified("Package.swift")], base: graph("from: 5.0.0"), head: graph("from: 6.0.0"))
    #expect(result.reasons("Parser") == ["Package.swift: dependency yams changed"])
    #expect(result.testNames == ["ParserTests"])
  }

  @Test func productWhoseTargetListChangedChangesItsUsers() {
    let base = workspace()
    let head = workspace(sharedProduct: ["Shared", "Extra"])
    let result = analyze([.modified("Packages/Shared/Package.swift")], base: base, head: head)
    #expect(result.reasons("App") == ["Package.swift: product Shared changed", "depends on Packages/Feature:Feature"])
    #expect(result.reasons("Feature", package: "Packages/Feature") == ["Package.swift: product Shared changed"])
    #expect(result.reasons("Shared", package: "Packages/Shared") == nil)
  }

  @Test func pluginUsageIsAnEdge() {
    var lint = lib("Core")
    lint.plugins = [.target("Lint")]
    let graph = PackageGraph(packages: [
      pkg(
        ".",
        [
          lint, TargetSpec(name: "Lint", kind: .plugin, dependencies: [], fingerprint: ""),
          test("CoreTests", .target("Core")),
        ])
    ])
    let result = analyze([.modified("Plugins/Lint/Plugin.swift")], base: graph)
    #expect(result.targetNames == ["Core", "CoreTests", "Lint"])
    #expect(result.reasons("Core") == ["depends on Lint"])
  }
}
