import Foundation
import TestSupport
import Testing

/// `test.granularity: test` through the real binary, toolchain and local store (docs/DESIGN.md, "Below the
/// target"): a run on main maps each test (`--refresh-maps`), a branch's body change then runs only the tests that
/// executed the changed function, the rest are listed as not run (JSON, JUnit, summary), `--explain` says why,
/// and a declaration change runs the target whole with the reason.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct TestGranularityTests {
  static func makeRepository() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "Calc",
        targets: [.target(name: "Core"), .testTarget(name: "CoreTests", dependencies: ["Core"])]
      )

      """)
    try repo.write(
      "Sources/Core/Math.swift",
      "public func add(_ a: Int, _ b: Int) -> Int {\n  a + b\n}\n\npublic func mul(_ a: Int, _ b: Int) -> Int {\n  a * b\n}\n"
    )
    try repo.write(
      "Sources/Core/Text.swift",
      "public func shout(_ s: String) -> String {\n  s.uppercased()\n}\n\npublic func unused() -> Int {\n  1\n}\n")
    try repo.write(
      "Tests/CoreTests/MathTests.swift",
      """
      import Core
      import XCTest

      final class MathTests: XCTestCase {
        func testAdd() { XCTAssertEqual(add(2, 3), 5) }
        func testMul() { XCTAssertEqual(mul(2, 3), 6) }
      }

      """)
    try repo.write(
      "Tests/CoreTests/TextTests.swift",
      """
      import Core
      import Testing

      @Suite struct TextTests {
        @Test("shouts (loud, ü)") func zählt() { #expect(shout("a") == "A") }
        @Test func `shouts twice (really)`() { #expect(shout(shout("b")) == "B") }
        @Test func quiet() { #expect("a".count == 1) }
      }

      """)
    try repo.write(".gitignore", ".build/\n")
    try repo.git("add", "-A")
    try repo.git("commit", "-q", "-m", "initial")
    return repo
  }

  static func environment(_ repo: TestRepository, branch: String) -> [String: String] {
    ["RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": repo.root + "/.build/ripple-cache", "RIPPLE_BRANCH": branch]
  }

  @Test func aBodyChangeRunsOnlyTheTestsThatExecutedItAndADeclarationChangeRunsTheTargetWhole() throws {
    let repo = try Self.makeRepository()
    // main: everything runs, then each test is mapped in its own process.
    let mapping = try RippleBinary.test(
      ["--all", "--granularity", "test", "--refresh-maps"], in: repo.root,
      environment: Self.environment(repo, branch: "main"))
    #expect(mapping.status == 0, "\(mapping.standardOutput)\(mapping.standardError)")
    #expect(mapping.standardError.contains("coverage maps made at"), "\(mapping.standardError)")
    #expect(mapping.standardError.contains("CoreTests (5 tests)"), "\(mapping.standardError)")

    // A branch changes the bodies of `mul` and `shout` only.
    try repo.git("checkout", "-q", "-b", "feature")
    try repo.write(
      "Sources/Core/Math.swift",
      "public func add(_ a: Int, _ b: Int) -> Int {\n  a + b\n}\n\npublic func mul(_ a: Int, _ b: Int) -> Int {\n  b * a\n}\n"
    )
    try repo.write(
      "Sources/Core/Text.swift",
      "public func shout(_ s: String) -> String {\n  String(s.uppercased())\n}\n\npublic func unused() -> Int {\n  1\n}\n"
    )
    let json = repo.root + "/.build/below.json"
    let junit = repo.root + "/.build/below.xml"
    let below = try RippleBinary.test(
      ["--granularity", "test", "--base", "main", "--report-json", json, "--junit", junit], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(below.status == 0, "\(below.standardOutput)\(below.standardError)")
    #expect(
      below.standardOutput.contains(
        "3 of 5 tests of CoreTests: 1 executed Sources/Core/Math.swift's `mul(_:_:)`; 2 executed "
          + "Sources/Core/Text.swift's `shout(_:)`"), "\(below.standardOutput)")
    let report = try CoverageReports.json(json)
    let ran = ((report["packages"] as? [[String: Any]]) ?? []).flatMap { ($0["targets"] as? [[String: Any]]) ?? [] }
      .flatMap { ($0["tests"] as? [[String: Any]]) ?? [] }.map { "\($0["suite"] ?? "")/\($0["name"] ?? "")" }
    #expect(
      ran.sorted() == ["MathTests/testMul", "TextTests/`shouts twice (really)`()", "TextTests/zählt()"], "\(ran)")
    let plans = try #require(report["belowTarget"] as? [[String: Any]])
    #expect(plans.count == 1)
    #expect(
      Set(plans.first?["notRun"] as? [String] ?? []) == ["CoreTests.MathTests/testAdd", "CoreTests.TextTests/quiet()"])
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("name=\"testAdd\" time=\"0\">\n      <skipped message=\"not run: test-level selection"))
    #expect(xml.contains("classname=\"CoreTests.TextTests\" name=\"quiet()\" time=\"0\">\n      <skipped"))

    // `ripple affected` says the same below the target, and its filter runs exactly those tests.
    let affectedText = try RippleBinary.run(
      ["affected", "--granularity", "test", "--base", "main"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(affectedText.status == 0, "\(affectedText.standardError)")
    #expect(affectedText.standardOutput.contains("Below the target (test.granularity: test):"))
    #expect(
      affectedText.standardOutput.contains("3 of 5 tests of CoreTests: 1 executed"), "\(affectedText.standardOutput)")
    #expect(affectedText.standardOutput.contains("not run: 2 tests"), "\(affectedText.standardOutput)")
    // On main, whose runs make maps, reading the plan makes none and judges the maps as main's runs do.
    let onMain = try RippleBinary.run(
      ["affected", "--granularity", "test", "--base", "main"], in: repo.root,
      environment: Self.environment(repo, branch: "main"))
    #expect(
      onMain.standardOutput.contains("CoreTests runs whole: its coverage map at")
        && onMain.standardOutput.contains("an unsigned coverage map (main is protected"), "\(onMain.standardOutput)")
    let filter = try RippleBinary.run(
      ["affected", "--granularity", "test", "--base", "main", "--format", "filter"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(filter.status == 0, "\(filter.standardError)")
    let pattern = try Regex(filter.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    let ids = [
      "CoreTests.MathTests/testAdd", "CoreTests.MathTests/testMul", "CoreTests.TextTests/zählt()",
      "CoreTests.TextTests/`shouts twice (really)`()", "CoreTests.TextTests/quiet()",
    ]
    #expect(
      ids.filter { $0.contains(pattern) }
        == [
          "CoreTests.MathTests/testMul", "CoreTests.TextTests/zählt()", "CoreTests.TextTests/`shouts twice (really)`()",
        ],
      "\(filter.standardOutput)")
    let affectedJSON = try RippleBinary.run(
      ["affected", "--granularity", "test", "--base", "main", "--format", "json"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(affectedJSON.standardOutput.utf8)) as? [String: Any])
    #expect(document["schemaVersion"] != nil && (document["testTargets"] as? [Any])?.count == 1, "\(document.keys)")
    #expect((document["belowTarget"] as? [[String: Any]])?.first?["notRun"] as? [String] != nil)
    #expect(document["testFilter"] as? String == filter.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    let affectedExplained = try RippleBinary.run(
      ["affected", "--granularity", "test", "--base", "main", "--explain", "CoreTests/MathTests/testAdd"],
      in: repo.root, environment: Self.environment(repo, branch: "feature"))
    #expect(affectedExplained.standardOutput.contains("CoreTests.MathTests/testAdd is not run: its coverage map"))

    let explained = try RippleBinary.run(
      ["test", "--base", "main", "--explain", "CoreTests.MathTests/testAdd"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(explained.status == 0, "\(explained.standardError)")
    #expect(explained.standardOutput.contains("CoreTests.MathTests/testAdd is not run: its coverage map"))
    let unknown = try RippleBinary.run(
      ["test", "--base", "main", "--explain", "OtherTests.S/t"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(unknown.status == 2, "\(unknown.standardError)")
    #expect(unknown.standardError.contains("--explain names `OtherTests.S/t`"), "\(unknown.standardError)")

    // A declaration added: every test of the target runs, and the report says why.
    try repo.write(
      "Sources/Core/Math.swift",
      "public func add(_ a: Int, _ b: Int) -> Int {\n  a + b\n}\n\npublic func mul(_ a: Int, _ b: Int) -> Int {\n  b * a\n}\n\npublic let zero = 0\n"
    )
    let whole = try RippleBinary.test(
      ["--granularity", "test", "--base", "main", "--dry-run"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(whole.status == 0, "\(whole.standardError)")
    #expect(whole.standardOutput.contains("CoreTests runs whole: Sources/Core/Math.swift:"), "\(whole.standardOutput)")

    // A body no test executed: nothing is built or run, and the run says why instead of "nothing is affected".
    try repo.git("checkout", "-q", "--", "Sources/Core/Math.swift", "Sources/Core/Text.swift")
    try repo.write(
      "Sources/Core/Text.swift",
      "public func shout(_ s: String) -> String {\n  s.uppercased()\n}\n\npublic func unused() -> Int {\n  2\n}\n")
    let none = try RippleBinary.test(
      ["--granularity", "test", "--base", "main"], in: repo.root, environment: Self.environment(repo, branch: "feature")
    )
    #expect(none.status == 0, "\(none.standardError)")
    #expect(
      none.standardOutput.contains("no test of the selected test targets executed what changed"),
      "\(none.standardOutput)")
    #expect(none.standardOutput.contains("0 of 5 tests of CoreTests: no test executed what changed"))
    // `affected` then has no filter to give (an empty one would run everything) and names no test target.
    let noFilter = try RippleBinary.run(
      ["affected", "--granularity", "test", "--base", "main", "--format", "filter"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(noFilter.status == 0 && noFilter.standardOutput.isEmpty, "\(noFilter.standardOutput)")
    #expect(
      noFilter.standardError.contains("no test of the affected test targets executed what changed"),
      "\(noFilter.standardError)")
    let noNames = try RippleBinary.run(
      ["affected", "--granularity", "test", "--base", "main", "--format", "names"], in: repo.root,
      environment: Self.environment(repo, branch: "feature"))
    #expect(noNames.status == 0 && noNames.standardOutput.isEmpty, "\(noNames.standardOutput)")
  }

  @Test func badGranularityArgumentsAreUsageErrorsAndARefreshWithoutItSaysSo() throws {
    let repo = try Self.makeRepository()
    let bad = try RippleBinary.run(["test", "--granularity", "function", "--dry-run"], in: repo.root)
    #expect(bad.status == 2)
    #expect(
      bad.standardError.contains("--granularity must be one of target, test (got function)"), "\(bad.standardError)")
    let badAffected = try RippleBinary.run(["affected", "--granularity", "function"], in: repo.root)
    #expect(badAffected.status == 2)
    #expect(badAffected.standardError.contains("--granularity must be one of target, test (got function)"))
    let matrix = try RippleBinary.run(["affected", "--granularity", "test", "--format", "matrix"], in: repo.root)
    #expect(matrix.status == 2)
    #expect(
      matrix.standardError.contains("--granularity test goes with --format text, json, markdown, names or filter"),
      "\(matrix.standardError)")
    let notATest = try RippleBinary.run(["test", "--explain", "CoreTests"], in: repo.root)
    #expect(notATest.status == 2)
    #expect(notATest.standardError.contains("--explain names one test"), "\(notATest.standardError)")
    let refresh = try RippleBinary.run(
      ["test", "--refresh-maps", "--dry-run", "--base", "HEAD"], in: repo.root,
      environment: Self.environment(repo, branch: "main"))
    #expect(refresh.status == 0, "\(refresh.standardError)")
    #expect(refresh.standardError.contains("--refresh-maps makes coverage maps only with test granularity"))
  }
}
