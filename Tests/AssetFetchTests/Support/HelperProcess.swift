import Foundation

struct TestSetupError: Error, CustomStringConvertible {
  var description: String
}

/// Finds `tool` on PATH, or fails with what to install (the tests never skip silently).
func requireTool(_ tool: String, install: String) throws -> String {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(tool)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  throw TestSetupError(description: "`\(tool)` is not on PATH; these tests need it: \(install)")
}

/// The folder of the helper scripts next to this test target's sources.
let helpersDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Helpers").path

/// Runs a command to completion (bounded), throwing with its output when it fails.
func run(_ executable: String, _ arguments: [String], in directory: String) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  process.currentDirectoryURL = URL(fileURLWithPath: directory)
  let logPath = directory + "/command-\(UUID().uuidString).log"
  _ = FileManager.default.createFile(atPath: logPath, contents: nil)
  let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
  defer { try? log.close() }
  process.standardOutput = log
  process.standardError = log
  try process.run()
  let deadline = Date().addingTimeInterval(60)
  while process.isRunning && Date() < deadline { usleep(20_000) }
  if process.isRunning {
    process.terminate()
    throw TestSetupError(description: "\(executable) \(arguments.joined(separator: " ")) did not finish in 60 s")
  }
  guard process.terminationStatus == 0 else {
    let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    throw TestSetupError(
      description: "\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(output)")
  }
}

/// A helper server started by a test: it writes one JSON line to a ready file when listening,
/// and exits when its stdin closes (or on SIGTERM). `stop()` waits for it, bounded.
final class HelperProcess: @unchecked Sendable {
  private let process = Process()
  private let stdin = Pipe()
  private let logPath: String

  private init(logPath: String) { self.logPath = logPath }

  /// Starts `python3 script arguments…` (READY_FILE is passed as the first argument) and waits up to
  /// `timeout` for the ready file. Returns the process and the ready file's contents.
  static func start(script: String, arguments: [String], directory: String, timeout: TimeInterval = 60) async throws
    -> (HelperProcess, Data)
  {
    let python = try requireTool("python3", install: "apt-get install python3")
    let readyFile = directory + "/ready-\(UUID().uuidString).json"
    let helper = HelperProcess(logPath: directory + "/\(URL(fileURLWithPath: script).lastPathComponent).log")
    _ = FileManager.default.createFile(atPath: helper.logPath, contents: nil)
    let log = try FileHandle(forWritingTo: URL(fileURLWithPath: helper.logPath))
    helper.process.executableURL = URL(fileURLWithPath: python)
    helper.process.arguments = [script, readyFile] + arguments
    helper.process.standardInput = helper.stdin
    helper.process.standardOutput = log
    helper.process.standardError = log
    try helper.process.run()
    try? log.close()

    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let data = FileManager.default.contents(atPath: readyFile) { return (helper, data) }
      if !helper.process.isRunning {
        throw TestSetupError(description: "\(script) exited (\(helper.process.terminationStatus)): \(helper.output())")
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    helper.stop()
    throw TestSetupError(description: "\(script) was not ready after \(Int(timeout)) s: \(helper.output())")
  }

  func output() -> String {
    String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
  }

  func stop() {
    try? stdin.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

/// A fresh temporary directory for `body`, removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("assetfetch-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}
