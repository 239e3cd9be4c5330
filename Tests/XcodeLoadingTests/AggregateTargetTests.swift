import Affected
import PackageModel
import Testing
import XcodeFixtures
import XcodeModel

/// Aggregate (`PBXAggregateTarget`) and legacy (`PBXLegacyTarget`) targets are graph nodes of kind
/// `aggregate` with their dependencies (docs/DESIGN.md, rule 12): `App` depends on `Generate` (a script
/// reading `Schema/api.json`) and on `Native` (`make` in `Native/`).
@Suite struct AggregateTargetTests {
  static func app(arguments: String = "$(ACTION)") -> ThinApp {
    ThinApp { app in
      let generate = app.project.aggregateTarget(
        "Generate", scriptInputs: ["$(SRCROOT)/Schema/api.json", "$(DERIVED_FILE_DIR)/api.swift"])
      let native = app.project.legacyTarget(
        "Native", tool: "/usr/bin/make", arguments: arguments, workingDirectory: "$(PROJECT_DIR)/Native")
      app.project.aggregateTarget("Everything", scriptInputs: [], dependencies: [generate])
      let source = app.project.file("App.swift", in: app.project.group("App"))
      let shell = app.project.target("App", .app, sources: [source], dependencies: [generate, native])
      app.project.target("AppTests", .unitTest, host: shell)
      app.files["App/App/App.swift"] = ""
      app.files["App/Schema/api.json"] = "{}"
      app.files["App/Native/Makefile"] = ""
      app.files["App/Native/lib.c"] = ""
    }
  }

  @Test func theyAreNodesWithTheirDependencies() throws {
    let project = try #require(try mergedGraph(Self.app()).package(at: "App/MyApp.xcodeproj"))
    #expect(project.target(named: "Generate")?.kind == .aggregate)
    #expect(project.target(named: "Native")?.kind == .aggregate)
    #expect(project.target(named: "Everything")?.dependencies == [.target("Generate")])
    let app = try #require(project.target(named: "App"))
    #expect(app.dependencies.contains(.target("Generate")) && app.dependencies.contains(.target("Native")))
  }

  @Test func anAggregatesScriptInputSelectsItAndWhatDependsOnIt() throws {
    let app = Self.app()
    let result = try analyze(base: app, head: app, changes: [modified("App/Schema/api.json")])
    #expect(result.byName["App/MyApp.xcodeproj:Generate"] == ["changed App/Schema/api.json"])
    #expect(result.byName["App/MyApp.xcodeproj:Everything"] != nil)
    #expect(result.byName["App/MyApp.xcodeproj:App"] != nil)
    #expect(result.testNames == ["AppTests"])
  }

  @Test func aFileInALegacyTargetsFolderSelectsIt() throws {
    let app = Self.app()
    let result = try analyze(base: app, head: app, changes: [modified("App/Native/lib.c")])
    #expect(result.byName["App/MyApp.xcodeproj:Native"] == ["changed App/Native/lib.c"])
    #expect(result.byName["App/MyApp.xcodeproj:Generate"] == nil)
    #expect(result.testNames == ["AppTests"])
  }

  @Test func aLegacyTargetsArgumentsAreItsEntry() throws {
    let result = try analyze(
      base: Self.app(), head: Self.app(arguments: "-j8 $(ACTION)"),
      changes: [modified("App/MyApp.xcodeproj/project.pbxproj")])
    #expect(result.byName["App/MyApp.xcodeproj:Native"] == ["project.pbxproj: entry changed"])
    #expect(result.byName["App/MyApp.xcodeproj:Generate"] == nil)
  }
}
