import Foundation
import Testing

/// A real git repository in a temp dir, removed when the test ends.
final class TestRepository {
  let root: String
  /// What `deinit` removes: `root`, or the folder holding it when the repository's folder is named.
  private let container: String

  /// `folderName`: the checkout's own folder name (SwiftPM names a `.package(path:)` by it).
  init(folderName: String? = nil) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-it-\(UUID().uuidString)")
    let container = base.resolvingSymlinksInPath().path
    self.container = container
    root = folderName.map { container + "/" + $0 } ?? container
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try git("init", "-q", "-b", "main")
  }

  deinit { try? FileManager.default.removeItem(atPath: container) }

  func write(_ path: String, _ text: String) throws {
    let url = URL(fileURLWithPath: root + "/" + path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  func append(_ path: String, _ text: String) throws {
    let existing = (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? ""
    try write(path, existing + text)
  }

  func remove(_ path: String) throws { try FileManager.default.removeItem(atPath: root + "/" + path) }

  @discardableResult
  func git(_ arguments: String...) throws -> String {
    try run(["/usr/bin/git", "-C", root] + arguments, environment: Self.gitIdentity).standardOutput
  }

  func commitAll(_ message: String) throws {
    try git("add", "-A", "-f")
    try git("commit", "-q", "-m", message)
  }

  static let gitIdentity = [
    "GIT_AUTHOR_NAME": "Ripple Tests", "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "Ripple Tests", "GIT_COMMITTER_EMAIL": "tests@example.invalid",
  ]
}

struct CommandResult {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs argv (no shell) and captures both streams; throws only if it cannot start.
@discardableResult
func run(_ argv: [String], in directory: String? = nil, environment: [String: String] = [:], check: Bool = true)
  throws -> CommandResult
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: argv[0])
  process.arguments = Array(argv.dropFirst())
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Read both pipes concurrently with the process so a full pipe cannot block it.
  let errData = LockedData()
  let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
  reader.start()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !errData.isSet { usleep(1000) }
  let result = CommandResult(
    status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
    standardError: String(decoding: errData.value, as: UTF8.self))
  if check && result.status != 0 {
    throw CommandFailure(argv: argv, result: result)
  }
  return result
}

struct CommandFailure: Error, CustomStringConvertible {
  var argv: [String]
  var result: CommandResult
  var description: String { "\(argv.joined(separator: " ")) exited \(result.status): \(result.standardError)" }
}

final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?
  func set(_ d: Data) { lock.withLock { data = d } }
  var isSet: Bool { lock.withLock { data != nil } }
  var value: Data { lock.withLock { data ?? Data() } }
}

/// The `ripple` executable built next to the test bundle.
enum RippleBinary {
  static let path: String = {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("ripple").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir.deleteLastPathComponent()
    }
    return FileManager.default.currentDirectoryPath + "/.build/debug/ripple"
  }()

  /// A manifest cache shared by the tests of one run, so each manifest is evaluated once.
  static let cacheDirectory: String = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ripple-it-cache-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }()

  static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws
    -> CommandResult
  {
    try RippleIntegrationTests.run(
      [path] + arguments, in: directory,
      environment: ["RIPPLE_CACHE_DIR": cacheDirectory, "NO_COLOR": "1"].merging(environment) { $1 }, check: false)
  }

  /// `ripple affected --format json` → the test targets as "package:Name", asserting exit 0.
  static func affectedTests(_ arguments: [String], in directory: String) throws -> (
    tests: [String], json: [String: Any]
  ) {
    let result = try run(["affected", "--format", "json"] + arguments, in: directory)
    guard result.status == 0 else { throw CommandFailure(argv: ["ripple", "affected"] + arguments, result: result) }
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let tests = try #require(json["testTargets"] as? [[String: Any]])
    return (tests.map { "\($0["package"] as? String ?? "?"):\($0["name"] as? String ?? "?")" }.sorted(), json)
  }
}
