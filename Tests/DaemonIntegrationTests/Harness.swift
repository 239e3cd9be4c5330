import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real `rippled` process against real git repositories in a temp folder: a bare "remote", a clone that
/// pushes to it, a fake NOTIFY_SOCKET the test reads, and the HTTP API on a free loopback port.
final class DaemonHarness: @unchecked Sendable {
  let root: String
  let remote: String
  let clone: String
  let state: String
  let logs: String
  let gate: String
  let notify: NotifyListener
  private(set) var process: Process?
  private(set) var port: Int?
  private let stderrPath: String

  /// The cache (mirrors, work trees, build folders) is shared by the tests of one lane in one run: the fixture builds
  /// incrementally instead of from scratch in every test. The suites using it carry `.exclusive(.daemonCache(n))`
  /// (TestSupport): one suite of a lane at a time, while the other lane and the rest of the suite run alongside.
  static var sharedCache: String {
    let lane = ExclusiveResource.current?.name.split(separator: " ").last.map(String.init) ?? "0"
    return RunFolder.path(prefix: "rippled-it-cache", suffix: "-\(lane)")
  }

  init() throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rippled-it-\(UUID().uuidString.prefix(8))")
    root = base.resolvingSymlinksInPath().path
    remote = root + "/remote.git"
    clone = root + "/clone"
    state = root + "/state"
    logs = root + "/logs"
    gate = root + "/gate"
    stderrPath = root + "/rippled.stderr"
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    notify = try NotifyListener(path: root + "/notify.sock")
  }

  deinit {
    stop()
    notify.close()
    try? FileManager.default.removeItem(atPath: root)
  }

  // MARK: Repositories

  /// A fixture package: Core ← Feature, and Other; one test target each. FeatureTests waits while the gate
  /// file exists (so a test can hold a run mid-way) and records that it started.
  func makeRemote(failingOther: Bool = false) throws {
    try git(["init", "-q", "--bare", "-b", "main", remote])
    try git(["init", "-q", "-b", "main", clone])
    try write("Package.swift", Fixture.manifest)
    try write("ripple.yml", "selection:\n  ignore: [\"**/*.md\"]\n")
    try write(".gitignore", ".build/\n")
    try write("README.md", "# fixture\n")
    try write("Sources/Core/Core.swift", "public enum Core { public static let value = 1 }\n")
    try write(
      "Sources/Feature/Feature.swift", "import Core\npublic enum Feature { public static let value = Core.value + 1 }\n"
    )
    try write("Sources/Other/Other.swift", "public enum Other { public static let value = 3 }\n")
    try write("Tests/CoreTests/CoreTests.swift", Fixture.coreTests)
    try write("Tests/FeatureTests/FeatureTests.swift", Fixture.featureTests)
    try write("Tests/OtherTests/OtherTests.swift", Fixture.otherTests(passing: !failingOther))
    try commitAndPush("Initial import")
  }

  func write(_ path: String, _ text: String, in base: String? = nil) throws {
    let url = URL(fileURLWithPath: (base ?? clone) + "/" + path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  @discardableResult
  func commitAndPush(_ message: String, branch: String = "main") throws -> String {
    try git(["-C", clone, "add", "-A"])
    try git(["-C", clone, "commit", "-q", "--allow-empty", "-m", message])
    try git(["-C", clone, "push", "-q", "-f", remote, "HEAD:refs/heads/\(branch)"])
    return try git(["-C", clone, "rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// git through the shared fixture's runner (fixed identity and config).
  @discardableResult
  func git(_ arguments: [String]) throws -> String {
    try GitFixture.git(arguments, in: root)
  }

  // MARK: The daemon

  /// Writes rippled.yml (the repository section given, or the remote) and starts the daemon.
  func start(
    repositories: String? = nil, http: String = "", extra: String = "", grace: String = "30s",
    environment: [String: String] = [:], address: String = "127.0.0.1:0", stderrToClosedPipe: Bool = false,
    sandbox: String = "off", openFileLimit: Int? = nil, journald: Bool = true
  ) throws {
    try writeConfig(
      repositories: repositories, http: http, extra: extra, grace: grace, address: address, sandbox: sandbox)
    try? FileManager.default.removeItem(atPath: state + "/http-port")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = ["--config", root + "/rippled.yml"]
    if let openFileLimit {
      // The shell sets the soft and hard limits, then becomes rippled (same pid).
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" \"$@\"", Self.binary] + process.arguments!
    }
    var env = ProcessInfo.processInfo.environment
    env["NOTIFY_SOCKET"] = notify.path
    env["WATCHDOG_USEC"] = "2000000"
    env["RIPPLE_TEST_GATE"] = gate
    env["RIPPLED_DEBUG"] = "1"
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    handle.seekToEndOfFile()
    process.standardOutput = handle
    // A pipe nobody reads: its read end is closed as soon as the daemon runs.
    let pipe = stderrToClosedPipe ? Pipe() : nil
    process.standardError = pipe ?? handle
    // As systemd does for a unit whose stderr is the journal: the device and inode of that stream. The daemon's
    // lines then carry syslog priorities (`<6>ready`), as under systemd; `journald: false` is a foreground run.
    env["JOURNAL_STREAM"] = nil
    if journald {
      var info = stat()
      if fstat((pipe?.fileHandleForWriting ?? handle).fileDescriptor, &info) == 0 {
        env["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
      }
    }
    for (key, value) in environment { env[key] = value }
    process.environment = env
    try process.run()
    if let pipe {
      try pipe.fileHandleForReading.close()
      try pipe.fileHandleForWriting.close()
    }
    self.process = process
    port = nil
  }

  /// An empty bare remote: the daemon fetches it and has nothing to run (for tests of its interfaces).
  func startIdle(
    address: String = "127.0.0.1:0", environment: [String: String] = [:], stderrToClosedPipe: Bool = false,
    journald: Bool = true
  ) throws {
    if !FileManager.default.fileExists(atPath: remote) { try git(["init", "-q", "--bare", "-b", "main", remote]) }
    try start(
      environment: environment, address: address, stderrToClosedPipe: stderrToClosedPipe, journald: journald)
  }

  /// `sandbox`: `runs.sandbox`. Off by default: the gate's `.started` file and the pid in it cross the
  /// sandbox (a folder outside the work tree, the host's PID namespace), which is what the sandbox forbids.
  func writeConfig(
    repositories: String? = nil, http: String = "", extra: String = "", grace: String = "30s",
    address: String = "127.0.0.1:0", sandbox: String = "off"
  ) throws {
    try Self.token.write(toFile: root + "/token", atomically: true, encoding: .utf8)
    try (Self.webhookSecret + "\n").write(toFile: root + "/webhook-secret", atomically: true, encoding: .utf8)
    let config = """
      http:
        address: "\(address)"
        tokenFile: \(root)/token
        webhookSecretFile: \(root)/webhook-secret
      \(http)
      stateDirectory: \(state)
      cacheDirectory: \(Self.sharedCache)
      logsDirectory: \(logs)
      shutdownGrace: \(grace)
      runs:
        sandbox: \(sandbox)
      \(extra)
      repositories:
      \(repositories ?? """
          - name: app
            remote: \(remote)
            fetchInterval: 1h
            branches: [main, {pattern: "feature/*", cancelRunning: true}]
            \(sandbox == "off" ? Self.testArguments : Self.sandboxedTestArguments)
        """)

      """
    try config.write(toFile: root + "/rippled.yml", atomically: true, encoding: .utf8)
  }

  /// What systemd/rippled.service sets (`Environment=`, `StateDirectory=`, `CacheDirectory=`, `LogsDirectory=`),
  /// with this harness's folders: `HOME` is the state folder, `XDG_CACHE_HOME` a folder of the cache.
  var serviceEnvironment: [String: String] {
    [
      "HOME": state, "XDG_CACHE_HOME": Self.sharedCache + "/xdg", "STATE_DIRECTORY": state,
      "CACHE_DIRECTORY": Self.sharedCache, "LOGS_DIRECTORY": logs,
    ]
  }

  /// What the daemon wrote to stderr so far (for failure messages and log assertions).
  var output: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  func waitForReady(timeout: Duration = .seconds(120)) async throws {
    try await eventually("READY=1 on the notify socket", timeout: timeout) {
      guard self.process?.isRunning == true else { throw HarnessError("rippled exited:\n\(self.output.suffix(4000))") }
      return self.notify.contains("READY=1")
    }
    try await eventually("the HTTP port file", timeout: .seconds(10)) {
      guard let text = try? String(contentsOfFile: self.state + "/http-port", encoding: .utf8),
        let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
      else { return false }
      self.port = port
      return true
    }
  }

  func signal(_ number: Int32) {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, number)
  }

  /// Waits for the process to exit; returns its status.
  func waitForExit(timeout: Duration) async throws -> Int32 {
    guard let process else { throw HarnessError("not started") }
    try await eventually("rippled to exit", timeout: timeout) { !process.isRunning }
    return process.terminationStatus
  }

  /// SIGKILL for the daemon, and the processes its runs started (their own process groups), as a crash would
  /// leave them: the test decides what happens to them.
  func stop() {
    guard let process, process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  // MARK: HTTP

  func get(_ path: String) async throws -> (status: Int, body: Data) {
    try await request("GET", path)
  }

  func json(_ path: String) async throws -> Any {
    let (status, body) = try await get(path)
    guard status == 200 else { throw HarnessError("GET \(path) → \(status): \(String(decoding: body, as: UTF8.self))") }
    return try JSONSerialization.jsonObject(with: body)
  }

  func runs() async throws -> [[String: Any]] {
    try #require(try await json("/api/runs?limit=500") as? [[String: Any]])
  }

  func detail(_ id: Int) async throws -> [String: Any] {
    try #require(try await json("/api/runs/\(id)") as? [String: Any])
  }

  func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws
    -> (status: Int, body: Data)
  {
    guard let port else { throw HarnessError("the daemon is not ready") }
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.httpMethod = method
    request.httpBody = body
    request.timeoutInterval = 30
    for (key, value) in headers { request.setValue(value, forHTTPHeaderField: key) }
    return try await withCheckedThrowingContinuation { continuation in
      URLSession.shared.dataTask(with: request) { data, response, error in
        if let error { return continuation.resume(throwing: error) }
        continuation.resume(returning: ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
      }.resume()
    }
  }

  // MARK: Waiting

  func eventually(
    _ what: String, timeout: Duration, _ condition: @escaping () async throws -> Bool
  ) async throws {
    if try await poll(every: .milliseconds(100), timeout: timeout, until: condition) { return }
    throw HarnessError("timed out after \(timeout) waiting for \(what)\n--- rippled output ---\n\(output.suffix(6000))")
  }

  /// A sample of `/metrics` (`rippled_fetches_total{repository="app"}`); nil when the line is absent.
  func metric(_ sample: String) async throws -> Double? {
    let text = String(decoding: try await get("/metrics").body, as: UTF8.self)
    let line = text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }
    return line.flatMap { Double($0.split(separator: " ").last ?? "") }
  }

  /// Runs in a final state, by head.
  func finishedRuns() async throws -> [[String: Any]] {
    try await runs().filter { !["queued", "running"].contains($0["state"] as? String ?? "") }
  }

  func waitForRun(head: String, states: Set<String>, timeout: Duration = .seconds(300)) async throws -> [String: Any] {
    var found: [String: Any]?
    try await eventually("a run of \(head.prefix(10)) in \(states.sorted())", timeout: timeout) {
      found = try await self.runs().first {
        ($0["head"] as? String) == head && states.contains($0["state"] as? String ?? "")
      }
      return found != nil
    }
    return found!
  }

  /// Test targets of a run that have a status (they ran), as names.
  func testedTargets(_ id: Int) async throws -> [String] {
    let detail = try await detail(id)
    let analysis = detail["analysis"] as? [String: Any]
    let targets = analysis?["targets"] as? [[String: Any]] ?? []
    return targets.filter { ($0["isTest"] as? Bool) == true }.compactMap { $0["name"] as? String }.sorted()
  }

  /// The repository setting that builds the fixture with TestSupport's `SharedModuleCache` (a run's build folder is
  /// new for every branch and every lane). Not in a sandboxed run: the sandbox lets a run write only its own folders.
  static let testArguments = setting(SharedModuleCache.swiftArguments)
  /// A sandboxed run's: no shared module cache, but no index of the system's modules either.
  static let sandboxedTestArguments = setting(SharedModuleCache.noSystemIndex)
  private static func setting(_ arguments: [String]) -> String {
    "testArguments: [\(arguments.map { "\"\($0)\"" }.joined(separator: ", "))]"
  }

  static let token = "integration-token"
  static let webhookSecret = "integration-webhook-secret"

  static let binary: String = {
    // To run these tests against another build of rippled (e.g. one without a fix, to see a test fail).
    if let path = ProcessInfo.processInfo.environment["RIPPLED_TEST_BINARY"], !path.isEmpty { return path }
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("rippled").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir.deleteLastPathComponent()
    }
    return FileManager.default.currentDirectoryPath + "/.build/debug/rippled"
  }()
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

enum Fixture {
  static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
      name: "Fixture",
      targets: [
        .target(name: "Core"),
        .target(name: "Feature", dependencies: ["Core"]),
        .target(name: "Other"),
        .testTarget(name: "CoreTests", dependencies: ["Core"]),
        .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
        .testTarget(name: "OtherTests", dependencies: ["Other"]),
      ]
    )

    """

  /// Also checks what the daemon's children inherit: never systemd's notify socket.
  static let coreTests = """
    import Core
    import Foundation
    import Testing

    @Test func core() { #expect(Core.value == 1) }
    @Test func noNotifySocketInChildren() {
      #expect(ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] == nil)
      #expect(ProcessInfo.processInfo.environment["WATCHDOG_USEC"] == nil)
    }

    """

  /// Holds while `$RIPPLE_TEST_GATE` exists (the daemon's children inherit its environment), after writing
  /// `<gate>.started` (holding the test process's pid), so a test can act while a run is in the middle of
  /// `swift test`.
  static let featureTests = """
    import Feature
    import Foundation
    import Testing

    @Test func feature() async throws {
      if let gate = ProcessInfo.processInfo.environment["RIPPLE_TEST_GATE"],
        FileManager.default.fileExists(atPath: gate)
      {
        let pid = Data("\\(ProcessInfo.processInfo.processIdentifier)".utf8)
        FileManager.default.createFile(atPath: gate + ".started", contents: pid)
        while FileManager.default.fileExists(atPath: gate) { try await Task.sleep(for: .milliseconds(50)) }
      }
      #expect(Feature.value == 2)
    }

    """

  static func otherTests(passing: Bool) -> String {
    "import Testing\nimport Other\n@Test func other() { #expect(Other.value == \(passing ? 3 : 4)) }\n"
  }
}

/// Runs argv (no shell), capturing both streams (TestSupport's `Command`), with `environment` added.
func runCommand(_ argv: [String], environment: [String: String] = [:]) throws -> CommandResult {
  try Command.run(argv, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
}

/// The test's end of systemd's notify protocol: a datagram socket that records every message.
final class NotifyListener: @unchecked Sendable {
  let path: String
  private let descriptor: Int32
  private let lock = NSLock()
  private var received: [String] = []
  private var thread: Thread?
  /// Called on the listener's thread with each message as it arrives, before it is recorded.
  var onMessage: (@Sendable (String) -> Void)? {
    get { lock.withLock { handler } }
    set { lock.withLock { handler = newValue } }
  }
  private var handler: (@Sendable (String) -> Void)?

  init(path: String) throws {
    self.path = path
    unlink(path)
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard descriptor >= 0 else { throw HarnessError("socket: \(errno)") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw HarnessError("socket path too long") }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in bytes.enumerated() { buffer[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0 else { throw HarnessError("bind \(path): \(errno)") }
    let thread = Thread { [descriptor] in
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { return }
        let message = String(decoding: buffer[0..<count], as: UTF8.self)
        self.onMessage?(message)
        self.lock.withLock { self.received.append(message) }
      }
    }
    thread.start()
    self.thread = thread
  }

  var messages: [String] { lock.withLock { received } }

  func contains(_ assignment: String) -> Bool {
    messages.contains { $0.split(separator: "\n").contains(Substring(assignment)) }
  }

  func close() {
    shutdown(descriptor, Int32(SHUT_RDWR))
    Glibc.close(descriptor)
    unlink(path)
  }
}
