import Affected
import PackageModel
import RippleConfig
import RippleCore
import Testing

@Suite("Explanations")
struct ExplanationTests {
  @Test func chainFromTheChangedFileToTheTestTarget() {
    let result = analyze([.modified("Sources/Net/A.swift")], base: appGraph)
    #expect(
      result.explanation(for: "ApiTests", package: ".") == [
        "changed Sources/Net/A.swift → Net", "Net → Api (depends on Net)", "Api → ApiTests (depends on Api)",
      ])
    #expect(result.explanation(for: "Net", package: nil) == ["changed Sources/Net/A.swift → Net"])
  }

  @Test func dependsOnNamesTheDependencyOfTheShortestPath() {
    // From Core, ApiTests is two hops away through TestSupport and three through Net and Api.
    let result = analyze([.modified("Sources/Core/A.swift")], base: appGraph)
    #expect(result.reasons("ApiTests") == ["depends on TestSupport", "depends on Api"], "the shortest path first")
    #expect(result.targets.first { $0.name == "ApiTests" }?.via == TargetRef(package: ".", name: "TestSupport"))
    #expect(
      result.explanation(for: "ApiTests", package: ".") == [
        "changed Sources/Core/A.swift → Core", "Core → TestSupport (depends on Core)",
        "TestSupport → ApiTests (depends on TestSupport)",
      ])
  }

  @Test func unselectedTargetHasNoExplanation() {
    let result = analyze([.modified("Tests/NetTests/A.swift")], base: appGraph)
    #expect(result.explanation(for: "ApiTests", package: nil) == nil)
  }

  @Test func runAllTargetIsExplainedByItsReason() {
    let result = analyze(
      [.modified("Makefile")], base: appGraph, selection: SelectionConfig(global: [Glob("Makefile")]))
    #expect(result.explanation(for: "CoreTests", package: ".") == ["global file Makefile → CoreTests"])
  }
}
