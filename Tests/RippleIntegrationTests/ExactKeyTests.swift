import Foundation
import TestSupport
import Testing

/// Keys that see what the build sees (issue 47), through the real binary: each input kind a build reads
/// changes the keys of exactly the targets that read it, and what cannot be keyed is never looked up or
/// recorded (docs/DESIGN.md, "Pass records").
@Suite(.serialized, .exclusive(.cooperativeThread)) struct ExactKeyTests {
  private func environment(_ repo: TestRepository, _ extra: [String: String] = [:]) -> [String: String] {
    [
      "RIPPLE_NO_CACHE_RESULTS": "0", "RIPPLE_CACHE_DIR": RippleBinary.privateCache(repo.root + "/.build/ripple-cache"),
      "RIPPLE_BRANCH": "feature/x",
    ]
    .merging(extra) { $1 }
  }

  private func plan(_ repo: TestRepository, _ env: [String: String], _ arguments: [String] = []) throws -> (
    keys: [String: String], unkeyable: [String: [String]], cached: Set<String>, stderr: String
  ) {
    let result = try RippleBinary.test(
      ["--dry-run", "--format", "json"] + arguments, in: repo.root, environment: env)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
      "\(result.standardOutput)\(result.standardError)")
    var keys: [String: String] = [:]
    var unkeyable: [String: [String]] = [:]
    for entry in json["keys"] as? [[String: Any]] ?? [] {
      let target = entry["target"] as? String ?? "?"
      keys[target] = entry["key"] as? String
      if let reasons = entry["unkeyable"] as? [String] { unkeyable[target] = reasons }
    }
    let cached = Set((json["cached"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
    return (keys, unkeyable, cached, result.standardError)
  }

  /// The targets whose key differs between two plans.
  private func changed(_ before: [String: String], _ after: [String: String]) -> Set<String> {
    Set(before.keys.filter { before[$0] != after[$0] })
  }

  @Test func everyInputTheBuildReadsChangesTheKeysOfItsReadersOnly() throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.write(".gitignore", ".build/\nSources/Other/Generated/\nConfig/Secrets.swift\n")
    try repo.write("Config/Secrets.swift.template", "let token = \"{{TOKEN}}\"\n")
    try repo.commitAll("ignore generated folders")
    // Both packages' tests are selected (an edit in each).
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    let env = environment(repo)
    let base = try plan(repo, env).keys
    #expect(Set(base.keys) == ["AppTests", "OtherTests", "GreetingTests"], "\(base)")
    #expect(try plan(repo, env).keys == base, "one state, one key")

    // A file mode: the executable bit of a source.
    #expect(chmod(repo.root + "/Sources/Other/Other.swift", 0o755) == 0)
    let executable = try plan(repo, env).keys
    #expect(changed(base, executable) == ["OtherTests"])
    #expect(chmod(repo.root + "/Sources/Other/Other.swift", 0o644) == 0)
    #expect(try plan(repo, env).keys == base, "the mode back, the key back")

    // A git-ignored file in a target's folder (SwiftPM compiles it): by content.
    try repo.write("Sources/Other/Generated/Extra.swift", "public let extra = 1\n")
    let ignored = try plan(repo, env).keys
    #expect(changed(base, ignored) == ["OtherTests"])
    try repo.write("Sources/Other/Generated/Extra.swift", "public let extra = 2\n")
    let edited = try plan(repo, env).keys
    #expect(changed(ignored, edited) == ["OtherTests"])
    try repo.write("Sources/Other/Generated/Extra.swift", "public let extra = 1\n")
    #expect(try plan(repo, env).keys == ignored, "the same bytes, the same key (the digest's stat cache re-reads)")
    try FileManager.default.removeItem(atPath: repo.root + "/Sources/Other/Generated")

    // A variable that selects another compiler without changing `swift --version`.
    let swiftExec = try plan(repo, environment(repo, ["SWIFT_EXEC": "/opt/other/swiftc"])).keys
    #expect(changed(base, swiftExec) == ["AppTests", "OtherTests", "GreetingTests"])

    // A `secrets:` entry keys into the owner of its output (its template is then Other's, no longer unowned).
    func secrets(_ variable: String) throws {
      try repo.write(
        "ripple.yml",
        "secrets:\n  - id: api\n    template: Config/Secrets.swift.template\n    output: Sources/Other/Secrets.swift\n"
          + "    values: {TOKEN: \(variable)}\n")
    }
    try secrets("RIPPLE_IT_TOKEN")
    let secret = try plan(repo, env).keys
    try secrets("RIPPLE_IT_OTHER_TOKEN")
    #expect(changed(secret, try plan(repo, env).keys) == ["OtherTests"], "its entry")
    try secrets("RIPPLE_IT_TOKEN")
    #expect(try plan(repo, env).keys == secret)
    try repo.write("Config/Secrets.swift.template", "let token = \"{{TOKEN}}\" // v2\n")
    #expect(changed(secret, try plan(repo, env).keys) == ["OtherTests"], "its template")
  }

  @Test func aManifestReadingAVariableIsWarnedAndKeyedByItsValue() throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.append(
      "Package.swift",
      "if Context.environment[\"RIPPLE_IT_FLAG\"] != nil { package.targets[1].path = nil }\n"
        + "if Context.environment[\"HOME\"] == \"/nonexistent\" { package.targets[1].path = nil }\n")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let unset = try plan(repo, environment(repo))
    #expect(unset.stderr.contains("Package.swift reads HOME, RIPPLE_IT_FLAG"), "\(unset.stderr)")
    #expect(unset.stderr.contains("no selection.manifestEnvironments entry sets"))
    #expect(unset.stderr.contains("runs without RIPPLE_IT_FLAG)"), "HOME is passed to evaluations, the flag is not")
    let set = try plan(repo, environment(repo, ["RIPPLE_IT_FLAG": "1"]))
    #expect(changed(unset.keys, set.keys) == ["OtherTests"], "\(unset.keys) \(set.keys)")
    // HOME reaches the evaluation (the toolchain needs it): named in the warning, its value keyed.
    let home = try plan(repo, environment(repo, ["HOME": repo.root + "/.build/other-home"]))
    #expect(changed(unset.keys, home.keys) == ["OtherTests"], "another HOME, another key")
  }

  @Test func aLinkLeavingTheRepositoryMakesItsTargetUnkeyableAndSaysSo() throws {
    let repo = try TestCommandTests.makeRepository()
    let outside = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-outside-\(UUID())").path
    try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: outside) }
    try "public let shared = 1\n".write(toFile: outside + "/Shared.swift", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: repo.root + "/Sources/Other/Shared", withDestinationPath: outside)
    try repo.commitAll("link a folder outside")
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    let result = try plan(repo, environment(repo))
    let reasons = try #require(result.unkeyable["OtherTests"], "\(result.unkeyable)")
    #expect(reasons.contains { $0.contains("Sources/Other/Shared links outside the repository") }, "\(reasons)")
    #expect(result.unkeyable["GreetingTests"] == nil, "only the target whose folder holds the link")
    #expect(result.stderr.contains("OtherTests is not looked up and will not be recorded"), "\(result.stderr)")
    let explained = try RippleBinary.test(
      ["--explain-key", "OtherTests"], in: repo.root, environment: environment(repo))
    #expect(explained.standardOutput.contains("not keyed (never looked up, never recorded)"))
  }

  /// A real run with `--head` naming another commit than the one built: nothing is recorded; the same run
  /// of the checked-out commit records, and the next plan finds it.
  @Test func headNamingAnotherCommitThanTheTestedTreeRecordsNothing() throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.append("Sources/Other/Other.swift", "// first\n")
    let first = try repo.commitAll("first")
    try repo.append("Sources/Other/Other.swift", "// second\n")
    _ = try repo.commitAll("second")
    let env = environment(repo)
    let other = try RippleBinary.test(
      ["--base", "HEAD~2", "--head", first, "--no-merge-base"], in: repo.root, environment: env)
    #expect(other.status == 0, "\(other.standardOutput)\(other.standardError)")
    #expect(
      (other.standardOutput + other.standardError).contains("no pass record is written: --head names"),
      "\(other.standardOutput)\(other.standardError)")
    let again = try plan(repo, env, ["--base", "HEAD~2"])
    #expect(again.keys.keys.contains("OtherTests"), "\(again.keys)")
    #expect(again.cached.isEmpty, "nothing was recorded for the tree that was built")

    let tested = try RippleBinary.test(["--base", "HEAD~1", "--head", "HEAD"], in: repo.root, environment: env)
    #expect(tested.status == 0, "\(tested.standardOutput)\(tested.standardError)")
    #expect(try plan(repo, env, ["--base", "HEAD~2"]).cached == ["OtherTests"], "the checked-out commit's run is")
  }

  /// A dependency on a branch, with `Package.resolved` git-ignored (as libraries do): the key holds the pins
  /// SwiftPM resolved, read again after the build. A missing file is said and the target runs; the record is
  /// written under the pins the build resolved; the branch's tip moving changes nothing until the pins move
  /// (the build keeps building the pinned revision); `swift package update` changes the key; a corrupt file
  /// is said, never keyed.
  @Test func theKeyHoldsThePinsSwiftPMResolvedForABranchDependency() throws {
    let dependency = try GitFixture()
    try dependency.write(
      "Package.swift",
      "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n  name: \"Dep\",\n"
        + "  products: [.library(name: \"Dep\", targets: [\"Dep\"])],\n  targets: [.target(name: \"Dep\")]\n)\n")
    try dependency.write("Sources/Dep/Dep.swift", "public let dep = 1\n")
    _ = try dependency.commitAll("dep 1")
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n  name: \"App\",\n"
        + "  dependencies: [.package(url: \"file://\(dependency.root)\", branch: \"main\")],\n"
        + "  targets: [\n    .target(name: \"App\", dependencies: [.product(name: \"Dep\", package: \"\(URL(fileURLWithPath: dependency.root).lastPathComponent)\")]),\n"
        + "    .testTarget(name: \"AppTests\", dependencies: [\"App\"]),\n  ]\n)\n")
    try repo.write("Sources/App/App.swift", "import Dep\npublic let app = dep\n")
    try repo.write(
      "Tests/AppTests/AppTests.swift",
      "import App\nimport XCTest\n\nfinal class AppTests: XCTestCase {\n  func testApp() { XCTAssertEqual(app, 1) }\n}\n"
    )
    try repo.write(".gitignore", ".build/\nPackage.resolved\n")
    _ = try repo.commitAll("app")
    try repo.append("Sources/App/App.swift", "// edit\n")
    let env = environment(repo)

    let unresolved = try plan(repo, env)
    #expect(unresolved.unkeyable["AppTests"]?.first?.contains("Package.resolved is missing") == true, "\(unresolved)")
    let run = try RippleBinary.test([], in: repo.root, environment: env)
    #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    let resolved = try plan(repo, env)
    #expect(resolved.unkeyable.isEmpty && resolved.cached == ["AppTests"], "recorded under the pins the build resolved")

    // The branch moves: SwiftPM keeps building the pinned revision, so the key (and the record) stand.
    try dependency.write("Sources/Dep/Dep.swift", "public let dep = 2\n")
    _ = try dependency.commitAll("dep 2")
    #expect(try plan(repo, env).cached == ["AppTests"])
    let update = try Command.run(["swift", "package", "update"], in: repo.root)
    #expect(update.status == 0, "\(update.standardError)")
    let updated = try plan(repo, env)
    #expect(updated.cached.isEmpty && updated.keys["AppTests"] != resolved.keys["AppTests"], "new pins, new key")

    try repo.write("Package.resolved", "{ not json")
    let corrupt = try plan(repo, env)
    #expect(corrupt.unkeyable["AppTests"]?.first?.contains("Package.resolved cannot be used") == true, "\(corrupt)")
    #expect(corrupt.stderr.contains("AppTests is not looked up and will not be recorded"))
  }
}
