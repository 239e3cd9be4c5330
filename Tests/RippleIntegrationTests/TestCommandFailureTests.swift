import Foundation
import TestSupport
import Testing

/// `ripple test` when things go wrong: a package that does not compile, Ctrl-C mid-run, and a run stuck on a
/// full pipe that only a second signal ends.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct TestCommandFailureTests {
  @Test func aBuildFailureNamesThePackageAndOtherPackagesStillReport() throws {
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
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
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
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

  /// Issue 48: a run stuck writing to a pipe nobody reads (standard error, `--verbose` passing a build's endless
  /// output through) ignores the first SIGTERM's cancellation; the second ends it at once with 128 + 15, and no
  /// report is half-written.
  @Test func aSecondSIGTERMEndsARunStuckOnAFullPipe() async throws {
    let repo = try TestCommandTests.reusedRepository(for: Self.self)
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let stub = try TemporaryDirectory(prefix: "ripple-stuck-swift")
    let buildPID = stub.child("build.pid")
    // `swift build` prints without end (`yes`); anything else is the real toolchain (dump-package).
    try """
    #!/bin/sh
    if [ "$1" = build ] && [ "$2" = --build-tests ]; then
      echo $$ > '\(buildPID)'
      exec yes 'a line of build output that nobody reads'
    fi
    exec swift "$@"

    """.write(toFile: stub.child("swift"), atomically: true, encoding: .utf8)
    chmod(stub.child("swift"), 0o755)
    let reports = repo.root + "/out"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RippleBinary.path)
    process.arguments = [
      "test", "--progress", "plain", "--verbose", "--junit", reports + "/junit.xml", "--report-json",
      reports + "/report.json", "--summary-md", reports + "/summary.md",
    ]
    process.currentDirectoryURL = URL(fileURLWithPath: repo.root)
    process.environment = ProcessInfo.processInfo.environment.merging([
      "RIPPLE_CACHE_DIR": RippleBinary.cacheDirectory, "NO_COLOR": "1", "RIPPLE_NO_CACHE_RESULTS": "1",
      "RIPPLE_SWIFT": stub.child("swift"),
    ]) { $1 }
    let errors = Pipe()  // never read
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }

    // Stuck: the build runs, the pipe to ripple's standard error is full and a thread of ripple waits in
    // write(2) on it (its wait channel, Linux's `pipe_write` or `anon_pipe_write`).
    let reader = errors.fileHandleForReading.fileDescriptor
    let capacity = Int(fcntl(reader, 1032 /* F_GETPIPE_SZ */))
    let pid = process.processIdentifier
    let full = await poll(every: .milliseconds(100), timeout: .seconds(240)) {
      var buffered: Int32 = 0
      _ = ioctl(reader, UInt(FIONREAD), &buffered)
      guard FileManager.default.fileExists(atPath: buildPID), Int(buffered) > capacity - 4096 else {
        return !process.isRunning
      }
      let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
      return threads.contains {
        ((try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/wchan", encoding: .utf8)) ?? "").contains("pipe_write")
      }
    }
    try #require(full && process.isRunning, "ripple never got stuck on its standard error")
    let build = try #require(
      Int32((try String(contentsOfFile: buildPID, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))

    // The first SIGTERM cancels: the build is stopped with its group, but ripple stays blocked.
    kill(process.processIdentifier, SIGTERM)
    let buildStopped = await poll(every: .milliseconds(100), timeout: .seconds(60)) { processHasEnded(build) }
    if !buildStopped { kill(build, SIGKILL) }
    #expect(buildStopped, "the first SIGTERM stopped the build")
    #expect(process.isRunning, "still blocked on the full pipe after the first SIGTERM")

    kill(process.processIdentifier, SIGTERM)
    let ended = await poll(every: .milliseconds(100), timeout: .seconds(60)) { !process.isRunning }
    #expect(ended, "the second SIGTERM ends ripple")
    guard ended else { return }
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 128 + SIGTERM, "_exit(128 + signal), DESIGN.md 'Report files'")
    // The folder was made by the check before the run; nothing was written into it, not even a temporary file.
    #expect(try FileManager.default.contentsOfDirectory(atPath: reports) == [], "no report, half or whole")
  }
}
