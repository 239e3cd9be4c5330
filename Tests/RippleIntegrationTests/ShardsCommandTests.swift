import Foundation
import TestSupport
import Testing

/// Real shards of one job, run one after another on one machine as `ripple test --shard I/3` with the timing
/// history they update: a target split by suites and tests (Swift Testing and XCTest in one target, a nested
/// suite, a parameterised test), and `ripple shards check` over their reports.
@Suite struct ShardsCommandTests {
  static func makeRepository() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "Mix",
        targets: [
          .target(name: "Mix"),
          .testTarget(name: "MixTests", dependencies: ["Mix"]),
          .testTarget(name: "OtherTests", dependencies: ["Mix"]),
        ]
      )

      """)
    try repo.write("Sources/Mix/Mix.swift", "public let one = 1\n")
    try repo.write(
      "Tests/MixTests/MixTests.swift",
      """
      import Mix
      import Testing
      import XCTest

      @Suite struct Alpha {
        @Test func a1() { #expect(one == 1) }
        @Test func a2() {}
        @Test(arguments: [1, 2, 3]) func param(x: Int) { #expect(x > 0) }
        @Suite struct Inner {
          @Test func deep() {}
        }
      }

      @Suite struct Beta {
        @Test func b1() {}
      }

      @Test func free() {}

      final class Classic: XCTestCase {
        func testOne() {}
        func testTwo() {}
      }

      """)
    try repo.write(
      "Tests/OtherTests/OtherTests.swift",
      "import XCTest\n\nfinal class OtherTests: XCTestCase {\n  func testOther() {}\n}\n")
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("Initial import")
    return repo
  }

  /// MixTests is most of the suite and Alpha most of MixTests: Alpha is split by test, the rest of MixTests by
  /// suite, and its remainder leaves out what went elsewhere, the nested suite's test among them. Each shard then
  /// records far shorter times than these: a shard that planned again would split differently.
  static let timings = """
    {"schemaVersion": 1, "packages": {".": {"MixTests": 10, "OtherTests": 1}},
     "suites": {".": {"MixTests": {"Alpha": 8, "Classic": 1}}},
     "tests": {".": {"MixTests": {"Alpha/a1()": 3, "Alpha.Inner/deep()": 3, "Alpha/a2()": 1, "Alpha/param(x:)": 1}}}}
    """

  @Test func threeShardsRunEveryTestOnceAndTheCheckProvesIt() throws {
    let repo = try Self.makeRepository()
    let timings = repo.root + "/.build/ripple/timings.json"
    try FileManager.default.createDirectory(atPath: repo.root + "/.build/ripple", withIntermediateDirectories: true)
    try Data(Self.timings.utf8).write(to: URL(fileURLWithPath: timings))
    var reports: [String] = []
    var ran: [String: Int] = [:]
    for index in 1...3 {
      let report = repo.root + "/shard\(index).json"
      let result = try RippleBinary.test(
        ["--all", "--shard", "\(index)/3", "--report-json", report], in: repo.root,
        environment: [
          "RIPPLE_JOB_ID": "", "GITHUB_RUN_ID": "", "CI_PIPELINE_ID": "", "BUILDKITE_BUILD_ID": "",
          "CIRCLE_WORKFLOW_ID": "",
        ])
      #expect(result.status == 0, "shard \(index): \(result.standardOutput)\n\(result.standardError)")
      reports.append(report)
      let json =
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
      for package in json?["packages"] as? [[String: Any]] ?? [] {
        for target in package["targets"] as? [[String: Any]] ?? [] {
          for test in target["tests"] as? [[String: Any]] ?? [] {
            ran["\(target["name"] ?? "").\(test["suite"] ?? "")/\(test["name"] ?? "")", default: 0] += 1
          }
        }
      }
    }
    let plan =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: repo.root + "/.build/ripple/shards/local.json"))) as? [String: Any]
    let entries = (plan?["shards"] as? [[String]] ?? []).flatMap { $0 }
    #expect(entries.contains(".:MixTests/Alpha.Inner/deep()"), "a nested suite's test has a shard: \(entries)")
    #expect(entries.contains(".:MixTests/-Alpha/a1()"), "the remainder leaves out a placed test: \(entries)")
    #expect(plan?["ran"] as? [Int] == [1, 2, 3])
    #expect(
      Set(ran.keys) == [
        "MixTests.Alpha/a1()", "MixTests.Alpha/a2()", "MixTests.Alpha/param(x:)", "MixTests.Alpha.Inner/deep()",
        "MixTests.Beta/b1()", "MixTests./free()", "MixTests.Classic/testOne", "MixTests.Classic/testTwo",
        "OtherTests.OtherTests/testOther",
      ], "\(ran)")
    #expect(ran.values.allSatisfy { $0 == 1 }, "each test in exactly one shard: \(ran)")

    let check = try RippleBinary.run(["shards", "check"] + reports, in: repo.root)
    #expect(check.status == 0, "\(check.standardOutput)\n\(check.standardError)")
    #expect(check.standardOutput.contains("9 tests in 3 shards"), "\(check.standardOutput)")

    let missing = try RippleBinary.run(["shards", "check", reports[0], reports[2]], in: repo.root)
    #expect(missing.status == 1)
    #expect(missing.standardOutput.contains("shard 2/3 has no report"), "\(missing.standardOutput)")

    let twice = try RippleBinary.run(["shards", "check"] + reports + [reports[1]], in: repo.root)
    #expect(twice.status == 1)
    #expect(twice.standardOutput.contains("shard 2/3 has 2 reports"), "\(twice.standardOutput)")
    #expect(twice.standardOutput.contains("ran in 2 shards"), "\(twice.standardOutput)")

    // Shard 3 as another Ripple version would stamp it: the shards did not split one plan.
    var other = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reports[2]))) as? [String: Any])
    var stamp = try #require(other["shardPlan"] as? [String: Any])
    (stamp["id"], stamp["rippleVersion"]) = ("0123456789abcdef", "9.9.9")
    other["shardPlan"] = stamp
    let otherPath = repo.root + "/shard3-other.json"
    try JSONSerialization.data(withJSONObject: other).write(to: URL(fileURLWithPath: otherPath))
    let mixed = try RippleBinary.run(["shards", "check", reports[0], reports[1], otherPath], in: repo.root)
    #expect(mixed.status == 1)
    #expect(mixed.standardOutput.contains("the shards ran different plans"), "\(mixed.standardOutput)")
    #expect(mixed.standardOutput.contains("(ripple 9.9.9)"), "\(mixed.standardOutput)")

    let unreadable = try RippleBinary.run(["shards", "check", repo.root + "/none.json"], in: repo.root)
    #expect(unreadable.status == 2)
  }
}
