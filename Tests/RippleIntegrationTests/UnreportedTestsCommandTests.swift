import Foundation
import TestSupport
import Testing

/// Tests that never report, for real: `ATests` has a quarantined failing test, `BTests` ends its process in the
/// second of its three tests (a `fatalError`, or `exit(0)`), chosen by a file next to its source. Every test
/// `swift test list` names ends with an outcome; the quarantine contains only the test it names.
@Suite(.serialized) struct UnreportedTestsCommandTests {
  static func package() throws -> TestRepository {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:5.9
      import PackageDescription

      let package = Package(
        name: "Leaving",
        targets: [
          .target(name: "Core"), .testTarget(name: "ATests", dependencies: ["Core"]),
          .testTarget(name: "BTests", dependencies: ["Core"]),
        ])

      """)
    try repo.write("Sources/Core/Core.swift", "public let answer = 42\n")
    try repo.write(
      "Tests/ATests/ATests.swift",
      """
      import Core
      import XCTest

      final class ACase: XCTestCase {
        func testOk() { XCTAssertEqual(answer, 42) }
        func testKnownBug() { XCTFail("rounds 0.5 down") }
      }

      """)
    try repo.write(
      "Tests/BTests/BTests.swift",
      """
      import Core
      import Foundation
      import XCTest

      // XCTest on Linux runs a class's tests by name and the targets in no fixed order: the names keep
      // testCThird after the test that ends the process.
      final class BCase: XCTestCase {
        func testAFirst() { XCTAssertEqual(answer, 42) }

        /// `mode` next to this file: `crash` (a fatalError), `exit` (exit(0)), `crashOnce` (a fatalError, then
        /// `mode` is `pass`), anything else passes.
        func testBLeaves() throws {
          let mode = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("mode")
          switch (try? String(contentsOf: mode, encoding: .utf8)) ?? "" {
          case "crash": fatalError("the fixture is gone")
          case "exit": exit(0)
          case "crashOnce":
            try "pass".write(to: mode, atomically: true, encoding: .utf8)
            fatalError("the fixture is gone, once")
          default: break
          }
        }

        func testCThird() { XCTAssertEqual(answer, 42) }
      }

      """)
    try repo.write(
      "ripple.yml",
      """
      test:
        quarantine:
          - test: ATests/ACase/testKnownBug
            reason: "issue #7: rounding"

      """)
    try repo.write(".gitignore", ".build/\nout/\nTests/BTests/mode\n")
    try repo.commitAll("Initial import")
    return repo
  }

  @Test func aCrashOrAnEarlyExitFailsTheTestsItHidAndNoQuarantineContainsIt() throws {
    #if os(Linux)
      let repo = try Self.package()
      let mode = repo.root + "/Tests/BTests/mode"

      try "crash".write(toFile: mode, atomically: true, encoding: .utf8)
      let crash = try RippleBinary.test(
        ["--all", "--report-json", "out/crash.json", "--junit", "out/crash.xml", "--summary-md", "out/crash.md"],
        in: repo.root)
      let crashText = crash.standardOutput
      #expect(crash.status == 1, "\(crashText)\(crash.standardError)")
      #expect(
        crashText.contains("crashed: the test process ended with signal 4 while this test ran"), "\(crashText)")
      // The crash's own message, in the report, the JUnit failure and the markdown summary (issue 52).
      #expect(crashText.contains("Fatal error: the fixture is gone"), "\(crashText)")
      for file in ["out/crash.json", "out/crash.xml", "out/crash.md"] {
        let text = try String(contentsOfFile: repo.root + "/" + file, encoding: .utf8)
        #expect(text.contains("Fatal error: the fixture is gone"), "\(file): \(text)")
      }
      #expect(
        crashText.contains("did not run: the test process ended with signal 4 during BTests.BCase/testBLeaves"),
        "\(crashText)")
      #expect(crashText.contains("BTests.BCase/testCThird"), "\(crashText)")
      #expect(!crashText.contains("ATests.(test process)"), "\(crashText)")
      let report = try String(contentsOfFile: repo.root + "/out/crash.json", encoding: .utf8)
      #expect(report.contains("\"unreported\" : \"crashed\""), "\(report)")
      #expect(report.contains("\"unreported\" : \"didNotRun\""), "\(report)")

      // exit(0) mid-run: swift test exits 0, and the two tests it never reported still fail the run.
      try "exit".write(toFile: mode, atomically: true, encoding: .utf8)
      let early = try RippleBinary.test(["--all"], in: repo.root)
      #expect(early.status == 1, "\(early.standardOutput)\(early.standardError)")
      #expect(
        early.standardOutput.contains("crashed: the test process exited with status 0 while this test ran"),
        "\(early.standardOutput)")

      // A retry re-runs only what did not finish: the crashed test passes as flaky, the one that never ran
      // simply passes, and the quarantined failure stays contained.
      try "crashOnce".write(toFile: mode, atomically: true, encoding: .utf8)
      let retried = try RippleBinary.test(
        ["--all", "--retry-failed", "1", "--report-json", "out/retry.json"], in: repo.root)
      #expect(retried.status == 0, "\(retried.standardOutput)\(retried.standardError)")
      #expect(
        retried.standardOutput.contains("5 tests, 4 passed, 0 failed, 0 skipped, 1 flaky, 1 quarantined"),
        "\(retried.standardOutput)")
      #expect(
        retried.standardOutput.contains("~ BTests.BCase/testBLeaves passed on attempt 2"), "\(retried.standardOutput)")
    #endif
  }
}
