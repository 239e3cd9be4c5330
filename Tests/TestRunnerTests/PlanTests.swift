import SystemClients
import Testing

@testable import TestRunner

@Suite struct PlanTests {
  let options = TestRunOptions(repositoryRoot: "/repo", extraArguments: ["-c", "release"], scratchPath: "/scratch")

  @Test func buildsAndTestsEachSelectedPackageWithAnAnchoredFilter() throws {
    let selection = TestSelection(packages: [
      PackageSelection(path: "Packages/Core", testTargets: ["NetTests", "CoreTests", "NetTests"]),
      PackageSelection(path: ".", testTargets: ["AppTests"]),
    ])
    let plan = TestPlan.make(selection: selection, options: options, xunitDirectory: "/tmp/x")
    #expect(plan.packages.map(\.package) == [".", "Packages/Core"])
    let core = plan.packages[1]
    #expect(core.testTargets == ["CoreTests", "NetTests"])
    #expect(
      core.build.arguments == [
        "build", "--build-tests", "--package-path", "/repo/Packages/Core", "--scratch-path",
        "/scratch/Packages_2FCore", "-c", "release",
      ])
    #expect(
      core.test.arguments == [
        "test", "--skip-build", "--package-path", "/repo/Packages/Core", "--scratch-path", "/scratch/Packages_2FCore",
        "--filter", #"^(CoreTests|NetTests)\."#, "--xunit-output", "/tmp/x/Packages_2FCore.xml", "-c", "release",
      ])
    #expect(try core.swiftPM.swiftTestingXunitPath == "/tmp/x/Packages_2FCore-swift-testing.xml")
    #expect(plan.packages[0].build.arguments.contains("/scratch/_root"))
    #expect(plan.packages[0].directory == "/repo")
  }

  @Test func packagesWithoutSelectedTargetsAreNotBuilt() {
    let selection = TestSelection(packages: [
      PackageSelection(path: "A", testTargets: []), PackageSelection(path: "B", testTargets: ["BTests"]),
    ])
    let plan = TestPlan.make(selection: selection, options: options, xunitDirectory: "/x")
    #expect(plan.packages.map(\.package) == ["B"])
    #expect(plan.skippedPackages == ["A"])
    #expect(!plan.commands.contains { $0.contains("/repo/A") })
  }

  @Test func runAllHasNoFilter() {
    let plan = TestPlan.make(
      selection: TestSelection(packages: [PackageSelection(path: ".", testTargets: [], runAll: true)]),
      options: options, xunitDirectory: "/x")
    #expect(plan.packages.count == 1)
    #expect(!plan.packages[0].test.arguments.contains("--filter"))
  }

  @Test func aUserChosenScratchPathIsKept() {
    var options = options
    options.extraArguments = ["--scratch-path", "/mine"]
    let plan = TestPlan.make(
      selection: TestSelection(packages: [PackageSelection(path: ".", testTargets: ["T"])]), options: options,
      xunitDirectory: "/x")
    #expect(plan.packages[0].build.arguments.filter { $0 == "--scratch-path" }.count == 1)
    #expect(plan.packages[0].build.arguments.suffix(2) == ["--scratch-path", "/mine"])
  }

  @Test func filterNamesAreRegexEscaped() {
    #expect(TestFilter.targets(["A.B", "C+D"]) == #"^(A\.B|C\+D)\."#)
    #expect(TestFilter.tests(["T.S/f(x:)", "T.C/testA"]) == #"^(T\.C/testA|T\.S/f\(x:\))(/|$)"#)
    #expect(TestFilter.escape("a$^|[]{}*?\\") == #"a\$\^\|\[\]\{\}\*\?\\"#)
  }

  @Test func commandsAreShellQuotedForDryRun() {
    let plan = TestPlan.make(
      selection: TestSelection(packages: [PackageSelection(path: "My Pkg", testTargets: ["T"])]),
      options: TestRunOptions(repositoryRoot: "/repo"), xunitDirectory: "/x")
    #expect(plan.commands[0] == "swift build --build-tests --package-path '/repo/My Pkg'")
    #expect(plan.commands[1].contains(#"--filter '^(T)\.'"#))
    #expect(plan.rendered.contains("My Pkg: T"))
  }

  @Test func folderNamesDoNotCollide() {
    #expect(TestPlan.folderName(for: "a/b") != TestPlan.folderName(for: "a_b"))
    #expect(TestPlan.folderName(for: ".") == "_root")
    #expect(TestPlan.folderName(for: "root") != TestPlan.folderName(for: "."))
    #expect(TestPlan.folderName(for: "Packages/Shared") == "Packages_2FShared")
    #expect(!TestPlan.folderName(for: "a b/é").contains("%"), "clang's module cache rejects % in paths")
  }
}
