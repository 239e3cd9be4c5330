import Affected
import Foundation
import PackageModel
import RippleCore
import Testing

private func report(_ result: AffectedResult, changes: [ChangedFile], mergeBase: String? = "m1") -> AffectedReport {
  AffectedReport(result: result, base: "b1", head: "worktree", mergeBase: mergeBase, changedFiles: changes)
}

private func netChange() -> AffectedReport {
  let changes = [ChangedFile.renamed("Sources/Core/A.swift", "Sources/Net/A.swift")]
  return report(analyze(changes, base: appGraph), changes: changes)
}

private func testReport(_ names: [(String, String)], runAll: Bool = false) -> AffectedReport {
  let tests = names.map { AffectedTarget(package: $0.0, name: $0.1, kind: .test, reasons: ["changed x"]) }
  let result = AffectedResult(
    targets: tests, testTargets: tests, runAll: runAll, runAllReasons: runAll ? ["global file Makefile"] : [])
  return report(result, changes: [.modified("x")])
}

private func jsonObject(_ text: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite("Formatters")
struct FormatterTests {
  @Test func jsonHasTheSchemaKeysAndValues() throws {
    let text = AffectedFormatter.json(netChange())
    let object = try jsonObject(text)
    #expect(
      Set(object.keys) == [
        "schemaVersion", "base", "head", "mergeBase", "changedFiles", "runAll", "runAllReasons", "targets",
        "testTargets", "removedTargets", "warnings",
      ])
    #expect(object["schemaVersion"] as? Int == 1)
    #expect(object["head"] as? String == "worktree")
    #expect(object["runAll"] as? Bool == false)
    let changed = try #require((object["changedFiles"] as? [[String: Any]])?.first)
    #expect(changed["status"] as? String == "renamed")
    #expect(changed["oldPath"] as? String == "Sources/Core/A.swift")
    let targets = try #require(object["targets"] as? [[String: Any]])
    let net = try #require(targets.first { $0["name"] as? String == "Net" })
    #expect(Set(net.keys) == ["package", "name", "kind", "reasons"])
    #expect(net["kind"] as? String == "library")
    #expect(net["package"] as? String == ".")
    let tests = try #require(object["testTargets"] as? [[String: Any]])
    #expect(tests.map { $0["name"] as? String } == ["ApiTests", "CoreTests", "NetTests"])
    #expect(Set(tests[0].keys) == ["package", "name", "reasons"])
    #expect(text.contains("\"Sources/Net/A.swift\""), "slashes are not escaped")
  }

  @Test func jsonOmitsAMissingMergeBaseAndRoundTrips() throws {
    let value = report(AffectedResult(), changes: [], mergeBase: nil)
    let text = AffectedFormatter.json(value)
    #expect(try jsonObject(text)["mergeBase"] == nil)
    #expect(try JSONDecoder().decode(AffectedReport.self, from: Data(text.utf8)) == value)
  }

  @Test func filterIsAnchoredAndEscaped() {
    #expect(AffectedFormatter.filter(netChange()) == #"^(ApiTests|CoreTests|NetTests)\."#)
    #expect(AffectedFormatter.filter(testReport([(".", "Odd.Name+Tests")])) == #"^(Odd\.Name\+Tests)\."#)
    #expect(AffectedFormatter.filter(testReport([])) == nil)
  }

  @Test func namesListsOneTestTargetPerLine() {
    #expect(AffectedFormatter.names(netChange()) == "ApiTests\nCoreTests\nNetTests")
    #expect(AffectedFormatter.names(testReport([])) == "")
  }

  @Test func githubOutputLines() {
    let output = AffectedFormatter.githubOutput(
      testReport([(".", "AppTests"), ("Packages/Shared", "SharedTests")], runAll: true))
    #expect(
      output == """
        test-targets=["AppTests","SharedTests"]
        filter=^(AppTests|SharedTests)\\.
        run-all=true
        count=2
        packages=[".","Packages/Shared"]

        """)
    let empty = AffectedFormatter.githubOutput(testReport([]))
    #expect(empty.contains("filter=\n") && empty.contains("count=0") && empty.contains("test-targets=[]"))
  }

  @Test func githubOutputUsesHeredocForMultilineValues() {
    let output = AffectedFormatter.githubOutput(testReport([(".", "A\nB")]))
    #expect(output.contains("filter<<RIPPLE_EOF\n^(A\nB)\\.\nRIPPLE_EOF\n"))
  }

  @Test func matrixIsBalancedOnDurations() throws {
    let names = ["A", "B", "C", "D", "E"].map { (".", "\($0)Tests") }
    let durations = ["ATests": 10.0, ".:BTests": 8, "CTests": 5, "DTests": 3, "ETests": 2]
    let text = AffectedFormatter.matrix(testReport(names), shards: 2, durations: durations)
    let include = try #require(try jsonObject(text)["include"] as? [[String: Any]])
    #expect(include.count == 2)
    #expect(include.map { $0["shard"] as? Int } == [1, 2])
    #expect(include.allSatisfy { $0["of"] as? Int == 2 })
    #expect(include[0]["targets"] as? [String] == ["ATests", "DTests", "ETests"])
    #expect(include[1]["targets"] as? [String] == ["BTests", "CTests"])
    #expect(include[1]["filter"] as? String == #"^(BTests|CTests)\."#)
    #expect(include[1]["ids"] as? String == ".:BTests,.:CTests", "what `ripple test --targets` takes")
    #expect(AffectedFormatter.matrix(testReport(names), shards: 2, durations: durations) == text)
  }

  @Test func matrixNeverHasEmptyShards() throws {
    let text = AffectedFormatter.matrix(testReport([(".", "ATests")]), shards: 4, durations: [:])
    let include = try #require(try jsonObject(text)["include"] as? [[String: Any]])
    #expect(include.count == 1)
    #expect(AffectedFormatter.matrix(testReport([]), shards: 4, durations: [:]) == #"{"include":[]}"#)
  }

  @Test func textShowsCountsGroupsAndWarnings() {
    let changes = [ChangedFile.modified("Sources/Net/A.swift"), .modified("tools/x.sh")]
    let value = report(analyze(changes, base: appGraph), changes: changes)
    let plain = AffectedFormatter.text(value, color: false)
    let lines = plain.split(separator: "\n").map(String.init)
    #expect(lines[0] == "Comparing the working tree with b1 (their merge-base m1)")
    #expect(lines[1] == "2 changed files → 5 affected targets, 3 test targets")
    #expect(lines[2].hasPrefix("Running every test target: "))
    #expect(lines.contains(". (root package)"))
    #expect(lines.contains("  NetTests  depends on Net"))
    #expect(lines.last?.hasPrefix("warning: ") == true)
    #expect(!plain.contains("\u{1B}["))
    let coloured = AffectedFormatter.text(value, color: true)
    #expect(coloured.contains("\u{1B}[32mNetTests\u{1B}[0m"))
  }

  @Test func textSaysWhenNothingIsAffected() {
    let plain = AffectedFormatter.text(report(AffectedResult(), changes: [.modified("README.md")]), color: false)
    #expect(
      plain
        == "Comparing the working tree with b1 (their merge-base m1)\n"
        + "1 changed file → 0 affected targets, 0 test targets\nNo test target is affected.\n")
    let commits = AffectedReport(
      result: AffectedResult(), base: String(repeating: "a", count: 40), head: String(repeating: "c", count: 40),
      mergeBase: nil, changedFiles: [])
    #expect(AffectedFormatter.text(commits, color: false).hasPrefix("Comparing cccccccccc with aaaaaaaaaa\n"))
  }

  @Test func theTreeNamesPackagesTargetsKindsAndDirectDependencies() {
    let tree = AffectedFormatter.tree(graph: appGraph)
    let lines = tree.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasSuffix("(root package)") == true, "\(tree)")
    #expect(lines.contains("├─ ApiTests  test → Api, TestSupport"), "\(tree)")
    #expect(lines.contains("├─ Net  regular → Core"), "\(tree)")
    #expect(lines.last == "└─ TestSupport  regular → Core", "\(tree)")
  }

  @Test func dotHighlightsChangedAndAffectedNodes() {
    let value = report(analyze([.modified("Sources/Net/A.swift")], base: appGraph), changes: [])
    let dot = AffectedFormatter.dot(graph: appGraph, value)
    #expect(dot.hasPrefix("digraph ripple {"))
    #expect(dot.contains("subgraph \"cluster_0\" {\n    label=\".\";"))
    #expect(dot.contains("\".:Net\" [label=\"Net\", style=filled, fillcolor=\"#f28b82\"];"))
    #expect(dot.contains("\".:Api\" [label=\"Api\", style=filled, fillcolor=\"#fbbc66\"];"))
    #expect(dot.contains("\".:NetTests\" [label=\"NetTests\", shape=box, style=filled, fillcolor=\"#fbbc66\"];"))
    #expect(dot.contains("\".:CoreTests\" [label=\"CoreTests\", shape=box];"))
    #expect(dot.contains("\".:Api\" -> \".:Net\";"))
  }
}

