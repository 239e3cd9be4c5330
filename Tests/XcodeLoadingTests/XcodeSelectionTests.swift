import Affected
import PackageModel
import RippleCore
import Testing
import XcodeFixtures
import XcodeLoading
import XcodeModel

/// The rules of docs/DESIGN.md, rule 12, through the real reader and the pure analysis.
@Suite struct XcodeSelectionTests {
  let app = ThinApp()

  @Test func projectTargetsAreNodesOfThePackageAtTheProjectPath() throws {
    let graph = try mergedGraph(app)
    let project = try #require(graph.package(at: "App/MyApp.xcodeproj"))
    #expect(project.isXcodeProject)
    #expect(project.targets.map(\.name).sorted() == ["MyApp", "MyAppTests", "MyAppUITests", "Widget"])
  }

  @Test func anAppSourceSelectsTheAppAndTheTestsHostedInIt() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/MyApp/ContentView.swift")])
    #expect(result.byName["App/MyApp.xcodeproj:MyApp"] == ["changed App/MyApp/ContentView.swift"])
    #expect(result.byName["App/MyApp.xcodeproj:MyAppTests"] == ["depends on MyApp"])
    #expect(result.testNames == ["MyAppTests", "MyAppUITests"])
    #expect(!result.runAll)
  }

  @Test func aLocalizedResourceInAVariantGroupSelectsTheApp() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/MyApp/de.lproj/Localizable.strings")])
    #expect(result.byName["App/MyApp.xcodeproj:MyApp"] != nil)
  }

  @Test func infoPlistAndEntitlementsBelongToTheirTarget() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/MyApp/MyApp.entitlements")])
    #expect(result.byName["App/MyApp.xcodeproj:MyApp"] == ["changed App/MyApp/MyApp.entitlements"])
  }

  @Test func aPackageChangeReachesTheAppThroughItsProductDependency() throws {
    let result = try analyze(base: app, head: app, changes: [modified("Packages/Core/Sources/Core/Core.swift")])
    #expect(result.byName["App/MyApp.xcodeproj:MyApp"] == ["depends on Packages/Core:Feature"])
    #expect(result.testNames == ["CoreTests", "MyAppTests", "MyAppUITests"])
  }

  @Test func aFileOfASynchronisedFolderSelectsOnlyThatTarget() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/MyAppTests/AppTests.swift")])
    #expect(result.targets.map(\.name) == ["MyAppTests"])
  }

  @Test func aMembershipExceptionIsNotTheTargetsFile() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/MyAppTests/Fixtures/big.json")])
    #expect(result.runAll)
    #expect(result.runAllReasons == ["unowned file App/MyAppTests/Fixtures/big.json"])
  }

  @Test func aChangedTargetEntrySelectsThatTarget() throws {
    let head = ThinApp { app in
      app.project.target("Unrelated", .framework)
    }
    let result = try analyze(base: app, head: head, changes: [modified("App/MyApp.xcodeproj/project.pbxproj")])
    #expect(result.byName["App/MyApp.xcodeproj:Unrelated"] == ["project.pbxproj: new target"])
    #expect(result.byName["App/MyApp.xcodeproj:MyApp"] == nil)
    #expect(!result.runAll)
  }

  @Test func aTestBundleSettingChangesOnlyThatBundle() throws {
    let head = ThinApp()
    var text = head.files[ThinApp.projectPath + "/project.pbxproj"]!
    // The UI tests' only build settings block names TEST_TARGET_NAME; give it one more setting.
    text = text.replacingOccurrences(
      of: "TEST_TARGET_NAME = MyApp;", with: "TEST_TARGET_NAME = MyApp;\n\t\t\t\tSWIFT_STRICT_CONCURRENCY = complete;")
    var changed = head
    changed.files[ThinApp.projectPath + "/project.pbxproj"] = text
    let result = try analyze(base: app, head: changed, changes: [modified("App/MyApp.xcodeproj/project.pbxproj")])
    #expect(result.byName["App/MyApp.xcodeproj:MyAppUITests"] == ["project.pbxproj: entry changed"])
    #expect(result.targets.count == 1)
  }

  @Test func aProjectWideSettingChangesEveryTarget() throws {
    var head = ThinApp()
    head.project.projectSettings["SWIFT_VERSION"] = "6.0"
    head.files[ThinApp.projectPath + "/project.pbxproj"] = head.project.text()
    let result = try analyze(base: app, head: head, changes: [modified("App/MyApp.xcodeproj/project.pbxproj")])
    #expect(result.byName["App/MyApp.xcodeproj:Widget"] == ["project.pbxproj: project settings changed"])
    #expect(result.testNames == ["MyAppTests", "MyAppUITests"])
  }

  @Test func aProjectPinChangeSelectsTheTargetsUsingThatPackage() throws {
    let path = "App/MyApp.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"
    let result = try analyze(
      base: app, head: app, changes: [modified(path)],
      resolved: [
        path: (
          ResolvedPins(pins: ["swift-collections": "1.1.0@a"]), ResolvedPins(pins: ["swift-collections": "1.2.0@b"])
        )
      ])
    #expect(result.byName["App/MyApp.xcodeproj:Widget"] == ["Package.resolved: swift-collections 1.1.0@a → 1.2.0@b"])
    #expect(result.byName["App/MyApp.xcodeproj:MyApp"] == ["depends on Widget"])
    #expect(!result.runAll)
  }

  @Test func aSharedSchemeSelectsTheTargetsItTests() throws {
    let result = try analyze(
      base: app, head: app, changes: [modified("App/MyApp.xcodeproj/xcshareddata/xcschemes/MyApp.xcscheme")])
    // The UI tests are skipped in that scheme; the package's tests are tested by it.
    #expect(result.testNames == ["CoreTests", "MyAppTests"])
    #expect(!result.runAll)
  }

  @Test func aTestPlanSelectsTheTargetsItLists() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/MyApp/MyApp.xctestplan")])
    #expect(result.testNames == ["MyAppTests", "MyAppUITests"])
  }

  @Test func userDataInTheProjectSelectsNothing() throws {
    let result = try analyze(
      base: app, head: app, changes: [modified("App/MyApp.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/x.plist")])
    #expect(result.targets.isEmpty)
    #expect(!result.runAll)
  }

  @Test func aFileOfNoTargetIsStillUnowned() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/README.md")])
    #expect(result.runAll)
  }

  @Test func aFolderReferenceHoldingAPackageIsALocalPackage() throws {
    let head = ThinApp { app in
      app.project = PBXProjFixture()
      _ = app.project.folderReference("../Packages/Core")
      let source = app.project.file("Main.swift", in: app.project.group("Legacy"))
      app.project.target("Legacy", .app, sources: [source], products: [.init("Feature", package: nil)])
    }
    let graph = try mergedGraph(head)
    let project = try #require(graph.package(at: ThinApp.projectPath))
    #expect(project.dependencies.map(\.location) == [.local(path: "Packages/Core")])
    let result = AffectedAnalysis.analyze(
      AffectedInput(changes: [modified("Packages/Core/Sources/Feature/Feature.swift")], base: graph, head: graph))
    #expect(result.byName["App/MyApp.xcodeproj:Legacy"] == ["depends on Packages/Core:Feature"])
  }

  @Test func anUnnamedProductComesFromAnyLocalPackageVendingIt() throws {
    let head = ThinApp { app in
      app.project = PBXProjFixture()
      let source = app.project.file("Main.swift", in: app.project.group("Loose"))
      app.project.target("Loose", .app, sources: [source], products: [.init("Core", package: nil)])
    }
    let graph = try mergedGraph(head)
    let result = AffectedAnalysis.analyze(
      AffectedInput(changes: [modified("Packages/Core/Sources/Core/Core.swift")], base: graph, head: graph))
    #expect(result.byName["App/MyApp.xcodeproj:Loose"] == ["depends on Packages/Core:Core"])
  }

  @Test func aRemovedTargetSaysItLeftTheProject() throws {
    let head = ThinApp { app in
      app.project = PBXProjFixture()
    }
    let result = try analyze(base: app, head: head, changes: [modified("App/MyApp.xcodeproj/project.pbxproj")])
    #expect(result.removedTargets.first?.reasons.first == "removed from project.pbxproj")
  }

  @Test func jsonShowsTheProjectAsThePackage() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/MyApp/App.swift")])
    let report = AffectedReport(result: result, base: "b", head: "worktree", mergeBase: nil, changedFiles: [])
    let json = AffectedFormatter.json(report)
    #expect(json.contains("\"package\" : \"App/MyApp.xcodeproj\""))
    #expect(json.contains("\"kind\" : \"app\""))
    #expect(
      AffectedFormatter.text(report, color: false).contains("App/MyApp.xcodeproj\n  MyAppTests  depends on MyApp"))
    let dot = AffectedFormatter.dot(graph: try mergedGraph(app), report)
    #expect(dot.contains("\"App/MyApp.xcodeproj:MyAppTests\" -> \"App/MyApp.xcodeproj:MyApp\";"))
    #expect(dot.contains("\"App/MyApp.xcodeproj:MyApp\" -> \"Packages/Core:Feature\";"))
    #expect(
      result.explanation(for: "MyAppTests") == [
        "changed App/MyApp/App.swift → MyApp", "MyApp → MyAppTests (depends on MyApp)",
      ])
  }

  @Test func aBrokenProjectIsReportedAndTheRestStillLoads() throws {
    var broken = ThinApp()
    broken.files[ThinApp.projectPath + "/project.pbxproj"] = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {"
    let snapshot = XcodeLoader.load(broken.tree(), excludePackages: [])
    #expect(snapshot.failedProjects == [ThinApp.projectPath])
    #expect(snapshot.schemes.count == 2)
    #expect("\(snapshot.failures.first!)".contains("App/MyApp.xcodeproj/project.pbxproj"))
  }

  @Test func discoverySkipsBuildFoldersAndExcludedPackages() {
    let files = [
      "A/App.xcodeproj/project.pbxproj", ".build/checkouts/x/X.xcodeproj/project.pbxproj",
      "P/.swiftpm/xcode/package.xcworkspace/contents.xcworkspacedata", "Vendor/Lib/Lib.xcodeproj/project.pbxproj",
      "A/App.xcodeproj/project.xcworkspace/contents.xcworkspacedata", "W.xcworkspace/contents.xcworkspacedata",
    ]
    let found = XcodeDiscovery.containers(in: files, excludePackages: [Glob("Vendor/**")])
    #expect(found.projects == ["A/App.xcodeproj"])
    #expect(found.workspaces == ["W.xcworkspace"])
  }
}
