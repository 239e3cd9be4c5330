import PackageModel
import RippleConfig
import TestRunner
import Testing

@testable import RippleKit

/// Which run each selected test target goes to, and what is named as not runnable here.
@Suite struct TestRunPlannerTests {
  /// Environment 0 is `{}` (the client's), 1 is `TEST_SERVER=1`: shared targets exist in both, the client
  /// and server ones in one each.
  static let environments: [[String: String]] = [[:], ["TEST_SERVER": "1"]]
  static let graph = PackageGraph(packages: [
    Package(
      path: ".", name: "Shop", packageFingerprint: "",
      targets: [
        Target(name: "CoreTests", kind: .test, directory: "Tests/CoreTests"),
        Target(name: "ClientTests", kind: .test, directory: "Tests/ClientTests", environments: [0]),
        Target(name: "ServerTests", kind: .test, directory: "Tests/ServerTests", environments: [1]),
        Target(name: "Core", kind: .library, directory: "Sources/Core"),
      ])
  ])
  static let runs = [
    TestRunSpec(name: "server", environment: ["TEST_SERVER": "1"], platforms: [.linux]),
    TestRunSpec(name: "client", platforms: [.macos]),
  ]
  static let selection = TestSelection(packages: [
    PackageSelection(path: ".", testTargets: ["ClientTests", "CoreTests", "ServerTests"])
  ])

  @Test func onLinuxTheServerRunTakesWhatItHasAndTheClientTargetIsNamed() {
    let plan = TestRunPlanner.plan(
      Self.selection, graph: Self.graph, runs: Self.runs, environments: Self.environments, host: .linux)
    #expect(plan.selection.packages.count == 1)
    let server = plan.selection.packages[0]
    #expect(server.testTargets == ["CoreTests", "ServerTests"])
    #expect(server.run?.name == "server")
    #expect(server.run?.environment == ["TEST_SERVER": "1"])
    #expect(server.run?.scratchFolder == nil, "the first run here keeps the package's usual build folder")
    #expect(
      plan.notRunHere == [
        NotRunTarget(
          package: ".", name: "ClientTests", reason: "exists only in run `client`, platforms: macos",
          platform: "linux")
      ])
    #expect(
      plan.notRunHere.first?.sentence == "not run on linux: ClientTests (exists only in run `client`, platforms: macos)"
    )
  }

  @Test func onMacOSEachTargetGoesToTheFirstRunThatHasItWithItsOwnBuildFolder() {
    let runs = [
      TestRunSpec(name: "server", environment: ["TEST_SERVER": "1"]),
      TestRunSpec(name: "client", platforms: [.macos]),
    ]
    let plan = TestRunPlanner.plan(
      Self.selection, graph: Self.graph, runs: runs, environments: Self.environments, host: .macos)
    #expect(plan.notRunHere.isEmpty)
    #expect(plan.selection.packages.map(\.run?.name) == ["server", "client"])
    #expect(plan.selection.packages.map(\.testTargets) == [["CoreTests", "ServerTests"], ["ClientTests"]])
    let client = plan.selection.packages[1].run
    // The client run removes TEST_SERVER, so a value exported in the shell cannot leak into its build.
    #expect(client?.environment == ["TEST_SERVER": String?.none])
    #expect(client?.scratchFolder == "client")
  }

  @Test func oneRunWithoutVariablesLeavesTheSelectionAsItWas() {
    let plan = TestRunPlanner.plan(
      Self.selection, graph: Self.graph, runs: [TestRunSpec(name: "default")], environments: [[:]], host: .linux)
    #expect(plan.selection == Self.selection)
    #expect(plan.notRunHere.isEmpty)
  }

  @Test func everyTestOfAPackageIsSplitByRunWhenSeveralRunsExist() {
    let all = TestSelection(packages: [PackageSelection(path: ".", testTargets: [], runAll: true)])
    let plan = TestRunPlanner.plan(
      all, graph: Self.graph, runs: Self.runs, environments: Self.environments, host: .linux)
    #expect(plan.selection.packages.map(\.runAll) == [false])
    #expect(plan.selection.packages.first?.testTargets == ["CoreTests", "ServerTests"])
    #expect(plan.notRunHere.map(\.name) == ["ClientTests"])
  }

  @Test func aTargetOnlyInAnEnvironmentNoRunUsesIsNamedWithThatEnvironment() {
    let runs = [TestRunSpec(name: "client")]
    let plan = TestRunPlanner.plan(
      TestSelection(packages: [PackageSelection(path: ".", testTargets: ["ServerTests"])]), graph: Self.graph,
      runs: runs, environments: Self.environments, host: .linux)
    #expect(plan.selection.packages.isEmpty)
    #expect(
      plan.notRunHere.first?.reason == "exists only in manifest environment TEST_SERVER=1, which no test run uses")
  }

  @Test func withoutARunForThisPlatformEveryTargetIsNamed() {
    let plan = TestRunPlanner.plan(
      Self.selection, graph: Self.graph, runs: [TestRunSpec(name: "ios", platforms: [.macos])],
      environments: Self.environments, host: .linux)
    #expect(plan.selection.packages.isEmpty)
    #expect(plan.notRunHere.map(\.name) == ["ClientTests", "CoreTests", "ServerTests"])
    #expect(plan.notRunHere[1].reason == "exists only in run `ios`, platforms: macos")
  }
}
