import Foundation
import TestSupport
import Testing

/// `ripple test` when things go wrong: a package that does not compile, and Ctrl-C mid-run.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct TestCommandFailureTests {
  @Test func aBuildFailureNamesThePackageAndOtherPackagesStillReport() throws {
    let repo = try TestCommandTests.makeRepository()
    // Break the root package's tests; the shared package still builds and passes.
    try repo.append("Tests/AppTests/AppTests.swift", "let broken: Int = \"not a number\"\n")
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    let report = repo.root + "/report.json"
    let result = try RippleBinary.test(["--report-json", report], in: repo.root)
    #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
    let all = result.standardOutput + result.standardError
    #expect(all.contains("AppTests.swift"), "the compiler's error is shown: \(all)")
    #expect(all.contains("error:"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
    let packages = try #require(json["packages"] as? [[String: Any]])
    let status = Dictionary(
      uniqueKeysWithValues: packages.map { ($0["path"] as? String ?? "?", $0["status"] as? String ?? "?") })
    #expect(status["."] == "buildFailed")
    #expect(status["Packages/Shared"] == "passed", "\(status)")
  }

  @Test func interruptStopsTheTestsAndStillWritesWhatFinished() async throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.write(
      "Tests/OtherTests/OtherTests.swift",
      """
      import Other
      import XCTest

      final class OtherTests: XCTestCase {
        func testSlow() throws {
          try "\\(getpid())".write(toFile: "\(repo.root)/test.pid", atomically: true, encoding: .utf8)
          Thread.sleep(forTimeInterval: 120)
        }
      }

      """)
    let report = repo.root + "/report.json"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RippleBinary.path)
    process.arguments = ["test"] + RippleBinary.testArguments(["--report-json", report])
    process.currentDirectoryURL = URL(fileURLWithPath: repo.root)
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["RIPPLE_CACHE_DIR": RippleBinary.cacheDirectory, "NO_COLOR": "1", "RIPPLE_NO_CACHE_RESULTS": "1"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()

    // Wait for the slow test to start (the build comes first), then interrupt as Ctrl-C would.
    let pidFile = repo.root + "/test.pid"
    let deadline = ContinuousClock.now + .seconds(240)
    while !FileManager.default.fileExists(atPath: pidFile) && ContinuousClock.now < deadline && process.isRunning {
      try await Task.sleep(for: .milliseconds(200))
    }
    let testPID = try #require(
      Int32((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? ""), "the slow test never started")
    let interruptedAt = ContinuousClock.now
    kill(process.processIdentifier, SIGINT)
    while process.isRunning && ContinuousClock.now - interruptedAt < .seconds(30) {
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(!process.isRunning, "ripple test stops within 30 s of Ctrl-C")
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    #expect(process.terminationStatus != 0)
    #expect(processHasEnded(testPID), "the test process was stopped with its group")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any],
      "the report is still written")
    #expect(json["cancelled"] as? Bool == true)
  }
}
