import Foundation

public struct TestSetupError: Error, CustomStringConvertible {
  public var description: String

  public init(description: String) { self.description = description }
}

/// Finds `tool` on PATH, or fails with what to install (the tests never skip silently).
public func requireTool(_ tool: String, install: String) throws -> String {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(tool)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  throw TestSetupError(description: "`\(tool)` is not on PATH; these tests need it: \(install)")
}

/// The Python interpreter itself, asked once per test process. `python3` on PATH may be a version manager's shim
/// (pyenv's, on the CI machine, is a bash script that starts ~240 processes and costs ~0.08 s of CPU per call, over
/// the suite's ~77 starts), which every helper server and script would otherwise pay again.
public func python3Executable() throws -> String {
  try resolvedPython3.get()
}

private let resolvedPython3: Result<String, TestSetupError> = {
  do {
    let onPath = try requireTool("python3", install: "apt-get install python3")
    let asked = try Command.run([onPath, "-c", "import sys; print(sys.executable)"])
    let executable = asked.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    guard asked.status == 0, executable.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: executable)
    else {
      return .failure(
        TestSetupError(description: "\(onPath) does not say where its interpreter is: \(asked.standardError)"))
    }
    return .success(executable)
  } catch let error as TestSetupError {
    return .failure(error)
  } catch {
    return .failure(TestSetupError(description: "cannot run python3: \(error)"))
  }
}()

/// A helper server started by a test (a Python script): it writes one JSON line to a ready file when listening,
/// and exits when its stdin closes (or on SIGTERM). `stop()` waits for it, bounded.
public final class HelperProcess: @unchecked Sendable {
  private let process = Process()
  private let stdin = Pipe()
  private let logPath: String

  private init(logPath: String) { self.logPath = logPath }

  /// Starts `python3 script arguments…` (READY_FILE is passed as the first argument) and waits up to
  /// `timeout` for the ready file. Returns the process and the ready file's contents.
  public static func start(script: String, arguments: [String], directory: String, timeout: TimeInterval = 60)
    async throws
    -> (HelperProcess, Data)
  {
    let python = try python3Executable()
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
    // Once more after the deadline: a loaded machine may wake this task only after it, the server ready meanwhile.
    if let data = FileManager.default.contents(atPath: readyFile) { return (helper, data) }
    helper.stop()
    throw TestSetupError(description: "\(script) was not ready after \(Int(timeout)) s: \(helper.output())")
  }

  public func output() -> String {
    String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
  }

  public func stop() {
    try? stdin.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}
