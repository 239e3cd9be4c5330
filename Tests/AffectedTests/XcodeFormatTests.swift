import Affected
import PackageModel
import RippleCore
import Testing

/// Formats fed to `swift test` leave Xcode test targets out (docs/DESIGN.md, rule 12).
@Suite struct XcodeFormatTests {
  private func report() -> AffectedReport {
    let tests = [
      AffectedTarget(package: "App/MyApp.xcodeproj", name: "MyAppTests", kind: .unitTest, reasons: ["changed x"]),
      AffectedTarget(package: "Packages/Core", name: "CoreTests", kind: .test, reasons: ["changed y"]),
    ]
    return AffectedReport(
      result: AffectedResult(targets: tests, testTargets: tests), base: "b", head: "worktree", mergeBase: nil,
      changedFiles: [])
  }

  @Test func theSwiftTestFilterHasOnlyPackageTests() {
    #expect(AffectedFormatter.filter(report()) == "^(CoreTests)\\.")
    #expect(AffectedFormatter.names(report()) == "MyAppTests\nCoreTests")
  }

  @Test func theMatrixShardsOnlyPackageTests() {
    let matrix = AffectedFormatter.matrix(report(), shards: 2, durations: [:])
    #expect(matrix.contains("CoreTests"))
    #expect(!matrix.contains("MyAppTests"))
  }

  @Test func onlyXcodeTestsGiveNoFilter() {
    let test = AffectedTarget(package: "A.xcodeproj", name: "ATests", kind: .uiTest, reasons: ["r"])
    let report = AffectedReport(
      result: AffectedResult(targets: [test], testTargets: [test]), base: "b", head: "worktree", mergeBase: nil,
      changedFiles: [])
    #expect(AffectedFormatter.filter(report) == nil)
  }
}
