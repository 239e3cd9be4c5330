import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import TestSupport
import Testing

/// `generate:` commands that hang or are interrupted (their process groups are stopped), and outputs that
/// are hard links to files outside the repository or carry setuid bits (issue 23, items 6 and 10).
@Suite("bootstrap: generate timeouts, interruption and output files")
struct GenerateStopAndOutputTests {
  /// First run writes `v1`; with `HANG` set, the command starts a background `sleep` that leads a process
  /// group of its own (as the tool `swift run` starts does), records its pid and waits.
  static func entry(timeout: Duration = GenerateSpec.defaultTimeout, pidFile: String) -> GenerateSpec {
    GenerateSpec(
      id: "words",
      command: [
        "sh", "-c",
        "if [ -n \"$HANG\" ]; then perl -e 'setpgrp(0, 0); exec @ARGV' sleep 300 & echo $! > \"$0\"; wait; fi; "
          + "echo v1 > \"$RIPPLE_OUTPUT_DIR/words.txt\"",
        pidFile,
      ],
      destination: "Sources/Words/Resources", environment: ["HANG"], timeout: timeout)
  }

  /// Whether `pid` has gone (or is a zombie waiting for its parent), polled for up to 20 s.
  static func ended(_ pid: Int32) async throws -> Bool {
    await poll(every: .milliseconds(100), timeout: .seconds(20)) { processHasEnded(pid) }
  }

  static func waitForPID(_ file: String) async throws -> Int32 {
    var pid: Int32?
    _ = await poll(every: .milliseconds(50), timeout: .seconds(60)) {
      pid = (try? String(contentsOfFile: file, encoding: .utf8)).flatMap {
        Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      return pid != nil
    }
    guard let pid else { throw ShellFailure(message: "the command never wrote \(file)") }
    return pid
  }

  @Test func aHungCommandIsKilledAtItsTimeoutAndThePreviousOutputsAreKept() async throws {
    let repo = try TestRepository()
    let pidFile = repo.base + "/sleep.pid"
    // The first run has the default timeout: on a loaded machine even `echo` can take longer than 2 s to start.
    try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(
      AssetsConfig(generate: [Self.entry(pidFile: pidFile)])
    ).check()
    #expect(repo.read("Sources/Words/Resources/words.txt") == "v1\n")
    // 5 s: the command must start and write its pid before the timeout, which a loaded machine may delay.
    let spec = Self.entry(timeout: .seconds(5), pidFile: pidFile)

    let report = try await repo.bootstrapper(testFetcher([:], log: FetchLog()), environment: ["HANG": "1"]).run(
      AssetsConfig(generate: [spec]))
    let error = try #require(report.failures.first)
    guard case .generateTimedOut("words", let command, .seconds(5)) = error else { throw error }
    #expect(command.hasPrefix("sh -c"))
    #expect(error.description.contains("generate entry `words`: `sh -c"))
    #expect(error.description.contains("did not finish within 5s"))
    #expect(error.category.exitCode == 1)
    #expect(repo.read("Sources/Words/Resources/words.txt") == "v1\n")
    #expect(try await Self.ended(try await Self.waitForPID(pidFile)), "the command's background sleep was killed")
  }

  @Test func cancellingTheRunStopsTheCommandsProcessGroup() async throws {
    let repo = try TestRepository()
    let pidFile = repo.base + "/sleep.pid"
    let spec = Self.entry(pidFile: pidFile)
    let bootstrapper = repo.bootstrapper(testFetcher([:], log: FetchLog()), environment: ["HANG": "1"])
    let task = Task { try await bootstrapper.run(AssetsConfig(generate: [spec])) }
    let pid = try await Self.waitForPID(pidFile)
    task.cancel()
    let report = try await task.value
    #expect(report.failures == [.generateInterrupted(entry: "words")])
    #expect(report.failures[0].description.contains("interrupted (Ctrl-C or SIGTERM)"))
    #expect(try await Self.ended(pid), "the command's background sleep was stopped")
    #expect(repo.read("Sources/Words/Resources/words.txt") == nil)
  }

  @Test func aHardLinkToAFileOutsideTheRepositoryIsInstalledAsACopy() async throws {
    let repo = try TestRepository()
    let outside = repo.base + "/outside-secret.txt"
    try "mine\n".write(toFile: outside, atomically: true, encoding: .utf8)
    let spec = GenerateSpec(
      id: "linker",
      command: [
        "sh", "-c",
        "ln \"$0\" \"$RIPPLE_OUTPUT_DIR/linked.txt\" && echo x > \"$RIPPLE_OUTPUT_DIR/tool\""
          + " && chmod 6755 \"$RIPPLE_OUTPUT_DIR/tool\"",
        outside,
      ],
      destination: "Sources/Gen/Resources")
    try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(AssetsConfig(generate: [spec])).check()
    let installed = repo.path("Sources/Gen/Resources/linked.txt")
    #expect(repo.read("Sources/Gen/Resources/linked.txt") == "mine\n")
    var outsideInfo = stat()
    var installedInfo = stat()
    #expect(stat(outside, &outsideInfo) == 0 && stat(installed, &installedInfo) == 0)
    #expect(outsideInfo.st_ino != installedInfo.st_ino, "the install is a copy, not the outside inode")
    #expect(outsideInfo.st_nlink == 1)
    #expect(try String(contentsOfFile: outside, encoding: .utf8) == "mine\n")
    let tool = try FileManager.default.attributesOfItem(atPath: repo.path("Sources/Gen/Resources/tool"))
    #expect((tool[.posixPermissions] as? Int) == 0o755, "setuid and setgid dropped")
  }

  @Test func refusalsOfAGenerateEntryNameTheEntry() async throws {
    let repo = try TestRepository()
    try repo.write("Sources/Gen/Resources/mine.txt", "user file\n")
    let spec = GenerateSpec(
      id: "gen", command: ["sh", "-c", "echo new > \"$RIPPLE_OUTPUT_DIR/mine.txt\""],
      destination: "Sources/Gen/Resources")
    let report = try await repo.bootstrapper(testFetcher([:], log: FetchLog())).run(AssetsConfig(generate: [spec]))
    let error = try #require(report.failures.first)
    #expect(error == .unmanagedFileInTheWay(owner: .generateEntry("gen"), path: "Sources/Gen/Resources/mine.txt"))
    #expect(error.description.hasPrefix("generate entry `gen`: `Sources/Gen/Resources/mine.txt` exists"))
    #expect(!error.description.contains("asset"))
  }
}
