import Affected
import Foundation
import PackageModel
import RippleCore
import Testing

/// Issue 43: every reason kept, packages by name, `--format markdown`.
@Suite struct MarkdownAndReasonsTests {
  func report(_ changes: [ChangedFile]) -> (AffectedReport, AffectedResult) {
    let result = analyze(changes, base: appGraph)
    var report = AffectedReport(result: result, base: "b1", head: "worktree", mergeBase: nil, changedFiles: changes)
    report.packageNames = [".": "App"]
    return (report, result)
  }

  @Test func aTargetReachedByTwoPathsKeepsBothReasonsTheFirstFirst() {
    // CoreTests depends on Core and on TestSupport, which depends on Core.
    let (_, result) = report([.modified("Sources/Core/A.swift")])
    let core = result.testTargets.first { $0.name == "CoreTests" }
    #expect(core?.reasons == ["depends on Core", "depends on TestSupport"])
    #expect(core?.via == TargetRef(package: ".", name: "Core"), "--explain still follows the first path")
    // A changed target that also depends on another changed one says both.
    let (_, both) = report([.modified("Sources/Core/A.swift"), .modified("Sources/Net/B.swift")])
    #expect(both.targets.first { $0.name == "Net" }?.reasons == ["changed Sources/Net/B.swift", "depends on Core"])
  }

  @Test func theRootPackageIsShownByItsName() {
    let (value, _) = report([.modified("Sources/Net/B.swift")])
    let lines = AffectedFormatter.text(value, color: false).split(separator: "\n").map(String.init)
    #expect(lines.contains("App (root package)"))
    var unnamed = value
    unnamed.packageNames = nil
    #expect(AffectedFormatter.text(unnamed, color: false).contains("\n. (root package)\n"))
  }

  @Test func markdownHasATableEveryReasonAndACollapsedGraph() {
    let (value, result) = report([.modified("Sources/Core/A.swift")])
    let markdown = AffectedFormatter.markdown(value, result: result)
    #expect(markdown.hasPrefix("### Ripple: 3 test targets affected by 1 changed file\n"))
    #expect(markdown.contains("| App (root package) | `CoreTests` | depends on Core<br>depends on TestSupport |"))
    #expect(markdown.contains("<details><summary>Graph"))
    #expect(markdown.contains("```mermaid\ngraph LR\n"))
    #expect(markdown.contains(#"(["CoreTests"])"#), "test targets are rounded nodes")
    let edges = markdown.split(separator: "\n").filter { $0.contains(" --> ") }
    #expect(edges.count == result.targets.filter { $0.via != nil }.count)
  }

  @Test func markdownEscapesWhatAReviewerCouldBeShown() {
    let target = AffectedTarget(
      package: "Pkgs/<script>", name: "X`Tests", kind: .test, reasons: ["changed a|b<img src=x>.swift"])
    let result = AffectedResult(targets: [target], testTargets: [target], runAll: false, runAllReasons: [])
    let value = AffectedReport(
      result: result, base: "b", head: "h", mergeBase: nil, changedFiles: [.modified("a|b<img src=x>.swift")])
    let markdown = AffectedFormatter.markdown(value, result: result)
    #expect(!markdown.contains("<script>") && !markdown.contains("<img"))
    #expect(markdown.contains("changed a\\|b&lt;img src=x&gt;.swift"))
    #expect(markdown.contains("`X'Tests`"))
    #expect(markdown.contains("#lt;script#gt;"), "the Mermaid label too")
  }

  @Test func aLargeGraphIsCutWithACount() {
    let targets = (0..<200).map { AffectedTarget(package: ".", name: "T\($0)Tests", kind: .test, reasons: ["x"]) }
    let result = AffectedResult(targets: targets, testTargets: targets, runAll: false, runAllReasons: [])
    let value = AffectedReport(result: result, base: "b", head: "h", mergeBase: nil, changedFiles: [])
    let markdown = AffectedFormatter.markdown(value, result: result)
    #expect(markdown.contains("… and 120 more targets"))
    #expect(markdown.split(separator: "\n").filter { $0.hasPrefix("| . (root package) |") }.count == 200)
  }

  @Test func nothingAffectedSaysSo() {
    let (value, result) = report([])
    #expect(AffectedFormatter.markdown(value, result: result).contains("No test target is affected."))
  }
}
