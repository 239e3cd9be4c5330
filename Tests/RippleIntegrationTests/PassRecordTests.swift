import Foundation
import TestSupport
import Testing

/// Pass records through the real binary, a real build and the local store (docs/DESIGN.md, "Pass records").
@Suite(.serialized, .exclusive(.cooperativeThread)) struct PassRecordTests {
  /// Records on, in a cache folder of this test's own (the suite's shared one has them off).
  private func environment(_ repo: TestRepository, branch: String, _ extra: [String: String] = [:]) -> [String: String]
  {
    ["RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": repo.root + "/.build/ripple-cache", "RIPPLE_BRANCH": branch]
      .merging(extra) { $1 }
  }

  private func report(_ path: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
  }

  private func ranTargets(_ report: [String: Any]) -> Set<String> {
    let packages = report["packages"] as? [[String: Any]] ?? []
    return Set(packages.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } })
  }

  private func cachedTargets(_ report: [String: Any]) -> Set<String> {
    Set((report["cached"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
  }

  @Test func aTargetThatPassedAtThisContentIsNotRunAgainAndAFailingOneAlwaysIs() throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let env = environment(repo, branch: "feature/x")

    // First push: everything affected runs; AppTests fails (deliberately), the others pass and are recorded.
    let first = try RippleBinary.test(["--report-json", repo.root + "/r1.json"], in: repo.root, environment: env)
    #expect(first.status == 1, "\(first.standardOutput)\(first.standardError)")
    #expect(ranTargets(try report(repo.root + "/r1.json")) == ["AppTests", "GreetingTests", "OtherTests"])

    // The same content again (a re-run): only the failed target runs; the shared package is not even built.
    let junit = repo.root + "/r2.xml"
    let second = try RippleBinary.test(
      ["--report-json", repo.root + "/r2.json", "--junit", junit], in: repo.root, environment: env)
    #expect(second.status == 1, "AppTests still fails: \(second.standardOutput)\(second.standardError)")
    let r2 = try report(repo.root + "/r2.json")
    #expect(ranTargets(r2) == ["AppTests"])
    #expect(cachedTargets(r2) == ["GreetingTests", "OtherTests"])
    let packages = (r2["packages"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    #expect(packages == ["."], "Packages/Shared has nothing left to run: \(packages)")
    #expect(second.standardOutput.contains("cached: GreetingTests (Packages/Shared) passed at this content in"))
    #expect(second.standardOutput.contains("of feature/x"))
    #expect(second.standardOutput.contains("2 targets cached"))
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    #expect(xml.contains("<skipped message=\"cached pass: passed at this content in"))

    // A new push changes Other's content: OtherTests' key changes, GreetingTests' does not.
    try repo.append("Sources/Other/Other.swift", "public let another = 2\n")
    let plan = try RippleBinary.run(["test", "--dry-run", "--format", "json"], in: repo.root, environment: env)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
    #expect(cachedTargets(json) == ["GreetingTests"], "\(plan.standardOutput)")

    // --rerun-cached and --no-cache-results run what is cached.
    let rerun = try RippleBinary.run(
      ["test", "--dry-run", "--format", "json", "--rerun-cached"], in: repo.root, environment: env)
    #expect(
      cachedTargets(
        try #require(try JSONSerialization.jsonObject(with: Data(rerun.standardOutput.utf8)) as? [String: Any])
      ).isEmpty)

    // main is protected: it believes none of feature/x's unsigned records, and says why.
    let onMain = try RippleBinary.run(
      ["test", "--dry-run", "--format", "json"], in: repo.root, environment: environment(repo, branch: "main"))
    let mainPlan = try #require(
      try JSONSerialization.jsonObject(with: Data(onMain.standardOutput.utf8)) as? [String: Any])
    #expect(cachedTargets(mainPlan).isEmpty)
    #expect(onMain.standardError.contains("unsigned pass record"), "\(onMain.standardError)")

    // --explain-key lists what went into a key.
    let explained = try RippleBinary.run(["test", "--explain-key", "GreetingTests"], in: repo.root, environment: env)
    #expect(explained.status == 0, "\(explained.standardError)")
    #expect(explained.standardOutput.contains("file  Packages/Shared/Sources/Greeting/Greeting.swift"))
    #expect(explained.standardOutput.contains("toolchain  swift --version"))
    let typo = try RippleBinary.run(["test", "--explain-key", "GreetingTest"], in: repo.root, environment: env)
    #expect(typo.status == 2 && typo.standardError.contains("Packages/Shared:GreetingTests"), "\(typo.standardError)")
  }
}
