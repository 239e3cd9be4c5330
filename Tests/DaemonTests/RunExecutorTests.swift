import Foundation
import RippleCore
import RunModel
import RunStore
import SystemClients
import TestSupport
import Testing

@testable import Daemon
@testable import DaemonSupport

/// `RunExecutor` in process: a real mirror and store, the toolchain a `ScriptedProcess`, every other service
/// `failing` (a download or an unscripted command would be a test issue).
@Suite struct RunExecutorTests {
  @Test func aPassingRunIsRecordedWithItsAnalysisAndItsTarget() async throws {
    let fixture = try DaemonRunFixture()
    let run = try fixture.runningRun()
    let reported = Locked<[Duration]>([])
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil) { limit in
      reported.withLock { $0.append(limit) }
    }
    #expect(outcome == .passed(nil))
    #expect(reported.withLock { $0 }.isEmpty, "no ripple.yml: no limit of the repository's own")
    let recorded = try #require(try fixture.store.run(run.id))
    #expect(recorded.selectedTestTargets == 1 && recorded.totalTestTargets == 1)
    #expect(recorded.failedTests == 0)
    // The run's time split into its build and test phases (the run page shows both).
    let build = try #require(recorded.buildSeconds)
    let tests = try #require(recorded.testSeconds)
    #expect(build >= 0 && tests >= 0)
    let analysis = try #require(try fixture.store.detail(run.id)?.analysis)
    #expect(
      analysis.runAllReasons.first?.contains("no passing run among the ancestors of") == true,
      "\(analysis.runAllReasons)")
    #expect(fixture.process.requests(matching: .command("swift", "build")).count == 1)
    #expect(fixture.process.requests(matching: .command("swift", "test")).count >= 1)
  }

  /// Two runs of one branch give `swift` the same TMPDIR (SwiftPM's manifest cache key holds it), made for the run
  /// and removed after it.
  @Test func theRunsOfABranchGiveSwiftTheSameTemporaryDirectoryRemovedAfterEach() async throws {
    let fixture = try DaemonRunFixture()
    var folders: [String] = []
    for _ in 1...2 {
      let run = try fixture.runningRun()
      #expect(await fixture.executor.execute(run, settings: fixture.settings, logFile: nil) == .passed(nil))
      _ = try fixture.store.finish(run.id, state: .failed, reason: "not a passing base")
      folders.append(fixture.paths.temporaryDirectory("app", lane: "main"))
      #expect(!FileManager.default.fileExists(atPath: folders.last!), "removed with the run")
    }
    let builds = fixture.process.requests(matching: .command("swift", "build"))
    #expect(builds.count == 2)
    let temporary = Set(builds.map { $0.environment["TMPDIR"] ?? nil })
    #expect(temporary == [folders[0] + "/ripple-test/tmp"], "\(temporary)")
    #expect(fixture.paths.temporaryDirectory("app", lane: "main") != fixture.paths.temporaryDirectory("app", lane: "x"))
    #expect(fixture.paths.temporaryDirectory("a_b", lane: "c") != fixture.paths.temporaryDirectory("a", lane: "b_c"))
  }

  @Test func aTestFailureIsAFailedOutcomeNamingTheCountAndThePackage() async throws {
    let fixture = try DaemonRunFixture(swiftTest: DaemonRunFixture.swiftTest(failing: 2))
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil)
    #expect(outcome == .failed("2 tests failed in the root package"))
    #expect(try fixture.store.run(run.id)?.failedTests == 2)
  }

  @Test func aCommandThatCannotStartIsAnErrorOfTheRunNotAFailureOfTheCode() async throws {
    let fixture = try DaemonRunFixture(swiftTest: .fail(ProcessError.notFound(executable: "swift")))
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil)
    guard case .error(let message) = outcome else {
      Issue.record("expected an error outcome, got \(outcome)")
      return
    }
    #expect(message.contains("swift"), "\(message)")
  }

  @Test func theRepositorysOwnTimeoutIsReportedBeforeAnyTestRuns() async throws {
    let fixture = try DaemonRunFixture(rippleYML: "daemon:\n  runTimeout: 5m\n")
    let run = try fixture.runningRun()
    let process = fixture.process
    // What was reported, and how many `swift` commands had run by then.
    let reported = Locked<[(Duration, Int)]>([])
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil) { limit in
      let commands = process.requests(matching: .command("swift", "build")).count
      reported.withLock { $0.append((limit, commands)) }
    }
    #expect(outcome == .passed(nil), "the executor keeps no deadline of its own")
    let reports = reported.withLock { $0 }
    #expect(reports.map(\.0) == [.seconds(300)])
    #expect(reports.first?.1 == 0, "reported before the build and the tests")
  }

  @Test func aStoppedRunIsCancelledWithItsProcessesWhateverStoppedIt() async throws {
    let held = HeldProcess()
    let fixture = try DaemonRunFixture(swiftTest: held.response)
    let run = try fixture.runningRun()
    let executor = fixture.executor
    let settings = fixture.settings
    let execution = Task { await executor.execute(run, settings: settings, logFile: nil) }
    #expect(await DaemonRunFixture.waitFor("swift test to start") { held.startedCount == 1 })
    // The scheduler stops a run that outlasted its limit this way, and records why (SchedulerTests).
    execution.cancel()
    #expect(await execution.value == .cancelled)
    #expect(held.stoppedCount == 1)
    #expect(fixture.clock.sleepsStarted == 0, "no timer of the executor's own")
  }

  /// A re-run of a commit force-pushed away and garbage-collected: an error naming the commit, never a run that
  /// tests nothing.
  @Test func aRerunOfACommitGoneFromTheMirrorIsAnErrorNamingIt() async throws {
    let fixture = try DaemonRunFixture()
    let first = try fixture.runningRun()
    _ = try fixture.store.finish(first.id, state: .failed, reason: "1 test failed")
    let gone = String(repeating: "d", count: 40)
    let queued = try fixture.store.enqueue(
      NewRun(repository: "app", branch: "main", head: gone, trigger: .api, retryOf: first.id))
    let rerun = try fixture.store.markRunning(queued.id, logPath: nil)
    let outcome = await fixture.executor.execute(rerun, settings: fixture.settings, logFile: nil)
    #expect(
      outcome
        == .error(
          "commit dddddddddddd of main is no longer in the mirror of app (force-pushed away and garbage-collected?): "
            + "there is nothing to test"))
    #expect(fixture.process.requests.isEmpty)
  }

  /// The base is the newest passing ancestor by ancestry: a run of an older commit after a newer one passed
  /// compares with that older commit's own passing ancestor, not with the newer commit (a descendant).
  @Test func aRunOfAnOlderCommitNeverComparesWithADescendant() async throws {
    let fixture = try DaemonRunFixture()
    let first = try fixture.runningRun()
    #expect(await fixture.executor.execute(first, settings: fixture.settings, logFile: nil) == .passed(nil))
    _ = try fixture.store.finish(first.id, state: .passed, reason: nil)
    let older = try fixture.commitAndFetch("older")
    let newer = try fixture.commitAndFetch("newer")
    for head in [newer, older] {
      let queued = try fixture.store.enqueue(NewRun(repository: "app", branch: "main", head: head, trigger: .api))
      let run = try fixture.store.markRunning(queued.id, logPath: nil)
      #expect(await fixture.executor.execute(run, settings: fixture.settings, logFile: nil) == .passed(nil))
      _ = try fixture.store.finish(run.id, state: .passed, reason: nil)
      let recorded = try #require(try fixture.store.run(run.id))
      #expect(recorded.base == fixture.head, "\(head == newer ? "newer" : "older"): \(recorded.base ?? "nil")")
      #expect(recorded.selectedTestTargets == 1)
      let note = try #require(try fixture.store.detail(run.id)?.analysis?.baseNote)
      #expect(note.hasPrefix("comparing with \(fixture.head.prefix(10)), the newest ancestor of"), "\(note)")
    }
  }

  @Test func aRunWithoutAMirrorEndsInAnErrorWithoutRunningAnything() async throws {
    let fixture = try DaemonRunFixture()
    try FileManager.default.removeItem(atPath: fixture.paths.mirror("app"))
    let run = try fixture.runningRun()
    let outcome = await fixture.executor.execute(run, settings: fixture.settings, logFile: nil)
    guard case .error = outcome else {
      Issue.record("expected an error outcome, got \(outcome)")
      return
    }
    #expect(fixture.process.requests.isEmpty)
  }

  /// A branch's first run: its work tree does not exist before `prepare` checks it out. The sandbox's rules are
  /// made after that, so its `.git` is read-only in the first run too (made before, the missing folder was left
  /// out and a test could plant `core.worktree` for the next checkout). Every process the run starts says so.
  @Test func theFirstRunOfABranchCannotWriteItsGitFolder() async throws {
    let fixture = try DaemonRunFixture()
    let sandboxed = Locked<[[String]]>([])
    let toolchain = fixture.process.client
    // bwrap's command runs as the scripted toolchain; its own arguments are recorded.
    @Sendable func unwrapped(_ request: ProcessRequest) -> ProcessRequest {
      sandboxed.withLock { $0.append(request.arguments) }
      var command = request
      let inside = Array(request.arguments.drop { $0 != "--" }.dropFirst())
      command.executable = inside.first ?? ""
      command.arguments = Array(inside.dropFirst())
      return command
    }
    var executor = fixture.executor
    executor.services.process = ProcessClient(
      run: { try await toolchain.run(unwrapped($0)) },
      runStreaming: { request, onLine in try await toolchain.runStreaming(unwrapped(request), onLine) })
    executor.isolation = RunIsolation(bwrap: "bwrap", paths: fixture.paths)
    let worktree = fixture.paths.worktree(
      "app", lane: "main", checkoutName: DaemonPaths.checkoutName(of: fixture.settings.source, repository: "app"))
    #expect(!FileManager.default.fileExists(atPath: worktree), "a first run")

    let run = try fixture.runningRun()
    #expect(await executor.execute(run, settings: fixture.settings, logFile: nil) == .passed(nil))
    let git = URL(fileURLWithPath: worktree + "/.git").resolvingSymlinksInPath().path
    let calls = sandboxed.withLock { $0 }
    #expect(calls.count >= 3, "swift --version, build, test: \(calls.count)")
    for arguments in calls {
      let readOnly = arguments.indices.dropLast(2).contains {
        arguments[$0] == "--ro-bind" && arguments[$0 + 1] == git && arguments[$0 + 2] == git
      }
      #expect(readOnly, "\(arguments)")
    }
  }
}
