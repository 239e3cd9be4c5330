import Affected
import PackageModel
import Testing

/// `AffectedResult.everything`: the one "select everything" (fallback, `--all`, rippled without a base).
@Suite struct EverythingTests {
  @Test func everyTestTargetAndNothingElseWithTheReasons() {
    let graph = PackageGraph(packages: [appPackage(), pkg("Packages/Lib", [lib("Lib"), test("LibTests")])])
    let result = AffectedResult.everything(in: graph, reasons: ["no base to compare with"])
    #expect(
      result.testTargets.map { "\($0.package):\($0.name)" }
        == [".:CoreTests", ".:NetTests", ".:ApiTests", "Packages/Lib:LibTests"], "in the graph's order")
    #expect(result.targets == result.testTargets, "libraries are not selected")
    #expect(result.testTargets.allSatisfy { $0.kind == .test && $0.reasons == ["no base to compare with"] })
    #expect(result.runAll && result.runAllReasons == ["no base to compare with"])
  }

  @Test func anEmptyGraphSelectsNothing() {
    let result = AffectedResult.everything(in: PackageGraph(packages: []), reasons: ["x"])
    #expect(result.testTargets.isEmpty && result.runAll)
  }
}
