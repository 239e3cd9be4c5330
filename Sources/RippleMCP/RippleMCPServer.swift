import Foundation
import MCP
import RippleKit
import SystemPackage

/// `ripple mcp`: the tools over the Model Context Protocol's stdio transport (JSON-RPC, one message a line),
/// until the client closes standard input. Calls run concurrently, each on a workspace opened for it; calls
/// still running when the client goes are cancelled (their child processes stopped with their groups) and
/// awaited before `serve` returns.
public enum RippleMCPServer {
  public struct SetUpFailed: Error, CustomStringConvertible {
    public var description: String
  }

  public static func serve(version: String, open: @escaping @Sendable () throws -> Workspace) async throws {
    // The protocol gets its own copy of standard output, and standard output becomes standard error: nothing
    // printed by accident can break a message.
    let protocolOutput = dup(STDOUT_FILENO)
    guard protocolOutput >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
      throw SetUpFailed(
        description: "cannot set up standard output for the protocol: \(String(cString: strerror(errno)))")
    }
    let calls = CallTracker()
    let server = Server(name: "ripple", version: version, capabilities: .init(tools: .init(listChanged: false)))
    await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: RippleTools.catalogue) }
    await server.withMethodHandler(CallTool.self) { parameters in
      let call: RippleToolCall
      do throws(ToolCallError) {
        call = try RippleToolCall(name: parameters.name, arguments: parameters.arguments ?? [:])
      } catch {
        throw MCPError.invalidParams(error.description)
      }
      let output = await calls.run { await ToolRunner.run(call, open: open) }
      let texts = [output.text] + output.warnings.map { "warning: \($0)" }
      return CallTool.Result(
        content: texts.map { .text(text: $0, annotations: nil, _meta: nil) }, isError: output.isError)
    }
    try await server.start(
      transport: StdioTransport(input: .standardInput, output: FileDescriptor(rawValue: protocolOutput)))
    await server.waitUntilCompleted()
    await calls.cancelAll()
    await server.stop()
  }
}

/// The calls in flight: each runs in a task of its own, cancelled when its request is (the client's
/// `notifications/cancelled`) or when the client goes.
actor CallTracker {
  private var tasks: [UUID: Task<ToolRunner.Output, Never>] = [:]
  private var closed = false

  func run(_ body: @escaping @Sendable () async -> ToolRunner.Output) async -> ToolRunner.Output {
    let id = UUID()
    let task = Task { await body() }
    if closed { task.cancel() }
    tasks[id] = task
    let output = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    tasks[id] = nil
    return output
  }

  /// Cancels every call and waits for each to end.
  func cancelAll() async {
    closed = true
    let running = Array(tasks.values)
    for task in running { task.cancel() }
    for task in running { _ = await task.value }
  }
}
