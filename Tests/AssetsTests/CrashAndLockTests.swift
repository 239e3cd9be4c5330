import AssetFetch
import Assets
import Foundation
import RippleConfig
import RippleCore
import TestSupport
import Testing

@Suite("bootstrap: locks, crashes, full disks")
struct CrashAndLockTests {
  @Test func twoBootstrapsAtOnceTheSecondWaitsAndFetchesNothing() async throws {
    let repo = try TestRepository()
    let data = Data("slow asset".utf8)
    let config = AssetsConfig(assets: [.test("a", data: data)])
    let log = FetchLog()
    let events = EventLog()
    let fetcher = testFetcher(["a": data], log: log, delay: .milliseconds(400))
    async let first = repo.bootstrapper(fetcher).run(config)
    // Start the second only once the first is downloading (and so holds the repository lock), however
    // slow the machine is.
    let deadline = ContinuousClock.now + .seconds(60)
    while log.requests.isEmpty && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    let second = try await repo.bootstrapper(fetcher, onEvent: events.add).run(config)
    try await first.check()
    #expect(second.assets.map(\.status) == [.upToDate(.private)])
    #expect(log.requests.count == 1)
    let waited = events.lines.first { $0.hasPrefix("waiting for another ripple bootstrap in this repository (pid ") }
    #expect(waited?.contains("pid \(getpid()) since ") == true)
  }