/// Above 1,000 changed files, `--format json` writes their entries itself: byte for byte JSONEncoder's.
@Suite struct LargeJSONTests {
  @Test func aLargeListIsWrittenAsJSONEncoderWritesIt() throws {
    var changes = (0..<1_500).map { ChangedFile(path: "Sources/Core/File\($0).swift", status: .modified) }
    changes.append(ChangedFile(path: "Sources/Net/Moved.swift", status: .renamed, oldPath: "Sources/Core/Moved.swift"))
    changes.append(ChangedFile(path: "Sources/Core/Ünïcode name €.swift", status: .added))
    changes.append(ChangedFile(path: "Sources/Core/Gone.swift", status: .deleted))
    let fast = report(analyze(changes, base: appGraph), changes: changes)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let slow = String(decoding: try encoder.encode(fast), as: UTF8.self)
    #expect(AffectedFormatter.json(fast) == slow)
    // A path JSON escapes is left to JSONEncoder.
    var quoted = changes
    quoted.append(ChangedFile(path: "Sources/Core/A \"quoted\"\tname.swift", status: .added))
    let escaped = report(analyze(quoted, base: appGraph), changes: quoted)
    #expect(AffectedFormatter.json(escaped) == String(decoding: try encoder.encode(escaped), as: UTF8.self))
  }
}
