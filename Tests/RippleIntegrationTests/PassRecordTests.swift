import Foundation
import TestSupport
import Testing

/// Pass records through the real binary, a real build and the local store (docs/DESIGN.md, "Pass records").
@Suite(.serialized, .exclusive(.cooperativeThread)) struct PassRecordTests {
  /// Records on, in a cache folder of this test's own (the suite's shared one has them off).
  private func environment(_ repo: TestRepository, branch: String, _ extra: [String: String] = [:]) -> [String: String]
  {
    [
      "RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": RippleBinary.privateCache(repo.root + "/.build/ripple-cache"),
      "RIPPLE_BRANCH": branch,
    ]
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

  /// Issue 48: `store: ./` over a repository with a tracked two-letter folder `db/` and a small `maxSize` deleted
  /// its files. The folder is refused before anything runs or is deleted: exit 2, naming the path.
  @Test func aLocalStoreInTheRepositoryIsRefusedWithExit2BeforeAnythingIsDeleted() throws {
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
    for index in 0..<10 { try repo.write("db/\(index).sql", String(repeating: "x", count: 2000)) }
    try repo.write("ripple.yml", "test:\n  resultCache:\n    store: ./\n    maxSize: 1000\n")
    _ = try repo.commitAll("db")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    for folder in ["./", "./db"] {
      try repo.write("ripple.yml", "test:\n  resultCache:\n    store: \(folder)\n    maxSize: 1000\n")
      let result = try RippleBinary.test([], in: repo.root, environment: environment(repo, branch: "feature/x"))
      #expect(result.status == 2, "\(folder): \(result.standardOutput)\(result.standardError)")
      #expect(result.standardError.contains("refusing "), "\(result.standardError)")
      #expect(result.standardError.contains("as the local store's folder"), "\(result.standardError)")
      for index in 0..<10 { #expect(FileManager.default.fileExists(atPath: repo.root + "/db/\(index).sql")) }
    }
  }

  @Test func aTargetThatPassedAtThisContentIsNotRunAgainAndAFailingOneAlwaysIs() throws {
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let env = environment(repo, branch: "feature/x")

    // First push: everything affected runs; AppTests fails (deliberately), the others pass and are recorded.
    let first = try RippleBinary.test(
      ["--report-json", repo.root + "/.build/r1.json"], in: repo.root, environment: env)
    #expect(first.status == 1, "\(first.standardOutput)\(first.standardError)")
    #expect(ranTargets(try report(repo.root + "/.build/r1.json")) == ["AppTests", "GreetingTests", "OtherTests"])

    // The same content again (a re-run): only the failed target runs; the shared package is not even built.
    let junit = repo.root + "/.build/r2.xml"
    let second = try RippleBinary.test(
      ["--report-json", repo.root + "/.build/r2.json", "--junit", junit], in: repo.root, environment: env)
    #expect(second.status == 1, "AppTests still fails: \(second.standardOutput)\(second.standardError)")
    let r2 = try report(repo.root + "/.build/r2.json")
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
    // The same arguments after `--` as the runs above: they are part of every key.
    let plan = try RippleBinary.test(["--dry-run", "--format", "json"], in: repo.root, environment: env)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
    #expect(cachedTargets(json) == ["GreetingTests"], "\(plan.standardOutput)")

    // --rerun-cached and --no-cache-results run what is cached.
    let rerun = try RippleBinary.test(
      ["--dry-run", "--format", "json", "--rerun-cached"], in: repo.root, environment: env)
    let rerunPlan = try #require(
      try JSONSerialization.jsonObject(with: Data(rerun.standardOutput.utf8)) as? [String: Any])
    #expect(cachedTargets(rerunPlan).isEmpty)
    #expect((rerunPlan["keys"] as? [[String: Any]])?.count == 3, "every selected target is keyed, to record again")
    let off = try RippleBinary.test(
      ["--dry-run", "--format", "json", "--no-cache-results"], in: repo.root, environment: env)
    let offPlan = try #require(try JSONSerialization.jsonObject(with: Data(off.standardOutput.utf8)) as? [String: Any])
    #expect(cachedTargets(offPlan).isEmpty && (offPlan["keys"] as? [Any])?.isEmpty == true)

    // main is protected: it believes none of feature/x's unsigned records, and says why.
    let onMain = try RippleBinary.test(
      ["--dry-run", "--format", "json"], in: repo.root, environment: environment(repo, branch: "main"))
    let mainPlan = try #require(
      try JSONSerialization.jsonObject(with: Data(onMain.standardOutput.utf8)) as? [String: Any])
    #expect(cachedTargets(mainPlan).isEmpty)
    #expect(onMain.standardError.contains("unsigned pass record"), "\(onMain.standardError)")
    // Once, with how to sign (issue 52).
    let ignoredLines = onMain.standardError.split(separator: "\n").filter { $0.contains("ignored") }
    #expect(ignoredLines.count == 1, "\(onMain.standardError)")
    #expect(ignoredLines.first?.contains("ripple results keygen --out FILE") == true, "\(onMain.standardError)")

    // --explain-key lists what went into a key: its lines, then each closure target's node and what it digests.
    let explained = try RippleBinary.test(["--explain-key", "GreetingTests"], in: repo.root, environment: env)
    #expect(explained.status == 0, "\(explained.standardError)")
    let closureLine = explained.standardOutput.split(separator: "\n").first { $0.hasPrefix("  closure  ") }
    let testNode = explained.standardOutput.split(separator: "\n").first {
      $0.hasPrefix("  node  Packages/Shared:GreetingTests  ")
    }
    #expect(
      closureLine?.split(separator: " ").last == testNode?.split(separator: " ").last && testNode != nil,
      "\(explained.standardOutput)")
    #expect(explained.standardOutput.contains("  node  Packages/Shared:Greeting  "))
    #expect(explained.standardOutput.contains("    depends  Packages/Shared:Greeting  "))
    #expect(explained.standardOutput.contains("files  Packages/Shared:Greeting  "), "\(explained.standardOutput)")
    #expect(explained.standardOutput.contains("  Packages/Shared/Sources/Greeting/Greeting.swift\n"))
    #expect(explained.standardOutput.contains("toolchain  swift --version"))
    let typo = try RippleBinary.test(["--explain-key", "GreetingTest"], in: repo.root, environment: env)
    #expect(typo.status == 2 && typo.standardError.contains("Packages/Shared:GreetingTests"), "\(typo.standardError)")
  }

  @Test func mainsSignedRecordsAreBelievedByEveryBranchAndAForgedOneByNone() throws {
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
    let keys = try RippleBinary.run(["results", "keygen", "--name", "ci-main"], in: repo.root)
    let lines = keys.standardOutput.split(separator: "\n").map(String.init)
    let secret = try #require(lines.first { $0.hasPrefix("RIPPLE_RESULT_SIGNING_KEY=") }?.dropFirst(26))
    let publicKey = try #require(lines.first { $0.contains("key: ") }?.split(separator: " ").last)
    try repo.write(
      "ripple.yml", "test:\n  resultCache:\n    publicKeys:\n      - name: ci-main\n        key: \(publicKey)\n")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let shared = RippleBinary.privateCache(repo.root + "/.build/team-store")

    // A pull request's job writes first, unsigned, at the keys main will compute (CREEP).
    let pr = environment(repo, branch: "feature/x", ["RIPPLE_CACHE_DIR": shared])
    let forged = try RippleBinary.test(
      ["--report-json", repo.root + "/.build/pr.json"], in: repo.root, environment: pr)
    #expect(cachedTargets(try report(repo.root + "/.build/pr.json")).isEmpty, "\(forged.standardError)")

    // main's job: the PR's records are not believed, its tests run, and its passes are signed.
    let main = environment(
      repo, branch: "main", ["RIPPLE_CACHE_DIR": shared, "RIPPLE_RESULT_SIGNING_KEY": String(secret)])
    _ = try RippleBinary.test(["--report-json", repo.root + "/.build/main.json"], in: repo.root, environment: main)
    let mainReport = try report(repo.root + "/.build/main.json")
    #expect(cachedTargets(mainReport).isEmpty)
    #expect(ranTargets(mainReport).contains("OtherTests"))

    // Any branch now believes main's signed records.
    let other = try RippleBinary.test(
      ["--dry-run", "--format", "json"], in: repo.root,
      environment: environment(repo, branch: "feature/y", ["RIPPLE_CACHE_DIR": shared]))
    let plan = try #require(try JSONSerialization.jsonObject(with: Data(other.standardOutput.utf8)) as? [String: Any])
    let cached = plan["cached"] as? [[String: Any]] ?? []
    #expect(Set(cached.compactMap { $0["name"] as? String }) == ["OtherTests"], "\(other.standardOutput)")
    #expect(cached.first?["signer"] as? String == "ci-main")
    #expect(cached.first?["branch"] as? String == "main")

    // A branch that runs them anyway writes its unsigned records at main's keys: main's signed ones stay
    // (issue 48: no write lowers trust), and the next branch still believes them.
    let rerun = try RippleBinary.test(
      ["--rerun-cached"], in: repo.root,
      environment: environment(repo, branch: "feature/z", ["RIPPLE_CACHE_DIR": shared]))
    #expect(
      rerun.standardError.contains("a signed record is never replaced by an unsigned one"), "\(rerun.standardError)")
    let again = try RippleBinary.test(
      ["--dry-run", "--format", "json"], in: repo.root,
      environment: environment(repo, branch: "feature/y", ["RIPPLE_CACHE_DIR": shared]))
    let replan = try #require(try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any])
    let still = replan["cached"] as? [[String: Any]] ?? []
    #expect(still.first { $0["name"] as? String == "OtherTests" }?["signer"] as? String == "ci-main")
  }

  @Test func aFreshRunnerReadsTheLastGreenBaseAndTheTeamsTimingsFromTheStore() throws {
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
    let keys = try RippleBinary.run(["results", "keygen", "--name", "ci-main"], in: repo.root)
    let lines = keys.standardOutput.split(separator: "\n").map(String.init)
    let secret = try #require(lines.first { $0.hasPrefix("RIPPLE_RESULT_SIGNING_KEY=") }?.dropFirst(26))
    let publicKey = try #require(lines.first { $0.contains("key: ") }?.split(separator: " ").last)
    // Beside the work tree: a configured local store is never inside it (issue 48).
    let store = (repo.root as NSString).deletingLastPathComponent + "/team-store"
    try repo.write(
      "ripple.yml",
      "test:\n  resultCache:\n    store: \(store)\n    publicKeys:\n      - name: ci-main\n        key: \(publicKey)\n")
    try repo.write(
      "Tests/AppTests/AppTests.swift",
      "import App\nimport XCTest\n\nfinal class AppTests: XCTestCase {\n  func testWelcome() { XCTAssertEqual(welcome(), \"hi app\") }\n}\n"
    )
    let green = try repo.commitAll("AppTests passes")
    func affected(_ arguments: [String], branch: String, _ extra: [String: String] = [:]) throws -> CommandResult {
      try RippleBinary.run(
        ["affected"] + arguments, in: repo.root, environment: environment(repo, branch: branch, extra))
    }

    // No green run yet: the merge-base, and on main's own tip every test, each with the reason.
    let none = try affected(["--base", "auto"], branch: "main")
    #expect(none.status == 0, "\(none.standardError)")
    #expect(none.standardOutput.contains("no green run of main"), "\(none.standardOutput)")
    #expect(none.standardOutput.contains("every test runs"), "\(none.standardOutput)")

    // main's CI runs everything, signed: the store now knows a green commit and every test's time.
    let summary = repo.root + "/.build/summary.md"
    try "# Earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
    let main = try RippleBinary.test(
      ["--all", "--summary-md", summary], in: repo.root,
      environment: environment(repo, branch: "main", ["RIPPLE_RESULT_SIGNING_KEY": String(secret)]))
    #expect(main.status == 0, "\(main.standardOutput)\(main.standardError)")
    // --summary-md appends to what the job's earlier steps wrote (GitHub's $GITHUB_STEP_SUMMARY).
    let markdown = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(markdown.hasPrefix("# Earlier step\n### Ripple test: passed — 3 tests"), "\(markdown)")
    #expect(markdown.contains("| `GreetingTests` | Packages/Shared | 1 | 1 | 0 | 0 |"), "\(markdown)")
    #expect(main.standardOutput.contains("Wall-clock "), "\(main.standardOutput)")

    // A pull request's runner, later: two commits on top; it compares with main's green commit, and says so.
    try repo.append("Sources/Other/Other.swift", "public let more = 2\n")
    // Not `commitAll`, which forces ignored files (the build folders) in.
    _ = try repo.git("commit", "-qam", "more")
    let pr = try affected(
      ["--base", "auto", "--format", "json"], branch: "feature/y", ["GITHUB_BASE_REF": "main"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(pr.standardOutput.utf8)) as? [String: Any])
    #expect(json["base"] as? String == green, "\(pr.standardOutput)\(pr.standardError)")
    #expect((json["baseSource"] as? String)?.contains("the last green run of main") == true)
    #expect(
      (json["testTargets"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["OtherTests"],
      "\(pr.standardOutput)")
    let chains = try affected(
      ["--base", "auto", "--explain", "--all"], branch: "feature/y", ["GITHUB_BASE_REF": "main"])
    #expect(
      chains.standardOutput.hasPrefix(".:OtherTests\n  changed Sources/Other/Other.swift → Other\n"),
      "\(chains.standardOutput)")
    let comment = try affected(
      ["--base", "auto", "--format", "markdown"], branch: "feature/y", ["GITHUB_BASE_REF": "main"])
    #expect(comment.standardOutput.contains("| App (root package) | `OtherTests` | depends on Other |"))

    // Its own timing history is empty: the matrix is planned on the team's, without the "defaults" warning.
    try? FileManager.default.removeItem(atPath: repo.root + "/.build/ripple/timings.json")
    let matrix = try affected(["--base", "auto", "--format", "matrix", "--shards", "2"], branch: "feature/y")
    #expect(matrix.status == 0, "\(matrix.standardError)")
    #expect(!matrix.standardError.contains("planned on defaults"), "\(matrix.standardError)")
    let alone = try affected(
      ["--base", "HEAD~1", "--format", "matrix", "--shards", "2"], branch: "feature/y", ["RIPPLE_NO_CACHE_RESULTS": "1"]
    )
    #expect(alone.standardError.contains("planned on defaults"), "\(alone.standardError)")

    // Another branch's green (unsigned, in its own history) does not move feature/y's base.
    let other = try RippleBinary.test(["--all"], in: repo.root, environment: environment(repo, branch: "feature/z"))
    #expect(other.status == 0, "\(other.standardOutput)\(other.standardError)")
    let still = try affected(["--base", "auto", "--format", "json"], branch: "feature/y", ["GITHUB_BASE_REF": "main"])
    let stillJSON = try #require(
      try JSONSerialization.jsonObject(with: Data(still.standardOutput.utf8)) as? [String: Any])
    #expect(stillJSON["base"] as? String == green)
  }

  private func unsetWarningsMention(_ folder: String, in result: CommandResult) -> Bool {
    result.standardError.contains("`\(folder)/` to .gitignore")
  }

  /// Keys from `--dry-run --format json`, by target.
  private func keys(_ arguments: [String], _ repo: TestRepository, _ env: [String: String]) throws -> [String: String] {
    let plan = try RippleBinary.test(["--dry-run", "--format", "json"] + arguments, in: repo.root, environment: env)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.standardOutput.utf8)) as? [String: Any])
    var out: [String: String] = [:]
    for entry in json["keys"] as? [[String: Any]] ?? [] {
      out[entry["target"] as? String ?? "?"] = entry["key"] as? String
    }
    return out
  }

  @Test func flagsTheRunsEnvironmentAndAllowListedVariablesAreInEveryKeyAndADownStoreOnlyWarns() throws {
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
    try repo.write("ripple.yml", "test:\n  resultCache:\n    keyEnvironment: [RIPPLE_IT_SDK]\n")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let env = environment(repo, branch: "feature/x")
    let plain = try keys([], repo, env)
    #expect(plain.keys.sorted() == ["OtherTests"])
    #expect(try keys([], repo, env) == plain, "the same state, the same key")
    #expect(try keys(["--", "-c", "release"], repo, env)["OtherTests"] != plain["OtherTests"], "a flag after --")
    #expect(try keys([], repo, environment(repo, branch: "feature/x", ["RIPPLE_IT_SDK": "17"])) != plain)

    // A cache folder inside the work tree, not ignored, would change every key: said, with the fix.
    let inside = try RippleBinary.test(
      ["--dry-run"], in: repo.root,
      environment: environment(repo, branch: "feature/x", ["RIPPLE_CACHE_DIR": repo.root + "/.ripple-cache"]))
    #expect(inside.standardError.contains("add `.ripple-cache/` to .gitignore"), "\(inside.standardError)")
    try FileManager.default.removeItem(atPath: repo.root + "/.ripple-cache")
    #expect(!unsetWarningsMention(".build", in: try RippleBinary.test(["--dry-run"], in: repo.root, environment: env)))
    let badKey = try RippleBinary.test(
      ["--dry-run"], in: repo.root,
      environment: environment(repo, branch: "main", ["RIPPLE_RESULT_SIGNING_KEY": "c2hvcnQ="]))
    #expect(badKey.standardError.contains("RIPPLE_RESULT_SIGNING_KEY is not a base64 Ed25519 private key"))
    #expect(
      badKey.standardError.contains("(it decodes to 5 bytes; an Ed25519 private key is 32"), "\(badKey.standardError)")
    let unset = try RippleBinary.test(["--dry-run"], in: repo.root, environment: env)
    // What was compared comes first (issue 43): in `test`'s output and on `changes`' stderr.
    #expect(unset.standardOutput.hasPrefix("Comparing the working tree with "), "\(unset.standardOutput)")
    let changes = try RippleBinary.run(["changes"], in: repo.root, environment: env)
    #expect(changes.standardError.hasPrefix("Comparing the working tree with "), "\(changes.standardError)")
    #expect(changes.standardOutput.hasPrefix("modified\t"), "stdout stays one change per line")
    #expect(
      unset.standardError.contains("keyEnvironment names RIPPLE_IT_SDK, which is not set"), "\(unset.standardError)")
    // `--coverage` keys the whole suite: the selection's keys are taken from those, the same keys, and what
    // keying says is said once.
    #expect(try keys(["--coverage"], repo, env) == plain)
    let covered = try RippleBinary.test(["--dry-run", "--coverage"], in: repo.root, environment: env)
    #expect(covered.status == 0, "\(covered.standardError)")
    #expect(
      covered.standardError.components(separatedBy: "keyEnvironment names RIPPLE_IT_SDK, which is not set").count
        == 2, "\(covered.standardError)")

    try repo.write(
      "ripple.yml",
      "test:\n  resultCache:\n    keyEnvironment: [RIPPLE_IT_SDK]\n  runs:\n    - name: default\n"
        + "      environment: {TEST_MODE: fast}\n")
    #expect(try keys([], repo, env)["OtherTests"] != plain["OtherTests"], "the test run's environment")

    // A store that is down is a warning; the targets stay selected and keyed, nothing is skipped.
    try repo.write("ripple.yml", "test:\n  resultCache:\n    store: bazel+http://user:pw@127.0.0.1:9/cache\n")
    let down = try RippleBinary.test(["--dry-run", "--format", "json"], in: repo.root, environment: env)
    #expect(down.status == 0, "\(down.standardError)")
    #expect(down.standardError.contains("could not be read"), "\(down.standardError)")
    // One warning for the store, not one per target or history slot (issue 52).
    #expect(
      down.standardError.split(separator: "\n").filter { $0.contains("127.0.0.1") }.count == 1, "\(down.standardError)")
    #expect(!down.standardError.contains("pw"), "credentials are never printed: \(down.standardError)")
    let plan = try #require(try JSONSerialization.jsonObject(with: Data(down.standardOutput.utf8)) as? [String: Any])
    #expect((plan["cached"] as? [Any])?.isEmpty == true)
    #expect((plan["runs"] as? [[String: Any]])?.flatMap { $0["testTargets"] as? [String] ?? [] } == ["OtherTests"])
  }
}
