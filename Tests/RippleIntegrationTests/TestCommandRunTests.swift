import Foundation
import TestSupport
import Testing

/// One real `ripple test --all` of a package whose Swift Testing tests sleep in parallel and whose
/// XCTest tests sleep one after another, with a TMPDIR of its own; the tests below read what it left.
struct SleepingPackageRun: Sendable {
  /// A target in `--report-json`.
  struct Target: Sendable, CustomStringConvertible {
    var duration: Double
    var sumOfTests: Double
    var tests: Int
    var description: String { "\(tests) tests, \(duration) s (tests: \(sumOfTests) s)" }
  }

  var targets: [String: Target] = [:]
  /// The run's wall time without the build: `swift test list` and `swift test`.
  var testingSeconds: Double
  var timings: [String: Double]
  /// What was left in the TMPDIR the run was given.
  var leftInTemporaryDirectory: [String]

  static let shared = Result { try SleepingPackageRun() }

  init() throws {
    let repo = try TestRepository.checkout()
    try repo.write(
      "Package.swift",
      """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "Sleepy",
        targets: [
          .target(name: "Sleepy"),
          .testTarget(name: "ParallelTests", dependencies: ["Sleepy"]),
          .testTarget(name: "SerialTests", dependencies: ["Sleepy"]),
        ]
      )

      """)
    // The four naps first wait for each other (up to 60 s), so they overlap however late a loaded
    // machine starts one of them.
    try repo.write(
      "Sources/Sleepy/Sleepy.swift",
      """
      public let nap = Duration.milliseconds(1500)

      private actor Meeting {
        var arrived = 0
        func arrive() { arrived += 1 }
      }
      private let meeting = Meeting()
      struct NapsNeverMet: Error {}

      public func napWithTheOthers() async throws {
        await meeting.arrive()
        let deadline = ContinuousClock.now + .seconds(60)
        while await meeting.arrived < 4 {
          guard ContinuousClock.now < deadline else { throw NapsNeverMet() }
          try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: nap)
      }

      """)
    try repo.write(
      "Tests/ParallelTests/ParallelTests.swift",
      "import Sleepy\nimport Testing\n\n"
        + (1...4).map { "@Test func nap\($0)() async throws { try await napWithTheOthers() }\n" }.joined())
    try repo.write(
      "Tests/SerialTests/SerialTests.swift",
      """
      import XCTest

      final class SerialTests: XCTestCase {
        func testOne() { Thread.sleep(forTimeInterval: 0.5) }
        func testTwo() { Thread.sleep(forTimeInterval: 0.5) }
      }

      """)
    try repo.write(".gitignore", ".build/\n")
    try repo.commitAll("Initial import")

    // Loading the graph runs `swift --version` (PackageGraph's toolchain check), which leaves a
    // `TemporaryDirectory.*` too; a dry run first puts its answer in the manifest cache, in a TMPDIR
    // of its own, so that the run below shows what the build and test commands leave.
    let warmUp = repo.root + "-warm-up-tmp"
    let temporary = repo.root + "-tmp"
    for directory in [warmUp, temporary] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    defer { for directory in [warmUp, temporary] { try? FileManager.default.removeItem(atPath: directory) } }
    let dryRun = try RippleBinary.run(["test", "--all", "--dry-run"], in: repo.root, environment: ["TMPDIR": warmUp])
    guard dryRun.status == 0 else { throw CommandFailure(argv: ["ripple", "test", "--dry-run"], result: dryRun) }
    let reportPath = repo.root + "/out/report.json"
    let timingsPath = repo.root + "/out/timings.json"
    let result = try RippleBinary.test(
      [
        "--all", "--report-json", reportPath, "--timings", timingsPath, "--scratch-path",
        repo.root + "/.build/scratch",
      ], in: repo.root, environment: ["TMPDIR": temporary])
    guard result.status == 0 else { throw CommandFailure(argv: ["ripple", "test", "--all"], result: result) }
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any])
    let package = try #require((report["packages"] as? [[String: Any]])?.first)
    testingSeconds = try #require(report["duration"] as? Double) - (package["buildDuration"] as? Double ?? 0)
    for target in package["targets"] as? [[String: Any]] ?? [] {
      let tests = target["tests"] as? [[String: Any]] ?? []
      targets[target["name"] as? String ?? "?"] = Target(
        duration: try #require(target["duration"] as? Double),
        sumOfTests: tests.compactMap { $0["duration"] as? Double }.reduce(0, +), tests: tests.count)
    }
    let history = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: timingsPath))) as? [String: Any])
    timings = try #require((history["packages"] as? [String: Any])?["."] as? [String: Double])
    leftInTemporaryDirectory = try FileManager.default.contentsOfDirectory(atPath: temporary)
  }
}

@Suite(.serialized, .exclusive(.cooperativeThread)) struct TestCommandRunTests {
  @Test(.timeLimit(.minutes(10))) func aTargetsDurationIsItsWallTimeNotTheSumOfItsTests() throws {
    let run = try SleepingPackageRun.shared.get()
    let parallel = try #require(run.targets["ParallelTests"], "\(run.targets)")
    #expect(parallel.tests == 4)
    #expect(parallel.sumOfTests >= 6, "each of the four tests sleeps 1.5 s: \(parallel)")
    // At least one nap; the figure is a difference of instants in seconds, so allow for its last bit.
    #expect(parallel.duration >= 1.5 - 0.001, "\(parallel)")
    // The naps overlap by 1.5 s after the last one starts, and the first one's wait covers the spread
    // of their starts, so the sum exceeds the wall time by about 4.5 s; a sum would exceed it by nothing.
    #expect(parallel.duration < parallel.sumOfTests - 3, "they slept at the same time: \(parallel)")
    #expect(parallel.duration <= run.testingSeconds, "not longer than the tests ran (\(run.testingSeconds) s)")

    let serial = try #require(run.targets["SerialTests"], "\(run.targets)")
    #expect(serial.tests == 2)
    #expect(serial.duration >= 1 && abs(serial.duration - serial.sumOfTests) < 0.01, "one after another: \(serial)")

    #expect(run.timings["ParallelTests"] == parallel.duration, "shards are balanced on the same figure")
    #expect(run.timings["SerialTests"] == serial.duration)
  }

  @Test(.timeLimit(.minutes(10))) func swiftLeavesNothingInTheTemporaryDirectoryItWasGiven() throws {
    let run = try SleepingPackageRun.shared.get()
    #expect(!run.leftInTemporaryDirectory.contains { $0.hasPrefix("TemporaryDirectory.") })
    #expect(run.leftInTemporaryDirectory.isEmpty, "\(run.leftInTemporaryDirectory)")
  }
}
