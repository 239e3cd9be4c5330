import Foundation
import TestSupport
import Testing

/// Runs reported exactly (issue 49), through the real binary with no store: a full `--all` run on any branch
/// measures the suite and claims no saving, a later selective run compares its tests with that run's; and
/// the reports a run wrote into the work tree are no change for the next one.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct SavingsCommandTests {
  /// Two packages' worth of targets: Core and Other, each with a Swift Testing test target; handed on from test
  /// to test with its build folder (`GitFixture.reused`).
  static func makeRepository() throws -> TestRepository {
    try TestRepository.reused("SavingsCommandTests", populate: populate)
  }

  private static func populate(_ repo: TestRepository) throws {
    try repo.write(
      "Package.swift",
      "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n  name: \"App\",\n"
        + "  targets: [\n    .target(name: \"Core\"), .target(name: \"Other\"),\n"
        + "    .testTarget(name: \"CoreTests\", dependencies: [\"Core\"]),\n"
        + "    .testTarget(name: \"OtherTests\", dependencies: [\"Other\"]),\n  ]\n)\n")
    try repo.write("Sources/Core/Core.swift", "public let core = 1\n")
    try repo.write("Sources/Other/Other.swift", "public let other = 1\n")
    try repo.write(
      "Tests/CoreTests/CoreTests.swift", "import Core\nimport Testing\n@Test func core() { #expect(Core.core == 1) }\n")
    try repo.write(
      "Tests/OtherTests/OtherTests.swift",
      "import Other\nimport Testing\n@Test func other() { #expect(Other.other == 1) }\n")
    try repo.write(".gitignore", ".build/\n")
    _ = try repo.commitAll("app")
  }

  static func environment(_ repo: TestRepository) -> [String: String] {
    [
      "RIPPLE_NO_CACHE_RESULTS": "1", "RIPPLE_BRANCH": "feature/x",
      "RIPPLE_CACHE_DIR": RippleBinary.privateCache(repo.root + "/.build/c"),
    ]
  }

  @Test func aFullRunMeasuresTheSuiteAndALaterRunComparesTestsWithTests() throws {
    let repo = try Self.makeRepository()
    let env = Self.environment(repo)

    let first = try RippleBinary.test(["--all"], in: repo.root, environment: env)
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(
      first.standardOutput.contains("this run tested the whole suite: it saved nothing"), "\(first.standardOutput)")
    let second = try RippleBinary.test(["--all"], in: repo.root, environment: env)
    #expect(!second.standardOutput.contains("not known yet"), "the first --all measured it: \(second.standardOutput)")
    #expect(second.standardOutput.contains("it saved nothing"))

    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let selective = try RippleBinary.test([], in: repo.root, environment: env)
    #expect(selective.status == 0, "\(selective.standardOutput)\(selective.standardError)")
    #expect(selective.standardOutput.contains("the full suite's tests took"), "\(selective.standardOutput)")
    #expect(selective.standardOutput.contains("of test time saved (builds not compared"))
    #expect(!selective.standardOutput.contains("estimate"))
  }

  /// `--junit junit.xml --report-json report.json`, as the README shows, once made the next run "every test
  /// runs: junit.xml, report.json". Recorded by content, they are no change; edited, they are.
  @Test func ripplesOwnReportsAreNoChangeForTheNextRun() throws {
    let repo = try Self.makeRepository()
    let env = Self.environment(repo)
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let run = try RippleBinary.test(
      ["--junit", "junit.xml", "--report-json", "out/report.json"], in: repo.root, environment: env)
    #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    let next = try RippleBinary.run(["affected", "--format", "names"], in: repo.root, environment: env)
    #expect(next.standardOutput.split(separator: "\n").map(String.init) == ["OtherTests"], "\(next.standardOutput)")
    #expect(!next.standardError.contains("junit.xml"), "\(next.standardError)")
    let changes = try RippleBinary.run(["changes"], in: repo.root, environment: env)
    #expect(!changes.standardOutput.contains("junit.xml"))
    #expect(changes.standardError.contains("written by ripple test"), "\(changes.standardError)")
    // A person's edit of a report is a change again.
    try repo.append("junit.xml", "<!-- edited -->\n")
    let edited = try RippleBinary.run(["changes"], in: repo.root, environment: env)
    #expect(edited.standardOutput.contains("junit.xml"), "\(edited.standardOutput)")
  }
}
