import Affected
import Foundation
import PackageModel
import Testing
import XcodeFixtures
import XcodeLoading
import XcodeModel

@Suite struct SchemeAndPlanTests {
  let app = ThinApp()
  let schemes = "App/MyApp.xcodeproj/xcshareddata/xcschemes/"

  private func scheme(_ name: String) throws -> XcodeScheme {
    let path = schemes + name + ".xcscheme"
    return try SchemeReader.scheme(
      Array(app.files[path]!.utf8), path: path, container: ThinApp.projectPath, revision: "worktree")
  }

  @Test func aSchemeListsItsTestablesWithSkippedOnesOff() throws {
    let scheme = try scheme("MyApp")
    #expect(scheme.name == "MyApp")
    #expect(scheme.testables.map(\.name) == ["MyAppTests", "MyAppUITests", "CoreTests"])
    #expect(scheme.testables.map(\.enabled) == [true, false, true])
    #expect(scheme.testables.map(\.container) == [ThinApp.projectPath, ThinApp.projectPath, "Packages/Core"])
    #expect(scheme.testables.first?.identifier == app.ids["MyAppTests"])
    #expect(scheme.testedTargets(plans: [:])?.map(\.name) == ["MyAppTests", "CoreTests"])
  }

  @Test func aSchemeWithATestPlanTestsThePlansEnabledTargets() throws {
    let scheme = try scheme("Planned")
    #expect(scheme.defaultTestPlan == .init(path: "App/MyApp/MyApp.xctestplan", isDefault: true))
    let plan = try TestPlanFile.plan(
      Array(app.files["App/MyApp/MyApp.xctestplan"]!.utf8), path: "App/MyApp/MyApp.xctestplan", base: "App",
      revision: "worktree")
    #expect(plan.targets.map(\.enabled) == [true, false])
    #expect(scheme.testedTargets(plans: [plan.path: plan])?.map(\.name) == ["MyAppTests"])
  }

  @Test func aMalformedSchemeIsAnErrorWithItsPath() {
    #expect {
      _ = try SchemeReader.scheme(
        Array("<Scheme><TestAction>".utf8), path: "A.xcodeproj/xcshareddata/xcschemes/A.xcscheme",
        container: "A.xcodeproj", revision: "worktree")
    } throws: { error in
      "\(error)".contains("A.xcodeproj/xcshareddata/xcschemes/A.xcscheme")
    }
  }

  @Test func onlyTestingListsTheSelectedTargetsTheSchemeTestsAndWarnsOfTheOthers() throws {
    let result = try analyze(base: app, head: app, changes: [modified("Packages/Core/Sources/Core/Core.swift")])
    let report = AffectedReport(result: result, base: "b", head: "worktree", mergeBase: nil, changedFiles: [])
    let tested = [
      TargetRef(package: ThinApp.projectPath, name: "MyAppTests"),
      TargetRef(package: "Packages/Core", name: "CoreTests"),
    ]
    let output = AffectedFormatter.xcodebuild(report, tested: tested)
    #expect(output.onlyTesting == ["-only-testing:MyAppTests", "-only-testing:CoreTests"])
    #expect(output.untested == ["App/MyApp.xcodeproj:MyAppUITests"])
  }

  @Test func anEmptySelectionPrintsNothing() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/Widget/Widget.swift")])
    let report = AffectedReport(result: result, base: "b", head: "worktree", mergeBase: nil, changedFiles: [])
    // The widget reaches the app and its tests; a scheme testing only the package's tests has nothing to do.
    let output = AffectedFormatter.xcodebuild(report, tested: [TargetRef(package: "Packages/Core", name: "CoreTests")])
    #expect(output.onlyTesting.isEmpty)
    #expect(output.untested.sorted() == ["App/MyApp.xcodeproj:MyAppTests", "App/MyApp.xcodeproj:MyAppUITests"])
  }

  @Test func everythingRunningListsEveryTestedTarget() throws {
    let result = try analyze(base: app, head: app, changes: [modified("App/README.md")])
    let report = AffectedReport(result: result, base: "b", head: "worktree", mergeBase: nil, changedFiles: [])
    let tested = [TargetRef(package: ThinApp.projectPath, name: "MyAppTests")]
    #expect(AffectedFormatter.xcodebuild(report, tested: tested).onlyTesting == ["-only-testing:MyAppTests"])
  }

  @Test func theTestPlanCopyEnablesOnlyTheSelectedTargetsAndKeepsUnknownKeys() throws {
    let original = Array(app.files["App/MyApp/MyApp.xctestplan"]!.utf8)
    let keepUI = try TestPlanFile.rewrite(original, path: "p.xctestplan", base: "App", revision: "worktree") {
      $0.name == "MyAppUITests"
    }
    let document = try #require(try JSONSerialization.jsonObject(with: Data(keepUI)) as? [String: Any])
    let targets = try #require(document["testTargets"] as? [[String: Any]])
    #expect(targets.map { $0["enabled"] as? Bool } == [false, nil])
    #expect((document["rippleUnknownKey"] as? [String: Any])?["kept"] as? [Int] == [1, 2])
    #expect((document["defaultOptions"] as? [String: Any])?["testTimeoutsEnabled"] as? Bool == true)
    #expect((targets.first?["parallelizable"] as? Bool) == true)
    // Reading the copy back gives the same targets with the new states.
    let reread = try TestPlanFile.plan(keepUI, path: "p.xctestplan", base: "App", revision: "worktree")
    #expect(reread.targets.map(\.name) == ["MyAppTests", "MyAppUITests"])
    #expect(reread.targets.map(\.enabled) == [false, true])
    #expect(reread.targets.first?.container == ThinApp.projectPath)
  }

  @Test func aTestPlanThatIsNotJSONIsAnError() {
    #expect(throws: XcodeError.self) {
      _ = try TestPlanFile.plan(
        Array("{\"testTargets\": [".utf8), path: "x.xctestplan", base: ".", revision: "worktree")
    }
  }
}
