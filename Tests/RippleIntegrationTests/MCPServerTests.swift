import Foundation
import MCP
import SystemPackage
import TestSupport
import Testing

/// `ripple mcp` as a coding agent uses it: the real binary over stdio, asked through the SDK's own `Client`
/// (issue 52). Each answer is the one the CLI command prints.
@Suite(.serialized, .exclusive(.cooperativeThread)) struct MCPServerTests {
  /// `ripple mcp` started in `directory`, and a `Client` connected to it over its standard input and output.
  final class Session: @unchecked Sendable {
    let process = Process()
    let toServer = Pipe()
    let fromServer = Pipe()
    let errors = Pipe()
    let client = Client(name: "ripple-tests", version: "1")

    init(in directory: String, environment: [String: String] = [:]) async throws {
      process.executableURL = URL(fileURLWithPath: RippleBinary.path)
      process.arguments = ["mcp"]
      process.currentDirectoryURL = URL(fileURLWithPath: directory)
      process.environment = ProcessInfo.processInfo.environment.merging(
        ["RIPPLE_CACHE_DIR": RippleBinary.cacheDirectory, "NO_COLOR": "1", "RIPPLE_NO_CACHE_RESULTS": "1"]
          .merging(environment) { $1 }
      ) { $1 }
      process.standardInput = toServer
      process.standardOutput = fromServer
      process.standardError = errors
      try process.run()
      let transport = StdioTransport(
        input: FileDescriptor(rawValue: fromServer.fileHandleForReading.fileDescriptor),
        output: FileDescriptor(rawValue: toServer.fileHandleForWriting.fileDescriptor))
      try await client.connect(transport: transport)
    }

    /// The client goes: its end of the server's standard input is closed.
    func disconnect() async {
      await client.disconnect()
      try? toServer.fileHandleForWriting.close()
    }

    /// Waits (60 s at most) for the server to exit after `disconnect`; SIGKILL if it did not.
    func waitForExit() async -> Bool {
      let ended = await poll(every: .milliseconds(50), timeout: .seconds(60)) { !process.isRunning }
      if !ended { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      return ended
    }

    func text(_ tool: String, _ arguments: [String: Value] = [:]) async throws -> (text: String, isError: Bool) {
      let (content, isError) = try await client.callTool(name: tool, arguments: arguments)
      let texts = content.compactMap { item -> String? in
        if case .text(let text, _, _) = item { return text }
        return nil
      }
      return (texts.joined(separator: "\n"), isError ?? false)
    }
  }

  static func json(_ text: String) throws -> NSDictionary {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary, "\(text)")
  }

  @Test func everyToolAnswersAsTheCLIDoes() async throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.append("Packages/Shared/Sources/Greeting/Greeting.swift", "// edit\n")
    let session = try await Session(in: repo.root)

    let (tools, _) = try await session.client.listTools()
    #expect(
      tools.map(\.name).sorted() == ["affected", "dependencies", "dependents", "explain", "flaky", "test_plan"])
    #expect(tools.allSatisfy { $0.annotations.readOnlyHint == true })

    let affected = try await session.text("affected")
    #expect(!affected.isError)
    let cli = try RippleBinary.run(["affected", "--format", "json"], in: repo.root)
    #expect(cli.status == 0, "\(cli.standardError)")
    #expect(try Self.json(affected.text) == Self.json(cli.standardOutput))

    let explain = try await session.text("explain", ["target": "AppTests"])
    let cliExplain = try RippleBinary.run(["affected", "--explain", "AppTests"], in: repo.root)
    #expect(!explain.isError)
    #expect(explain.text + "\n" == cliExplain.standardOutput)
    #expect(explain.text.contains("Greeting"), "\(explain.text)")

    let plan = try await session.text("test_plan")
    let cliPlan = try RippleBinary.run(["test", "--dry-run", "--format", "json"], in: repo.root)
    #expect(!plan.isError)
    #expect(try Self.json(plan.text) == Self.json(cliPlan.standardOutput))
    #expect((try Self.json(plan.text)["keys"] as? [Any]) != nil, "the plan has its keys: \(plan.text)")

    let flaky = try await session.text("flaky", ["since": "7d"])
    let cliFlaky = try RippleBinary.run(["flaky", "--format", "json", "--since", "7d"], in: repo.root)
    #expect(try Self.json(flaky.text) == Self.json(cliFlaky.standardOutput))

    let dependents = try await session.text("dependents", ["target": "Greeting", "transitive": true])
    #expect(
      try Self.json(dependents.text)["targets"] as? [String] == [
        ".:App", ".:AppTests", "Packages/Shared:GreetingTests",
      ])
    let dependencies = try await session.text("dependencies", ["target": ".:AppTests"])
    #expect(try Self.json(dependencies.text)["targets"] as? [String] == [".:App"])
    let all = try await session.text("dependencies", ["target": ".:AppTests", "transitive": true])
    #expect(try Self.json(all.text)["targets"] as? [String] == [".:App", "Packages/Shared:Greeting"])

    await session.disconnect()
    #expect(await session.waitForExit())
    #expect(session.process.terminationReason == .exit && session.process.terminationStatus == 0)
  }

  /// An unknown tool and a malformed argument are JSON-RPC errors; a call the repository cannot answer is a tool
  /// error; the server answers the next call after each.
  @Test func badCallsAreErrorsAndTheServerStaysUp() async throws {
    let repo = try TestCommandTests.makeRepository()
    try repo.append("Sources/Other/Other.swift", "// edit\n")
    let session = try await Session(in: repo.root)

    await #expect(
      throws: MCPError.invalidParams(
        "unknown tool `nope`; the tools are `affected`, `explain`, "
          + "`test_plan`, `flaky`, `dependencies`, `dependents`")
    ) {
      try await session.client.callTool(name: "nope", arguments: [:])
    }
    await #expect(
      throws: MCPError.invalidParams("dependents: argument `transitive` must be true or false, not a string")
    ) {
      try await session.client.callTool(name: "dependents", arguments: ["target": "Other", "transitive": "yes"])
    }
    await #expect(throws: MCPError.invalidParams("explain: missing argument `target`")) {
      try await session.client.callTool(name: "explain", arguments: [:])
    }
    await #expect(
      throws: MCPError.invalidParams(
        "affected: unknown argument `bsae`; it takes `base`, `direct`, `head`, `noMergeBase`")
    ) {
      try await session.client.callTool(name: "affected", arguments: ["bsae": "main"])
    }

    let unknown = try await session.text("dependents", ["target": "Greting"])
    #expect(
      unknown.isError && unknown.text.contains("no target is named `Greting`; did you mean `Greeting`?"), "\(unknown)")
    let notAffected = try await session.text("explain", ["target": "AppTests"])
    #expect(notAffected.isError && notAffected.text.contains("`AppTests` is not affected"), "\(notAffected)")
    let badBase = try await session.text("affected", ["base": "no-such-branch"])
    #expect(badBase.isError && badBase.text.contains("no-such-branch"), "\(badBase)")
    let badSince = try await session.text("flaky", ["since": "3x"])
    #expect(badSince.isError && badSince.text.contains("3x"), "\(badSince)")

    let next = try await session.text("dependents", ["target": "Other"])
    #expect(!next.isError)
    #expect(try Self.json(next.text)["targets"] as? [String] == [".:OtherTests"])

    await session.disconnect()
    #expect(await session.waitForExit())
    #expect(session.process.terminationStatus == 0)
  }

  /// The client goes while a call waits on the toolchain (a `swift` that never answers): the server cancels the
  /// call, stops the child with its group, and exits 0.
  @Test func aClientThatGoesMidCallLeavesNothingRunning() async throws {
    let repo = try TestCommandTests.makeRepository()
    let stub = try TemporaryDirectory(prefix: "ripple-mcp-swift")
    let pidFile = stub.child("swift.pid")
    try """
    #!/bin/sh
    echo $$ > '\(pidFile)'
    exec sleep 300

    """.write(toFile: stub.child("swift"), atomically: true, encoding: .utf8)
    chmod(stub.child("swift"), 0o755)
    // A private cache: the toolchain is asked (the stub), nothing is read from an earlier test's cache.
    let session = try await Session(
      in: repo.root, environment: ["RIPPLE_SWIFT": stub.child("swift"), "RIPPLE_CACHE_DIR": stub.child("cache")])
    let call = Task { try await session.client.callTool(name: "dependents", arguments: ["target": "Greeting"]) }
    defer { call.cancel() }
    let started = await poll(every: .milliseconds(50), timeout: .seconds(60)) {
      FileManager.default.fileExists(atPath: pidFile)
    }
    try #require(started, "the call never started swift")
    let child = try #require(
      Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))

    await session.disconnect()
    #expect(await session.waitForExit(), "the server exits when its client goes")
    #expect(session.process.terminationReason == .exit && session.process.terminationStatus == 0)
    let gone = await poll(every: .milliseconds(50), timeout: .seconds(30)) { processHasEnded(child) }
    if !gone { kill(child, SIGKILL) }
    #expect(gone, "the call's swift was stopped")
    let stderr = String(decoding: session.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(!stderr.contains("Fatal error"), "\(stderr)")
  }

  @Test func outsideARepositoryItFailsBeforeServing() throws {
    let folder = try TemporaryDirectory(prefix: "ripple-mcp-nogit")
    let result = try RippleBinary.run(["mcp"], in: folder.path)
    #expect(result.status == 3, "an environment error, as every command's: \(result.standardError)")
    #expect(result.standardError.contains(folder.path), "\(result.standardError)")
    #expect(result.standardOutput.isEmpty, "no protocol message: \(result.standardOutput)")
  }

  /// `ripple mcp` hands its process to `ripple-mcp` beside it; a `ripple` without one says so (exit 3).
  @Test func withoutTheServerBesideItRippleMCPSaysWhereItLooked() throws {
    let repo = try TestCommandTests.makeRepository()
    let lonely = try TemporaryDirectory(prefix: "ripple-mcp-alone")
    try FileManager.default.copyItem(atPath: RippleBinary.path, toPath: lonely.child("ripple"))
    let result = try RippleIntegrationTests.run([lonely.child("ripple"), "mcp"], in: repo.root, check: false)
    #expect(result.status == 3, "\(result.standardError)")
    #expect(result.standardError.contains(lonely.child("ripple-mcp")), "\(result.standardError)")
    #expect(result.standardError.contains("swift build -c release --product ripple-mcp"))
    #expect(result.standardOutput.isEmpty)
  }
}
