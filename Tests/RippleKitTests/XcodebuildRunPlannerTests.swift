import PackageModel
import RippleConfig
import TestRunner
import Testing

@testable import RippleKit

/// Which `runner: xcodebuild` run each selected Xcode test target goes to, on macOS and on Linux.
@Suite struct XcodebuildRunPlannerTests {
  static let project = "App/MyApp.xcodeproj"
  static let unit = TargetRef(package: project, name: "MyAppTests")
  static let ui = TargetRef(package: project, name: "MyAppUITests")
  static let ios = TestRunSpec(
    name: "ios", environment: ["SIM": "1"], platforms: [.macos], runner: .xcodebuild,
    xcodebuild: XcodebuildRunSpec(scheme: "MyApp", project: project, destination: "platform=iOS Simulator"))
  static let runs = [XcodebuildRunPlanner.Run(spec: ios, tested: [unit])]
  static let all = [TestRunSpec(name: "server", environment: ["TEST_SERVER": "1"]), ios]

  @Test func onMacOSTheSchemesTargetsGoToItsRunAndTheRestAreNamed() throws {
    let plan = XcodebuildRunPlanner.plan([Self.ui, Self.unit], runs: Self.runs, all: Self.all, host: .macos)
    let package = try #require(plan.selection.packages.first)
    #expect(plan.selection.packages.count == 1)
    #expect(package.path == Self.project && package.testTargets == ["MyAppTests"])
    let run = try #require(package.run)
    #expect(run.name == "ios" && run.scratchFolder == "ios")
    let expected: [String: String?] = ["SIM": "1", "TEST_SERVER": nil]
    #expect(run.environment == expected, "another run's variables are removed")
    #expect(run.xcodebuild?.scheme == "MyApp" && run.xcodebuild?.destination == "platform=iOS Simulator")
    #expect(
      plan.notRunHere.map(\.sentence) == [
        "not run on macos: MyAppUITests (not tested by the scheme of any xcodebuild run (`ios`: scheme MyApp))"
      ])
  }

  @Test func onLinuxTheRunIsPlannedButNotRunHereAndNamed() {
    let plan = XcodebuildRunPlanner.plan([Self.unit], runs: Self.runs, all: Self.all, host: .linux)
    #expect(plan.selection.packages.isEmpty, "no xcodebuild on Linux")
    #expect(
      plan.notRunHere.map(\.sentence) == [
        "not run on linux: MyAppTests (tested by the xcodebuild run `ios` (scheme MyApp), platforms: macos)"
      ])
  }

  @Test func withoutAnXcodebuildRunTheTargetsAreNamedWithTheWayToRunThem() {
    let plan = XcodebuildRunPlanner.plan([Self.unit], runs: [], all: [], host: .macos)
    #expect(plan.selection.packages.isEmpty)
    #expect(plan.notRunHere.first?.reason.contains("no `runner: xcodebuild` run in test.runs") == true)
  }

  @Test func anEmptySelectionPlansNoXcodebuild() {
    let plan = XcodebuildRunPlanner.plan([], runs: Self.runs, all: Self.all, host: .macos)
    #expect(plan.selection.packages.isEmpty && plan.notRunHere.isEmpty)
  }
}
