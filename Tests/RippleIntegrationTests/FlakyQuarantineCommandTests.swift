import Foundation
import TestSupport
import Testing

/// Flaky tests and quarantine for real: a package whose `testFlaky` fails on every other run (a counter file next
/// to it), whose `testKnownBug` always fails and is quarantined, run with `--retry-failed`.
@Suite(.serialized) struct FlakyQuarantineCommandTests {
  static func package() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "Flaky", targets: [.target(name: "Core"), .testTarget(name: "CoreTests", dependencies: ["Core"])])

      """)
    try repo.write("Sources/Core/Core.swift", "public let answer = 42\n")
    try repo.write(
      "Tests/CoreTests/FlakeTests.swift",
      """
      import Core
      import Foundation
      import XCTest

      final class FlakeTests: XCTestCase {
        func testOk() { XCTAssertEqual(answer, 42) }

        /// Fails on the 1st, 3rd, 5th… run: the counter file next to this source counts the runs.
        func testFlaky() throws {
          let counter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("runs.count")
          let runs = (Int((try? String(contentsOf: counter, encoding: .utf8)) ?? "0") ?? 0) + 1
          try String(runs).write(to: counter, atomically: true, encoding: .utf8)
          XCTAssertEqual(runs % 2, 0, "run \\(runs): the shared fixture was not ready")
        }

        func testKnownBug() { XCTFail("rounds 0.5 down") }
      }

      """)
    try repo.write(
      "ripple.yml",
      """
      test:
        quarantine:
          - test: CoreTests/FlakeTests/testKnownBug
            reason: "issue #7: rounding"
          - test: CoreTests/OldTests
            reason: fixed long ago
            until: 2020-01-31

      """)
    try repo.write(".gitignore", ".build/\nout/\nTests/CoreTests/runs.count\n")
    try repo.commitAll("Initial import")
    return repo
  }

  @Test func aFlakyTestIsNamedAQuarantinedOneContainedAndBothRemembered() throws {
    #if os(Linux)
      let repo = try Self.package()
      let first = try RippleBinary.test(
        ["--all", "--retry-failed", "2", "--junit", "out/junit.xml", "--report-json", "out/report.json"],
        in: repo.root)
      let text = first.standardOutput
      #expect(first.status == 0, "\(text)\(first.standardError)")
      #expect(
        first.standardError.contains(
          "ripple.yml:5: the quarantine of `CoreTests/OldTests` ended on 2020-01-31 (fixed long ago)"),
        "\(first.standardError)")
      #expect(
        text.contains("~ CoreTests.FlakeTests/testFlaky passed on attempt 2 after failing once; first failure:"),
        "\(text)")
      #expect(text.contains("FlakeTests.swift:13: XCTAssertEqual failed"), "\(text)")
      #expect(text.contains("◌ CoreTests.FlakeTests/testKnownBug failed, quarantined: issue #7: rounding"), "\(text)")
      #expect(text.contains("3 tests, 2 passed, 0 failed, 0 skipped, 1 flaky, 1 quarantined"), "\(text)")
      // The live line of the package agrees with the summary: contained, not failed.
      #expect(first.standardError.contains("✔ root package:"), "\(first.standardError)")
      #expect(!first.standardError.contains("✘ root package:"), "\(first.standardError)")
      let junit = try String(contentsOfFile: repo.root + "/out/junit.xml", encoding: .utf8)
      #expect(junit.contains("<flakyFailure message=\"XCTAssertEqual failed"), "\(junit)")
      #expect(junit.contains("<skipped message=\"quarantined: issue #7: rounding\"/>"), "\(junit)")
      let report = try String(contentsOfFile: repo.root + "/out/report.json", encoding: .utf8)
      #expect(report.contains("\"quarantined\" : 1") && report.contains("\"flaky\" : 1"), "\(report)")

      // --fail-on-flaky: the same flake fails the run (the counter makes run 3 fail again, 4 pass).
      let strict = try RippleBinary.test(["--all", "--retry-failed", "1", "--fail-on-flaky"], in: repo.root)
      #expect(strict.status == 1, "\(strict.standardOutput)\(strict.standardError)")
      #expect(strict.standardError.contains("--fail-on-flaky: 1 test passed only on a retry"))

      // --no-quarantine: the known bug fails the run; no warning about the quarantine it ignores.
      let gate = try RippleBinary.test(["--all", "--no-quarantine"], in: repo.root)
      #expect(gate.status == 1, "\(gate.standardOutput)\(gate.standardError)")
      #expect(gate.standardOutput.contains("✘ CoreTests.FlakeTests/testKnownBug"))
      #expect(!gate.standardError.contains("quarantine of"))

      // Remembered: flaky in 2 of 3 runs.
      let flaky = try RippleBinary.run(["flaky"], in: repo.root)
      #expect(flaky.status == 0, "\(flaky.standardError)")
      #expect(flaky.standardOutput.contains(" 67%         2/3  "), "\(flaky.standardOutput)")
      #expect(flaky.standardOutput.contains("CoreTests.FlakeTests/testFlaky\n"), "\(flaky.standardOutput)")
      let json = try RippleBinary.run(["flaky", "--since", "1d", "--format", "json"], in: repo.root)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
      let tests = try #require(object["tests"] as? [[String: Any]])
      #expect(tests.map { $0["test"] as? String } == ["CoreTests.FlakeTests/testFlaky"])
      #expect(tests.first?["flakyRuns"] as? Int == 2 && tests.first?["runs"] as? Int == 3)
    #endif
  }

  @Test func badQuarantineEntriesAndWindowsAreUsageErrors() throws {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"P\")\n")
    try repo.write(
      "ripple.yml", "test:\n  quarantine:\n    - test: CoreTests\n      reason: r\n      until: 2026-02-30\n")
    try repo.commitAll("Initial import")
    let bad = try RippleBinary.run(["test", "--all", "--dry-run"], in: repo.root)
    #expect(bad.status == 2, "\(bad.standardError)")
    #expect(bad.standardError.contains("ripple.yml:5:"), "\(bad.standardError)")
    #expect(bad.standardError.contains("`2026-02-30` is not a date"), "\(bad.standardError)")
    let window = try RippleBinary.run(["flaky", "--since", "30"], in: repo.root)
    #expect(window.status == 2, "\(window.standardError)")
    #expect(window.standardError.contains("--since 30 is not an age"), "\(window.standardError)")
  }

  /// Issue 38: a window too long for the calendar wrapped and said "No flaky test", and a day after today
  /// counted in every window. Now the first is a usage error naming the largest window, and the second is
  /// left out with a warning naming the file and the key. No test run needed: the history is written here.
  @Test func aHugeWindowIsRefusedAndADayAfterTodayCountsInNoWindow() throws {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"P\")\n")
    try repo.commitAll("Initial import")
    let now = Date()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let today = calendar.dateComponents([.year, .month, .day], from: now)
    let day = String(format: "%04d-%02d-%02d", today.year!, today.month!, today.day!)
    let moment = ISO8601DateFormatter().string(from: now)
    try repo.write(
      ".build/ripple/outcomes.json",
      """
      {"schemaVersion": 1, "tests": {
        ".|CoreTests.T/testReal": {"package": ".", "test": "CoreTests.T/testReal", "flakyAt": ["\(moment)"],
          "days": {"\(day)": {"runs": 2, "flaky": 1, "failed": 0, "quarantined": 0}}},
        ".|CoreTests.T/testFuture": {"package": ".", "test": "CoreTests.T/testFuture", "flakyAt": [],
          "days": {"9999-12-31": {"runs": 5, "flaky": 5, "failed": 0, "quarantined": 0}}}}}
      """)

    let huge = try RippleBinary.run(["flaky", "--since", "99999999999999d"], in: repo.root)
    #expect(huge.status == 2, "\(huge.standardOutput)\(huge.standardError)")
    #expect(
      huge.standardError.contains("--since 99999999999999d is longer than the largest window, 36500d"),
      "\(huge.standardError)")

    let largest = try RippleBinary.run(["flaky", "--since", "36500d"], in: repo.root)
    #expect(largest.status == 0, "\(largest.standardError)")
    #expect(largest.standardOutput.contains(" 50%         1/2  "), "\(largest.standardOutput)")
    #expect(largest.standardOutput.contains("CoreTests.T/testReal\n"), "\(largest.standardOutput)")
    #expect(!largest.standardOutput.contains("testFuture"), "\(largest.standardOutput)")
    #expect(largest.standardOutput.hasSuffix("1 flaky test in the last 36500d.\n"), "\(largest.standardOutput)")
    // The file by its full path (the repository root as git reports it), then the key and the test.
    #expect(largest.standardError.contains("warning: ignoring `9999-12-31` in test outcomes /"))
    #expect(
      largest.standardError.contains(
        "/repo/.build/ripple/outcomes.json: a day after today (\(day)); it holds .|CoreTests.T/testFuture"),
      "\(largest.standardError)")

    for (arguments, message) in [
      (["--since", "0d"], "--since 0d is an empty window; the shortest is 1d."),
      (["--since", "-3d"], "--since -3d is negative"), (["--since=-3d"], "--since -3d is negative"),
      (["--since", "3m"], "--since 3m: unknown unit `m`; use h (hours), d (days) or w (weeks)."),
      (["--since", "soon"], "--since soon is not an age; write it as Nh, Nd or Nw"),
    ] {
      let bad = try RippleBinary.run(["flaky"] + arguments, in: repo.root)
      #expect(bad.status == 2, "\(arguments): \(bad.standardOutput)\(bad.standardError)")
      #expect(bad.standardError.contains(message), "\(arguments): \(bad.standardError)")
    }
  }
}
