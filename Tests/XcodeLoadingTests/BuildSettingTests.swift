import Affected
import Foundation
import PackageModel
import Testing
import XcodeFixtures
import XcodeModel

@testable import XcodeLoading

/// Build settings as Xcode resolves them (docs/DESIGN.md, rule 12): `OTHER_LDFLAGS` implicit
/// dependencies, xcconfig files and their includes, variables in paths, test hosts named by a variable.
/// The workspace is `ImplicitDependencyTests`': `App` of `App/MyApp.xcodeproj` and
/// `Library/Library.xcodeproj` (the framework `Library`, the static library `Core`, `LibraryTests`), but
/// `App` links nothing through a build phase.
@Suite struct BuildSettingTests {
  static let flagReason =
    "links Library.framework through OTHER_LDFLAGS (-framework Library), the product of "
    + "Library/Library.xcodeproj:Library, implicitly"

  /// `configs`: xcconfig files by their name in `App/Config` (the app target's is `App.xcconfig` when
  /// `appConfig`, the project's `Project.xcconfig` when `projectConfig`); `extraTargets` adds targets to
  /// the app project.
  static func app(
    appSettings: [String: String] = [:], projectSettings: [String: String] = [:], appConfig: Bool = false,
    projectConfig: Bool = false, configs: [String: String] = [:],
    extraTargets: (inout PBXProjFixture, _ app: String) -> Void = { _, _ in }
  ) -> ThinApp {
    ThinApp { app in
      var library = PBXProjFixture()
      let group = library.group("Library")
      let source = library.file("Library.swift", in: group)
      let coreGroup = library.group("Core")
      let core = library.file("Core.swift", in: coreGroup)
      let tests = library.group("LibraryTests")
      let test = library.file("LibraryTests.swift", in: tests)
      let framework = library.target("Library", .framework, sources: [source])
      library.target("Core", .staticLibrary, sources: [core])
      library.target("LibraryTests", .unitTest, sources: [test], dependencies: [framework])
      app.files["Library/Library.xcodeproj/project.pbxproj"] = library.text()
      app.files["Library/Library/Library.swift"] = ""
      app.files["Library/Core/Core.swift"] = ""
      app.files["Library/LibraryTests/LibraryTests.swift"] = ""

      let configGroup = app.project.group("Config")
      for (name, text) in configs { app.files["App/Config/" + name] = text }
      let appConfigFile = appConfig ? app.project.file("App.xcconfig", in: configGroup) : nil
      if projectConfig { app.project.projectBaseConfiguration = app.project.file("Project.xcconfig", in: configGroup) }
      for (key, value) in projectSettings { app.project.projectSettings[key] = value }
      let appGroup = app.project.group("App")
      let appSource = app.project.file("App.swift", in: appGroup)
      app.files["App/App/App.swift"] = ""
      let shell = app.project.target(
        "App", .app, sources: [appSource], settings: appSettings, baseConfiguration: appConfigFile)
      app.project.target("AppTests", .unitTest, host: shell)
      app.project.target("AppUITests", .uiTest, host: shell)
      extraTargets(&app.project, shell)
      app.files["MyApp.xcworkspace/contents.xcworkspacedata"] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace\n   version = \"1.0\">\n"
        + "   <FileRef\n      location = \"group:App/MyApp.xcodeproj\">\n   </FileRef>\n"
        + "   <FileRef\n      location = \"group:Library/Library.xcodeproj\">\n   </FileRef>\n</Workspace>\n"
    }
  }

  static func snapshot(_ app: ThinApp) -> XcodeSnapshot { XcodeLoader.load(app.tree(), excludePackages: []) }

  static func target(_ name: String, in app: ThinApp) throws -> XcodeTarget {
    try #require(snapshot(app).projectsByPath["App/MyApp.xcodeproj"]?.target(named: name))
  }

  static func libraryEdit(_ app: ThinApp) throws -> AffectedResult {
    try analyze(base: app, head: app, changes: [modified("Library/Library/Library.swift")])
  }

  // MARK: - OTHER_LDFLAGS

