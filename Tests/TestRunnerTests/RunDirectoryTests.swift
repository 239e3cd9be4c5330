import Foundation
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

/// The folder of one run: the dry run shows the commands the run executes, and every `swift` gets a
/// private TMPDIR that is gone when the run ends, however it ends.
@Suite struct RunDirectoryTests {
  static let selection = TestSelection(packages: [
    PackageSelection(path: ".", testTargets: ["XTests", "STests"]),
    PackageSelection(path: "Packages/UI", testTargets: ["UITests", "UISnapshotTests"]),
  ])

  /// The TMPDIR of each request, and whether it existed when the request ran.
  final class TemporaryDirectories: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [(path: String?, existed: Bool)] = []
    func record(_ request: ProcessRequest) {
      let path = request.environment["TMPDIR"] ?? nil
      let existed = path.map { FileManager.default.fileExists(atPath: $0) } ?? false
      lock.withLock { seen.append((path, existed)) }
    }
    var all: [(path: String?, existed: Bool)] { lock.withLock { seen } }
  }

  @Test func theDryRunShowsTheCommandsTheRunExecutes() async throws {
    let process = RunnerTests.samplePackage()
    let options = TestRunOptions(repositoryRoot: "/repo")
    _ = try await TestRunner(process: process.client).run(Self.selection, options: options)

    let executed = process.requests
    let xunit = try #require(executed.first { $0.subcommand == "test" }?.value(after: "--xunit-output"))
    let runDirectory = (xunit as NSString).deletingLastPathComponent
    #expect(!FileManager.default.fileExists(atPath: runDirectory), "the run's folder is removed")

    let plan = TestRunner.plan(Self.selection, options: options)
    // The dry run cannot know the name the run's folder will get: it shows a placeholder for it.
    let planned = try plan.packages.flatMap { [$0.build, try $0.swiftPM.list, $0.test] }.map { request in
      var request = request
      request.arguments = request.arguments.map {
        $0.replacingOccurrences(of: RunDirectory.placeholder, with: runDirectory)
      }
      request.environment = request.environment.mapValues {
        $0?.replacingOccurrences(of: RunDirectory.placeholder, with: runDirectory)
      }
      return request
    }
    #expect(planned == executed)
    #expect(plan.commands.allSatisfy { $0.contains("swift build") || $0.contains("'<run directory>/") })
    #expect(plan.rendered.contains("<run directory>: a temporary folder made for the run and removed after it."))
  }

  @Test func aGivenWorkDirectoryIsShownAsIs() async throws {
    try await withTemporaryDirectory { dir in
      let options = TestRunOptions(repositoryRoot: "/repo", workDirectory: dir)
      let process = RunnerTests.samplePackage()
      _ = try await TestRunner(process: process.client).run(Self.selection, options: options)
      let executedTests = process.requests.filter { $0.subcommand == "test" }.map(\.commandLine)
      #expect(
        TestRunner.plan(Self.selection, options: options).commands.filter { $0.contains(" test ") } == executedTests)
      #expect(FileManager.default.fileExists(atPath: dir), "the caller's work directory is kept")
    }
  }

  @Test func everySwiftGetsAPrivateTemporaryDirectoryRemovedAfterTheRun() async throws {
    let directories = TemporaryDirectories()
    let sample = RunnerTests.samplePackage()
    let process = ScriptedProcess { request in
      directories.record(request)
      return try await sample.client.run(request)
    }
    _ = try await TestRunner(process: process.client).run(
      Self.selection, options: TestRunOptions(repositoryRoot: "/repo", retryFailed: 1))
    let seen = directories.all
    #expect(seen.count == process.requests.count)
    #expect(process.requests.contains { $0.value(after: "--xunit-output")?.hasSuffix("-retry2.xml") == true })
    let paths = Set(seen.compactMap(\.path))
    #expect(paths.count == 1 && seen.allSatisfy { $0.path != nil && $0.existed }, "\(seen)")
    let path = try #require(paths.first)
    #expect(path != NSTemporaryDirectory() && path.hasPrefix(NSTemporaryDirectory()))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// rippled's runs: the same children's TMPDIR in every run (SwiftPM's manifest cache key holds it), emptied of a
  /// killed run's leftovers when a run starts, and removed when it ends.
  @Test func aFixedRunFolderNameGivesEveryRunTheSameTemporaryDirectory() async throws {
    try await withTemporaryDirectory { base in
      let directories = TemporaryDirectories()
      let sample = RunnerTests.samplePackage()
      let leftover = base + "/ripple-test/tmp/TemporaryDirectory.left-by-a-killed-run"
      try FileManager.default.createDirectory(atPath: leftover, withIntermediateDirectories: true)
      let process = ScriptedProcess { request in
        directories.record(request)
        if let path = request.environment["TMPDIR"] ?? nil, FileManager.default.fileExists(atPath: leftover) {
          Issue.record("a leftover is still in \(path)")
        }
        return try await sample.client.run(request)
      }
      var runner = TestRunner(process: process.client)
      runner.temporaryRoot = base
      var options = TestRunOptions(repositoryRoot: "/repo")
      options.runFolderName = "ripple-test"
      _ = try await runner.run(Self.selection, options: options)
      let first = directories.all.count
      _ = try await runner.run(Self.selection, options: options)
      let seen = directories.all
      #expect(first > 0 && seen.count > first)
      #expect(Set(seen.map(\.path)) == [base + "/ripple-test/tmp"], "\(seen)")
      #expect(seen.allSatisfy { $0.existed })
      #expect(try FileManager.default.contentsOfDirectory(atPath: base).isEmpty, "removed after the run")
    }
  }

  @Test func theTemporaryDirectoryIsRemovedWhenSwiftCannotRun() async throws {
    let directories = TemporaryDirectories()
    let process = ScriptedProcess { request in
      directories.record(request)
      throw ProcessError.couldNotStart(command: request.commandLine, reason: "no")
    }
    await #expect(throws: TestRunnerError.self) {
      try await TestRunner(process: process.client).run(Self.selection, options: TestRunOptions(repositoryRoot: "/r"))
    }
    let path = try #require(directories.all.first?.path)
    #expect(directories.all.first?.existed == true)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func theTemporaryDirectoryIsRemovedWhenTheRunIsCancelled() async throws {
    let directories = TemporaryDirectories()
    let process = ScriptedProcess { request in
      directories.record(request)
      try await Task.sleep(for: .seconds(30))
      return ScriptedProcess.result(request)
    }
    let task = Task {
      try await TestRunner(process: process.client).run(Self.selection, options: TestRunOptions(repositoryRoot: "/r"))
    }
    try #require(await waitUntil { !directories.all.isEmpty }, "swift started")
    task.cancel()
    #expect(try await task.value.cancelled)
    let path = try #require(directories.all.first?.path)
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}

