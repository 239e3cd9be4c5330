import Foundation

public struct CommandResult: Sendable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String

  public init(status: Int32, standardOutput: String, standardError: String) {
    self.status = status
    self.standardOutput = standardOutput
    self.standardError = standardError
  }
}

public struct CommandFailure: Error, CustomStringConvertible {
  public var argv: [String]
  public var result: CommandResult

  public init(argv: [String], result: CommandResult) {
    self.argv = argv
    self.result = result
  }

  public var description: String { "\(argv.joined(separator: " ")) exited \(result.status): \(result.standardError)" }
}

public enum Command {
  /// Runs argv (no shell; a bare name is looked up on PATH) and captures both streams; throws only when it
  /// cannot start. Output goes through temp files, not pipes: a full pipe cannot block the child, and
  /// Foundation's pipe reads crash on EINTR.
  public static func run(_ argv: [String], in directory: String? = nil, environment: [String: String]? = nil) throws
    -> CommandResult
  {
    let process = Process()
    if argv[0].contains("/") {
      process.executableURL = URL(fileURLWithPath: argv[0])
      process.arguments = Array(argv.dropFirst())
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = argv
    }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    let base = NSTemporaryDirectory() + "ripple-command-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
    _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: base + ".out")
      try? FileManager.default.removeItem(atPath: base + ".err")
    }
    process.standardOutput = FileHandle(forWritingAtPath: base + ".out")
    process.standardError = FileHandle(forWritingAtPath: base + ".err")
    try process.run()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus,
      standardOutput: String(decoding: FileManager.default.contents(atPath: base + ".out") ?? Data(), as: UTF8.self),
      standardError: String(decoding: FileManager.default.contents(atPath: base + ".err") ?? Data(), as: UTF8.self))
  }
}