  @Test func twoRepositoriesSharingTheCacheDownloadAnObjectOnce() async throws {
    let first = try TestRepository()
    let second = try TestRepository()
    let data = Data("shared".utf8)
    let log = FetchLog()
    let events = EventLog()
    // The first download holds the shared cache's lock until the second repository says it waits for it: a
    // signal, not a delay a loaded machine could outrun.
    let waiting = "a: waiting for another process downloading the same file (pid "
    let base = testFetcher(["a": data], log: log)
    let started = Locked(false)
    let fetcher = Fetcher(
      fetch: { request, progress in
        started.withLock { $0 = true }
        let deadline = ContinuousClock.now + .seconds(60)
        while !events.lines.contains(where: { $0.hasPrefix(waiting) }) && ContinuousClock.now < deadline {
          try await Task.sleep(for: .milliseconds(10))
        }
        return try await base.fetch(request, progress)
      },
      checkAccess: base.checkAccess)
    let config = AssetsConfig(assets: [.test("a", data: data)])
    let sharedCache = first.cache
    var otherOptions = second.bootstrapper(base, onEvent: events.add)
    otherOptions.options.cacheRoot = sharedCache
    async let one = first.bootstrapper(fetcher).run(config)
    let deadline = ContinuousClock.now + .seconds(60)
    while !started.withLock({ $0 }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    try await otherOptions.run(config).check()
    try await one.check()
    #expect(log.requests.count == 1)
    #expect(events.lines.contains { $0.hasPrefix("a: waiting for another process downloading the same file (pid ") })
    #expect(second.read("Sources/App/Resources/a") == "shared")
  }

  @Test func lockHeldByAKilledProcessIsRecovered() async throws {
    let repo = try TestRepository()
    let lockPath = repo.path(".build/ripple/bootstrap.lock")
    try FileManager.default.createDirectory(atPath: repo.path(".build/ripple"), withIntermediateDirectories: true)
    // Another process takes the lock, says who it is, and hangs.
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: try python3Executable())
    holder.arguments = [
      "-c",
      "import fcntl, os, sys, time\nf = open(sys.argv[1], 'w')\nfcntl.flock(f, fcntl.LOCK_EX)\n"
        + "f.write('pid %d since then' % os.getpid()); f.flush()\ntime.sleep(60)",
      lockPath,
    ]
    try holder.run()
    defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
    // Python takes the lock once it has started, which a loaded machine may take seconds to do.
    let locked = ContinuousClock.now + .seconds(60)
    while FileLockProbe.holder(lockPath) == nil && holder.isRunning && ContinuousClock.now < locked {
      try await Task.sleep(for: .milliseconds(20))
    }
    try #require(FileLockProbe.holder(lockPath) != nil, "the other process never took the lock")
    let events = EventLog()
    let data = Data("x".utf8)
    let run = Task {
      try await repo.bootstrapper(testFetcher(["a": data], log: FetchLog()), onEvent: events.add).run(
        AssetsConfig(assets: [.test("a", data: data)]))
    }
    // The run says it waits, and keeps waiting while the lock is held.
    let waiting = ContinuousClock.now + .seconds(60)
    while events.lines.isEmpty && ContinuousClock.now < waiting { try await Task.sleep(for: .milliseconds(10)) }
    #expect(
      events.lines == [
        "waiting for another ripple bootstrap in this repository (pid \(holder.processIdentifier) since then)…"
      ])
    kill(holder.processIdentifier, SIGKILL)  // the kernel drops its flock
    holder.waitUntilExit()
    try await run.value.check()
    #expect(repo.read("Sources/App/Resources/a") == "x")
  }

  /// Steps of one replace-and-remove install, in order.
  private static let crashPoints: [InstallStep] = [
    .journalWritten, .movedOut("b.txt"), .movedOut("c.txt"), .movedIn("c.txt"),
    .movedIn("d.txt"), .committed, .receiptWritten, .cleanedUp,
  ]

  @Test(arguments: crashPoints)
  func crashBetweenJournalStepsLeavesTheOldOrNewSetAndARerunCompletes(crashAt: InstallStep) async throws {
    let repo = try TestRepository()
    try repo.write("Res/user.txt", "user")
    let oldSet = ["a.txt": "A", "b.txt": "B", "c.txt": "C1"]
    let newSet = ["a.txt": "A", "c.txt": "C2", "d.txt": "D"]
    let v1 = try makeArchive(
      .zip, oldSet.sorted { $0.key < $1.key }.map { ["file", $0, $1] }, at: repo.base + "/1.zip")
    let v2 = try makeArchive(
      .zip, newSet.sorted { $0.key < $1.key }.map { ["file", $0, $1] }, at: repo.base + "/2.zip")
    let spec = ArchiveSpec(format: .zip)
    let log = FetchLog()
    try await repo.bootstrapper(testFetcher(["a": v1], log: log)).run(
      AssetsConfig(assets: [.test("a", data: v1, archive: spec, destination: "Res")])
    ).check()
    // a.txt is the same in both versions and stays put; b.txt goes, c.txt is replaced, d.txt is new.
    let v2Config = AssetsConfig(assets: [.test("a", data: v2, archive: spec, destination: "Res")])
    let crash = try await repo.bootstrapper(
      testFetcher(["a": v2], log: log),
      hooks: BootstrapHooks(afterInstallStep: { step in if step == crashAt { throw InstallInterrupted() } })
    ).run(v2Config)
    #expect(crash.failures.count == 1)

    // What a restart sees, before doing anything else: recovery gives the full old or the full new set.
    let recovered = try await repo.bootstrapper(offlineFetcher(log: FetchLog()), mode: .public).run(AssetsConfig())
    let files = repo.snapshot("Res").filter { !$0.key.hasPrefix(".") }
    let afterCommit = [InstallStep.committed, .receiptWritten, .cleanedUp].contains(crashAt)
    #expect(files == (afterCommit ? newSet : oldSet).merging(["user.txt": "user"]) { a, _ in a })
    #expect(recovered.recovered == ["a"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: repo.path("")).filter { $0.hasPrefix(".ripple") }.isEmpty)

    // And the next real run completes the new set.
    try await repo.bootstrapper(testFetcher(["a": v2], log: log)).run(v2Config).check()
    #expect(repo.snapshot("Res") == newSet.merging(["user.txt": "user"]) { a, _ in a })
  }

  @Test func simulatedFullDiskFailsCleanly() async throws {
    let repo = try TestRepository()
    try repo.write("Res/user.txt", "user")
    let data = try makeArchive(.zip, [["file", "a.txt", "A"], ["file", "b.txt", "B"]], at: repo.base + "/a.zip")
    let hooks = BootstrapHooks(beforeWrite: { path in
      if path.hasSuffix("b.txt") {
        throw AssetsError.fileSystem(operation: "write", path: path, reason: "No space left on device")
      }
    })
    let report = try await repo.bootstrapper(testFetcher(["a": data], log: FetchLog()), hooks: hooks).run(
      AssetsConfig(assets: [.test("a", data: data, archive: ArchiveSpec(format: .zip), destination: "Res")]))
    #expect(report.failures.first?.description.contains("No space left on device") == true)
    #expect(repo.snapshot("Res") == ["user.txt": "user"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: repo.root).filter { $0.hasPrefix(".ripple") }.isEmpty)
  }

  @Test func realFullDiskOnATmpfs() async throws {
    let repo = try TestRepository()
    let mountPoint = repo.path("Small")
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    guard (try? shell(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint])) != nil else {
      return  // not allowed to mount here: the simulated test above covers the behaviour
    }
    defer { _ = try? shell(["umount", mountPoint]) }
    try repo.write("Small/Res/user.txt", "user")
    let big = String(repeating: "x", count: 400_000)
    let data = try makeArchive(.zip, [["file", "big.bin", big]], at: repo.base + "/big.zip")
    let report = try await repo.bootstrapper(testFetcher(["a": data], log: FetchLog())).run(
      AssetsConfig(assets: [.test("a", data: data, archive: ArchiveSpec(format: .zip), destination: "Small/Res")]))
    #expect(report.failures.first?.description.contains("No space left on device") == true)
    #expect(repo.snapshot("Small") == ["Res/user.txt": "user"])
  }
}

enum FileLockProbe {
  /// The holder line once the other process has written it.
  static func holder(_ path: String) -> String? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasPrefix("pid ") else { return nil }
    return text
  }
}