  @Test func aFrameworkFlagIsAnImplicitEdgeThatExplainNames() throws {
    let app = Self.app(appSettings: ["OTHER_LDFLAGS": "$(inherited) -ObjC -framework Library"])
    let result = try Self.libraryEdit(app)
    #expect(result.byName["App/MyApp.xcodeproj:App"] == [Self.flagReason])
    #expect(result.testNames == ["LibraryTests", "AppTests", "AppUITests"])
    #expect(
      try #require(result.explanation(for: "AppTests")) == [
        "changed Library/Library/Library.swift → Library", "Library → App (\(Self.flagReason))",
        "App → AppTests (depends on App)",
      ])
  }

  @Test func withoutTheFlagTheLibraryEditStaysInItsProject() throws {
    let result = try Self.libraryEdit(Self.app(appSettings: ["OTHER_LDFLAGS": "-ObjC -framework UIKit"]))
    #expect(result.byName["App/MyApp.xcodeproj:App"] == nil)
    #expect(result.testNames == ["LibraryTests"])
  }

  @Test func projectFlagsReachATargetThroughInherited() throws {
    let app = Self.app(
      appSettings: ["OTHER_LDFLAGS": "$(inherited) -ObjC"],
      projectSettings: ["OTHER_LDFLAGS": "-weak_framework Library"])
    let result = try Self.libraryEdit(app)
    #expect(
      result.byName["App/MyApp.xcodeproj:App"] == [
        "links Library.framework through OTHER_LDFLAGS (-weak_framework Library), the product of "
          + "Library/Library.xcodeproj:Library, implicitly"
      ])
  }

  @Test func aTargetValueWithoutInheritedReplacesTheProjects() throws {
    let app = Self.app(
      appSettings: ["OTHER_LDFLAGS": "-ObjC"], projectSettings: ["OTHER_LDFLAGS": "-framework Library"])
    #expect(try Self.target("App", in: app).linkerFlagProducts.isEmpty)
    // A target without a value of its own has the project's.
    #expect(
      try Self.target("AppTests", in: app).linkerFlagProducts == [
        LinkerFlags.Use(product: "Library.framework", flag: "-framework Library")
      ])
    #expect(try Self.libraryEdit(app).byName["App/MyApp.xcodeproj:App"] == nil)
  }

  @Test func aLibraryFlagReachesTheStaticLibraryBuildingIt() throws {
    let app = Self.app(appSettings: ["OTHER_LDFLAGS": "-Wl,-lCore"])
    let result = try analyze(base: app, head: app, changes: [modified("Library/Core/Core.swift")])
    #expect(
      result.byName["App/MyApp.xcodeproj:App"] == [
        "links libCore.a through OTHER_LDFLAGS (-lCore), the product of Library/Library.xcodeproj:Core, implicitly"
      ])
    #expect(result.testNames == ["AppTests", "AppUITests"])
  }

  @Test func aConditionalFlagIsAnEdgeToo() throws {
    let app = Self.app(appSettings: ["OTHER_LDFLAGS[sdk=iphoneos*]": "$(inherited) -framework Library"])
    #expect(try Self.libraryEdit(app).byName["App/MyApp.xcodeproj:App"] == [Self.flagReason])
  }

  @Test func aFlagMadeOfSettingsIsExpanded() throws {
    let app = Self.app(appSettings: [
      "OTHER_LDFLAGS": "-framework ${LINKED}", "LINKED": "$(LINKED_BASE:default=Library)",
    ])
    #expect(try Self.libraryEdit(app).byName["App/MyApp.xcodeproj:App"] == [Self.flagReason])
  }

  @Test func theFlagsTheLinkerSees() {
    func products(_ words: [String]) -> [String] { LinkerFlags.uses(in: words).map { "\($0.product) \($0.flag)" } }
    #expect(
      products(["-framework", "A", "-weak_framework", "B", "-ObjC"]) == [
        "A.framework -framework A", "B.framework -weak_framework B",
      ])
    #expect(products(["-lz"]) == ["libz.a -lz", "libz.dylib -lz"])
    #expect(
      products(["-l", "z", "-weak-lc++"]) == [
        "libz.a -l z", "libz.dylib -l z", "libc++.a -weak-lc++", "libc++.dylib -weak-lc++",
      ])
    #expect(
      products(["-Wl,-framework,C", "-Xlinker", "-reexport_framework", "-Xlinker", "D"]) == [
        "C.framework -framework C", "D.framework -reexport_framework D",
      ])
    #expect(
      products(["-framework", "E,_debug"]) == [
        "E.framework -framework E,_debug", "E_debug.framework -framework E,_debug",
      ])
    #expect(products(["/build/Products/libF.a", "-L/build", "-framework"]) == ["libF.a /build/Products/libF.a"])
    #expect(BuildSettingWords.split(#"-framework "My Lib" 'a b' c\ d"#) == ["-framework", "My Lib", "a b", "c d"])
  }

  // MARK: - Evaluation

  @Test func inheritedConditionsAndOperators() {
    let settings = BuildSettings(
      assignments: [
        BuildSettingAssignment(name: "FLAGS", conditional: false, value: "-a"),
        BuildSettingAssignment(name: "FLAGS", conditional: false, value: "$(inherited) -b"),
        BuildSettingAssignment(name: "FLAGS", conditional: true, value: "$(inherited) -c"),
        BuildSettingAssignment(name: "NAME", conditional: false, value: "$(TARGET_NAME:lower)-$(SUFFIX)"),
        BuildSettingAssignment(name: "PICK", conditional: false, value: "$(CHOICE_$(CONFIGURATION))"),
        BuildSettingAssignment(name: "CHOICE_Debug", conditional: false, value: "debug"),
        BuildSettingAssignment(name: "LOOP", conditional: false, value: "$(LOOP)"),
      ], builtins: ["TARGET_NAME": "App", "CONFIGURATION": "Debug"])
    #expect(settings.values("FLAGS").map(\.text) == ["-a -b -c", "-a -b"])
    #expect(settings.values("NAME") == [BuildSettings.Value(text: "app-", unresolved: ["SUFFIX"])])
    #expect(settings.values("PICK").map(\.text) == ["debug"])
    #expect(settings.values("UNSET").isEmpty)
    #expect(settings.values("LOOP").allSatisfy { !$0.unresolved.isEmpty })
    #expect(settings.expand("${TARGET_NAME}.app").map(\.text) == ["App.app"])
  }

  @Test func settingsReferringToEachOtherEndUnresolvedAndLongChainsResolve() {
    let cycle = BuildSettings(
      assignments: [
        BuildSettingAssignment(name: "PING", conditional: false, value: "$(PONG)$(PONG)$(PONG)"),
        BuildSettingAssignment(name: "PONG", conditional: false, value: "$(PING)$(PING)$(PING)"),
      ], builtins: [:])
    #expect(cycle.values("PING").allSatisfy { $0.unresolved.contains("PING") })
    // A chain of 25 settings, each naming the next: no cycle, so it resolves.
    var chain = (0..<25).map {
      BuildSettingAssignment(name: "C\($0)", conditional: false, value: "$(C\($0 + 1))/\($0)")
    }
    chain.append(BuildSettingAssignment(name: "C25", conditional: false, value: "x"))
    let values = BuildSettings(assignments: chain, builtins: [:]).values("C0")
    #expect(
      values == [
        BuildSettings.Value(text: "x/" + (0..<25).reversed().map(String.init).joined(separator: "/"), unresolved: [])
      ])
  }

  // MARK: - xcconfig files

  @Test func anXcconfigAndItsIncludeFeedTheFlags() throws {
    let app = Self.app(
      appConfig: true,
      configs: [
        "App.xcconfig": "// App\n#include \"Shared.xcconfig\"\nOTHER_LDFLAGS = $(inherited) -ObjC // linked\n",
        "Shared.xcconfig": "OTHER_LDFLAGS = -framework Library;\n",
      ])
    #expect(try Self.libraryEdit(app).byName["App/MyApp.xcodeproj:App"] == [Self.flagReason])
    #expect(Self.snapshot(app).warnings.isEmpty)
    // The included file is the target's: its change selects the app and its tests.
    let result = try analyze(base: app, head: app, changes: [modified("App/Config/Shared.xcconfig")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == ["changed App/Config/Shared.xcconfig"])
    #expect(result.testNames == ["AppTests", "AppUITests"])
  }

  @Test func theProjectsXcconfigIsEveryTargetsAndUnderItsSettings() throws {
    let app = Self.app(
      appSettings: ["OTHER_LDFLAGS": "$(inherited)"], projectConfig: true,
      configs: ["Project.xcconfig": "OTHER_LDFLAGS = -framework Library\n"])
    #expect(try Self.libraryEdit(app).byName["App/MyApp.xcodeproj:App"] == [Self.flagReason])
    let result = try analyze(base: app, head: app, changes: [modified("App/Config/Project.xcconfig")])
    // MyApp embeds Widget, which the same xcconfig changed: both reasons.
    #expect(result.byName["App/MyApp.xcodeproj:MyApp"] == ["changed App/Config/Project.xcconfig", "depends on Widget"])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == ["changed App/Config/Project.xcconfig"])
  }

  @Test func anXcconfigEditThatAddsAFlagAddsTheEdge() throws {
    let before = Self.app(appConfig: true, configs: ["App.xcconfig": "OTHER_LDFLAGS = -ObjC\n"])
    let after = Self.app(appConfig: true, configs: ["App.xcconfig": "OTHER_LDFLAGS = -ObjC -framework Library\n"])
    let base = try mergedGraph(before).package(at: "App/MyApp.xcodeproj")?.target(named: "App")
    let head = try mergedGraph(after).package(at: "App/MyApp.xcodeproj")?.target(named: "App")
    #expect(base?.implicitEdges == nil)
    #expect(head?.implicitEdges == ["Library/Library.xcodeproj:Library": Self.flagReason])
  }

  @Test func aMissingIncludeIsAWarningNamingFileAndLineAndAnOptionalOneIsNot() throws {
    let app = Self.app(
      appConfig: true,
      configs: [
        "App.xcconfig":
          "#include? \"Optional.xcconfig\"\n#include \"Missing.xcconfig\"\nOTHER_LDFLAGS = -framework Library\n"
      ])
    #expect(
      Self.snapshot(app).warnings == [
        "`App/Config/App.xcconfig` line 2: `#include \"Missing.xcconfig\"` names `App/Config/Missing.xcconfig`, "
          + "which is not in the tree (Xcode stops the build there); its settings are not read."
      ])
    // The rest of the file still counts; the missing files are the target's (adding one selects it).
    #expect(try Self.libraryEdit(app).byName["App/MyApp.xcodeproj:App"] == [Self.flagReason])
    let target = try Self.target("App", in: app)
    #expect(target.paths.contains("App/Config/Missing.xcconfig"))
    #expect(target.paths.contains("App/Config/Optional.xcconfig"))
  }

  @Test func aMissingBaseConfigurationIsAWarning() {
    let app = Self.app(appConfig: true)
    #expect(
      Self.snapshot(app).warnings == [
        "`App/MyApp.xcodeproj` target App, configuration Debug: its base configuration file "
          + "`App/Config/App.xcconfig` is not in the tree; its settings are not read."
      ])
  }

  @Test func badLinesAndIncludeCyclesAreWarningsWithTheirLines() {
    let app = Self.app(
      appConfig: true,
      configs: [
        "App.xcconfig":
          "OTHER_LDFLAGS -framework Library\n#include Shared.xcconfig\n#import \"x\"\n#include \"Shared.xcconfig\"\n",
        "Shared.xcconfig": "#include \"App.xcconfig\"\n",
      ])
    #expect(
      Self.snapshot(app).warnings == [
        "`App/Config/App.xcconfig` line 1: not a setting (`NAME = value`) or an `#include`: "
          + "`OTHER_LDFLAGS -framework Library`; the line is ignored.",
        "`App/Config/App.xcconfig` line 2: `#include` needs a path in double quotes: `#include Shared.xcconfig`; "
          + "the line is ignored.",
        "`App/Config/App.xcconfig` line 3: unknown directive `#import \"x\"`; the line is ignored.",
        "`App/Config/Shared.xcconfig` line 1: `#include \"App.xcconfig\"` includes a file that includes it; it is "
          + "read once.",
      ])
  }

  @Test func anEditedXcconfigIsACacheMiss() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xcconfig-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    func load(_ app: ThinApp) -> XcodeSnapshot {
      XcodeCache.forgetRecent()
      return XcodeLoader.load(app.tree(), excludePackages: [], cache: XcodeCache(directory: directory))
    }
    var app = Self.app(
      appConfig: true,
      configs: ["App.xcconfig": "#include \"Shared.xcconfig\"\n#include \"Gone.xcconfig\"\n", "Shared.xcconfig": ""])
    let cold = load(app)
    let warm = load(app)
    #expect(!cold.fromCache && warm.fromCache)
    #expect(warm.warnings == cold.warnings && warm.warnings.count == 1)
    #expect(warm.projects == cold.projects)
    app.files["App/Config/Shared.xcconfig"] = "OTHER_LDFLAGS = -framework Library\n"
    let edited = load(app)
    #expect(!edited.fromCache)
    #expect(edited.projectsByPath["App/MyApp.xcodeproj"]?.target(named: "App")?.linkerFlagProducts.count == 1)
    // A missing include that appears is a miss too.
    app.files["App/Config/Gone.xcconfig"] = ""
    #expect(!load(app).fromCache)
    #expect(load(app).fromCache)
  }

  // MARK: - Variables in paths and hosts

  @Test func pathsUseTheProjectsTheTargetsAndXcconfigSettings() throws {
    let app = Self.app(
      appSettings: ["CODE_SIGN_ENTITLEMENTS": "${PROJECT_NAME}/$(PRODUCT_NAME).entitlements"], appConfig: true,
      configs: [
        "App.xcconfig":
          "INFO_FOLDER = Supporting\nINFOPLIST_FILE = $(SRCROOT)/$(INFO_FOLDER)/Info-$(CONFIGURATION).plist\n"
      ])
    let target = try Self.target("App", in: app)
    #expect(target.paths.contains("App/Supporting/Info-Debug.plist"))
    #expect(target.paths.contains("App/MyApp/App.entitlements"))
    let result = try analyze(base: app, head: app, changes: [modified("App/Supporting/Info-Debug.plist")])
    #expect(result.byName["App/MyApp.xcodeproj:App"] == ["changed App/Supporting/Info-Debug.plist"])
  }

  @Test func anUnresolvableVariableLeavesThePathOutWithAWarning() throws {
    let app = Self.app(appSettings: [
      "INFOPLIST_FILE": "$(MYSTERY)/Info.plist", "CODE_SIGN_ENTITLEMENTS": "$(BUILT_PRODUCTS_DIR)/x",
    ])
    #expect(
      Self.snapshot(app).warnings == [
        "`App/MyApp.xcodeproj` target App: `INFOPLIST_FILE` uses `$(MYSTERY)`, which no build setting or "
          + "xcconfig file Ripple read defines; that path is not owned by the target (a change to it counts as "
          + "unowned)."
      ])
    #expect(try Self.target("App", in: app).paths.allSatisfy { !$0.hasSuffix("Info.plist") && !$0.hasSuffix("/x") })
  }

  @Test func aTestHostNamedThroughASettingIsTheHost() throws {
    let app = Self.app { project, _ in
      project.target(
        "HostedTests", .unitTest,
        settings: ["TEST_HOST": "$(BUILT_PRODUCTS_DIR)/$(HOST_APP).app/$(HOST_APP)", "HOST_APP": "App"])
    }
    #expect(try Self.target("HostedTests", in: app).host == "App")
    let result = try analyze(base: app, head: app, changes: [modified("App/App/App.swift")])
    #expect(result.testNames.contains("HostedTests"))
  }

  @Test func aTestHostRippleCannotResolveIsEveryApp() throws {
    let app = Self.app { project, _ in
      project.target("HostedTests", .unitTest, settings: ["TEST_HOST": "$(BUILT_PRODUCTS_DIR)/$(NOWHERE).app/x"])
    }
    let target = try Self.target("HostedTests", in: app)
    #expect(target.host == nil)
    #expect(Set(target.dependencies) == ["App", "MyApp"])
    #expect(
      Self.snapshot(app).warnings == [
        "`App/MyApp.xcodeproj` target HostedTests: `TEST_HOST` uses a build setting Ripple cannot resolve; every "
          + "app of the project (App, MyApp) is taken as its host."
      ])
  }
}
