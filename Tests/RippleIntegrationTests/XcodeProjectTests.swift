import Foundation
import TestSupport
import Testing
import XcodeFixtures

/// A thin Xcode app over a local package, end to end through the `ripple` binary: a real git repository,
/// the package's manifest evaluated by SwiftPM, the project written as real pbxproj text
/// (docs/DESIGN.md, rule 12).
@Suite(.serialized, .exclusive(.cooperativeThread)) struct XcodeProjectTests {
  static let coreManifest = """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
      name: "Core",
      products: [.library(name: "Core", targets: ["Core"]), .library(name: "Feature", targets: ["Feature"])],
      targets: [
        .target(name: "Core"),
        .target(name: "Feature", dependencies: ["Core"]),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
      ]
    )

    """

  private func makeRepository(_ app: ThinAppFixture = ThinAppFixture()) throws -> TestRepository {
    let repo = try TestRepository.checkout()
    for (path, text) in app.files { try repo.write(path, text) }
    try repo.write("Packages/Core/Package.swift", Self.coreManifest)
    try repo.write("ripple.yml", "selection:\n  ignore: [\"**/*.md\"]\n")
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("Thin app over a local package")
    return repo
  }

  private func xcodebuild(_ arguments: [String], in repo: TestRepository) throws -> CommandResult {
    try RippleBinary.run(["affected", "--format", "xcodebuild"] + arguments, in: repo.root)
  }

  @Test func anAppEditSelectsTheAppsTestsNotEverything() throws {
    let repo = try makeRepository()
    try repo.append("App/MyApp/ContentView.swift", "// edit\n")
    let (tests, json) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(tests == ["App/MyApp.xcodeproj:MyAppTests", "App/MyApp.xcodeproj:MyAppUITests"])
    #expect(json["runAll"] as? Bool == false)
    let targets = try #require(json["targets"] as? [[String: Any]])
    let app = try #require(targets.first { $0["name"] as? String == "MyApp" })
    #expect(app["package"] as? String == "App/MyApp.xcodeproj")
    #expect(app["kind"] as? String == "app")
    #expect(app["reasons"] as? [String] == ["changed App/MyApp/ContentView.swift"])

    let result = try xcodebuild(["--scheme", "MyApp"], in: repo)
    #expect(result.status == 0)
    #expect(result.standardOutput == "-only-testing:MyAppTests\n")
    #expect(
      result.standardError.contains(
        "not tested by scheme MyApp (skipped, disabled or not listed there): App/MyApp.xcodeproj:MyAppUITests"))

    let explain = try RippleBinary.run(["affected", "--explain", "MyAppUITests"], in: repo.root)
    #expect(explain.standardOutput.contains("MyApp → MyAppUITests (depends on MyApp)"))
  }

  @Test func aPackageEditReachesTheAppAndTheSchemeTestsBoth() throws {
    let repo = try makeRepository()
    try repo.append("Packages/Core/Sources/Core/Core.swift", "public let version = 2\n")
    let (tests, _) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(
      tests == [
        "App/MyApp.xcodeproj:MyAppTests", "App/MyApp.xcodeproj:MyAppUITests", "Packages/Core:CoreTests",
      ])
    let result = try xcodebuild(["--scheme", "MyApp", "--project", "App/MyApp.xcodeproj"], in: repo)
    #expect(result.standardOutput == "-only-testing:MyAppTests\n-only-testing:CoreTests\n")
  }

  /// Xcode's implicit dependencies through `OTHER_LDFLAGS` set in an xcconfig file the project's
  /// configuration includes, end to end (docs/DESIGN.md, rule 12).
  @Test func aLinkerFlagOfAnIncludedXcconfigIsAnImplicitEdgeThatExplainNames() throws {
    let app = ThinAppFixture { app in
      var library = PBXProjFixture()
      let source = library.file("Library.swift", in: library.group("Library"))
      library.target("Library", .framework, sources: [source])
      app.files["Library/Library.xcodeproj/project.pbxproj"] = library.text()
      app.files["Library/Library/Library.swift"] = "public let library = 1\n"
      app.project.projectBaseConfiguration = app.project.file("MyApp.xcconfig", in: app.project.group("Config"))
      app.files["App/Config/MyApp.xcconfig"] = "#include \"Linked.xcconfig\"\n#include \"Missing.xcconfig\"\n"
      app.files["App/Config/Linked.xcconfig"] = "OTHER_LDFLAGS = $(inherited) -ObjC -framework Library\n"
    }
    let repo = try makeRepository(app)
    try repo.append("Library/Library/Library.swift", "// edit\n")
    let (tests, json) = try RippleBinary.affectedTests([], in: repo.root)
    #expect(tests == ["App/MyApp.xcodeproj:MyAppTests", "App/MyApp.xcodeproj:MyAppUITests"])
    let warnings = try #require(json["warnings"] as? [String])
    #expect(
      warnings.contains {
        $0.hasPrefix(
          "`App/Config/MyApp.xcconfig` line 2: `#include \"Missing.xcconfig\"` names `App/Config/Missing.xcconfig`")
      }, "\(warnings)")
    let explain = try RippleBinary.run(["affected", "--explain", "MyAppUITests"], in: repo.root)
    #expect(explain.status == 0)
    #expect(
      explain.standardOutput.contains(
        "(links Library.framework through OTHER_LDFLAGS (-framework Library), the product of "
          + "Library/Library.xcodeproj:Library, implicitly)"), "\(explain.standardOutput)")

    // An edit of the included file selects every target of the project.
    try repo.commitAll("Library edit")
    try repo.append("App/Config/Linked.xcconfig", "// comment\n")
    let (configTests, _) = try RippleBinary.affectedTests(["--base", "HEAD"], in: repo.root)
    #expect(configTests == ["App/MyApp.xcodeproj:MyAppTests", "App/MyApp.xcodeproj:MyAppUITests"])
  }

  @Test func committedHeadsAndTheOtherCommandsSeeTheProject() throws {
    let repo = try makeRepository()
    try repo.append("App/MyAppTests/AppTests.swift", "// more\n")
    try repo.commitAll("A test edit")
    let result = try xcodebuild(["--scheme", "MyApp", "--base", "HEAD~1", "--head", "HEAD"], in: repo)
    #expect(result.standardOutput == "-only-testing:MyAppTests\n")

    let graph = try RippleBinary.run(["graph", "--format", "json"], in: repo.root)
    #expect(graph.status == 0)
    #expect(graph.standardOutput.contains("\"path\" : \"App/MyApp.xcodeproj\""))
    #expect(graph.standardOutput.contains("\"kind\" : \"unitTest\""))

    // Without a `runner: xcodebuild` run, `ripple test` runs the package's tests and names the Xcode ones.
    try repo.append("Packages/Core/Sources/Core/Core.swift", "public let version = 3\n")
    let plan = try RippleBinary.run(["test", "--dry-run"], in: repo.root)
    #expect(plan.status == 0)
    #expect(plan.standardOutput.contains("Packages/Core: CoreTests"))
    #expect(!plan.standardOutput.contains("xcodeproj"))
    // Named like every selected target no run here can test (`--require-all` makes it a failure).
    #expect(
      plan.standardOutput.contains(": MyAppTests (an Xcode test bundle and no `runner: xcodebuild` run in test.runs"),
      "\(plan.standardOutput)")
  }

  @Test func theTestPlanCopyEnablesOnlyWhatIsSelected() throws {
    let repo = try makeRepository()
    try repo.append("App/MyApp/App.swift", "// edit\n")
    let plan = repo.root + "/selected.xctestplan"
    let result = try xcodebuild(["--scheme", "Planned", "--write-test-plan", "selected.xctestplan"], in: repo)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput == "-only-testing:MyAppTests\n")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: plan))) as? [String: Any])
    let targets = try #require(document["testTargets"] as? [[String: Any]])
    #expect(targets.map { $0["enabled"] as? Bool } == [nil, false])
    #expect(document["rippleUnknownKey"] != nil)
  }

  @Test func anEmptySelectionPrintsNothingAndSaysSo() throws {
    let repo = try makeRepository()
    try repo.append("App/README.md", "more\n")
    let result = try xcodebuild(["--scheme", "MyApp"], in: repo)
    #expect(result.status == 0)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("nothing to run"))
  }

  @Test func anUnknownSchemeListsTheSharedOnes() throws {
    let repo = try makeRepository()
    let result = try xcodebuild(["--scheme", "Nope"], in: repo)
    #expect(result.status == 2)
    #expect(result.standardError.contains("its shared schemes are: MyApp, Planned"))
  }

  @Test func twoProjectsNeedProject() throws {
    var second = PBXProjFixture()
    second.target("Other", .app)
    let repo = try makeRepository()
    try repo.write("Other/Other.xcodeproj/project.pbxproj", second.text())
    try repo.commitAll("A second project")
    let result = try xcodebuild(["--scheme", "MyApp"], in: repo)
    #expect(result.status == 2)
    #expect(result.standardError.contains("--project"))
    #expect(try xcodebuild(["--scheme", "MyApp", "--project", "App/MyApp.xcodeproj"], in: repo).status == 0)
  }

  @Test func anUnreadableProjectIsAnErrorOrEverythingUnderFallbackAll() throws {
    let repo = try makeRepository()
    try repo.write(ThinAppFixture.projectPath + "/project.pbxproj", "// !$*UTF8*$!\n{\n\tobjects = {\n")
    let failed = try RippleBinary.run(["affected"], in: repo.root)
    #expect(failed.status == 3)
    #expect(failed.standardError.contains("App/MyApp.xcodeproj/project.pbxproj"))

    let (tests, json) = try RippleBinary.affectedTests(["--fallback", "all"], in: repo.root)
    #expect(json["runAll"] as? Bool == true)
    #expect(tests == ["Packages/Core:CoreTests"])
    let reasons = try #require(json["runAllReasons"] as? [String])
    #expect(
      reasons.contains { $0.hasPrefix("--fallback all: The Xcode project file `App/MyApp.xcodeproj/project.pbxproj`") })
    let result = try xcodebuild(["--scheme", "MyApp", "--fallback", "all"], in: repo)
    #expect(result.status == 0)
    #expect(result.standardOutput == "-only-testing:MyAppTests\n-only-testing:CoreTests\n")
  }
}
