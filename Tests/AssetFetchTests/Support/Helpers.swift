import Foundation
import TestSupport

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

/// A fresh temporary directory for `body`, removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("assetfetch-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}
