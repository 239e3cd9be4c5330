import Foundation
import SystemClients
import TestSupport
import Testing

@testable import TestRunner

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

/// Waits (a bounded poll) until `condition` holds: true then, false when `timeout` passed first.
func waitUntil(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async rethrows -> Bool {
  try await poll(every: .milliseconds(5), timeout: timeout, until: condition)
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
