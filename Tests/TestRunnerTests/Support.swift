import Foundation
import SystemClients
import Testing

@testable import TestRunner

/// A `ProcessClient` whose answers come from a closure; it records every request, and a request the
/// closure does not expect (returns nil) fails the test.
final class ScriptedProcess: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [ProcessRequest] = []
  private let answer: @Sendable (ProcessRequest) async throws -> ProcessResult?

  init(_ answer: @escaping @Sendable (ProcessRequest) async throws -> ProcessResult?) {
    self.answer = answer
  }

  var requests: [ProcessRequest] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  private func record(_ request: ProcessRequest) {
    lock.lock()
    recorded.append(request)
    lock.unlock()
  }

  var client: ProcessClient {
    ProcessClient { request in
      self.record(request)
      guard let result = try await self.answer(request) else {
        Issue.record("unexpected command: \(request.commandLine)")
        return ProcessResult(request: request, exitStatus: 99, standardOutput: Data(), standardError: Data())
      }
      return result
    }
  }

  static func result(_ request: ProcessRequest, status: Int32 = 0, stdout: String = "", stderr: String = "")
    -> ProcessResult
  {
    ProcessResult(
      request: request, exitStatus: status, standardOutput: Data(stdout.utf8), standardError: Data(stderr.utf8))
  }
}

extension ProcessRequest {
  /// `build`, `list` or `test`.
  var subcommand: String {
    if arguments.first == "build" { return "build" }
    return arguments.dropFirst().first == "list" ? "list" : "test"
  }

  func value(after flag: String) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
  }

  var packagePath: String { value(after: "--package-path") ?? "" }
}

/// A temporary directory removed when the closure returns.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async rethrows -> T {
  let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("ripple-tr-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try await body(path)
}

/// Collects events thread-safely.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [TestRunEvent] = []
  func append(_ event: TestRunEvent) {
    lock.lock()
    stored.append(event)
    lock.unlock()
  }
  var events: [TestRunEvent] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

extension PackageStep {
  /// The SwiftPM part of a step planned for `swift`; fails the test for another backend.
  var swiftPM: SwiftPMTests {
    get throws {
      guard case .swiftPM(let swiftPM) = backend else { throw PlannedBackendMismatch(step: label) }
      return swiftPM
    }
  }
}

struct PlannedBackendMismatch: Error {
  var step: String
}