/// `ripple test` gives `swift` the same TMPDIR in every run of a checkout (SwiftPM's manifest cache key holds the
/// environment), unless another run holds that folder.
@Suite struct CheckoutRunDirectoryTests {
  @Test func runsOfACheckoutShareAFolderAndAConcurrentRunTakesItsOwn() async throws {
    try await withTemporaryDirectory { base in
      let first = try RunDirectory.forCheckout("/repo\u{0}", in: base)
      #expect(first.root == base + "/ripple-test-" + RunDirectory.stableDigest("/repo\u{0}"))
      #expect(FileManager.default.fileExists(atPath: first.temporary))
      // Held: another run of the same checkout gets a unique folder, and another checkout its own.
      let concurrent = try RunDirectory.forCheckout("/repo\u{0}", in: base)
      #expect(concurrent.root != first.root && concurrent.root.contains("ripple-test-"))
      let other = try RunDirectory.forCheckout("/other\u{0}", in: base)
      #expect(other.root != first.root && other.root != concurrent.root)
      concurrent.remove()
      other.remove()
      first.remove()
      #expect(!FileManager.default.fileExists(atPath: first.root), "removed when the run ends")
      #expect(try FileManager.default.contentsOfDirectory(atPath: base).isEmpty, "its lock file too")
      // Released: the next run of the checkout has the same path again.
      let next = try RunDirectory.forCheckout("/repo\u{0}", in: base)
      #expect(next.root == first.root)
      next.remove()
    }
    #expect(RunDirectory.stableDigest("a") == "af63dc4c8601ec8c", "FNV-1a, the same in every process")
  }
}
