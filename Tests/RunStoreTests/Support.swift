import Foundation
import RunModel
import Testing

@testable import RunStore

/// A clock tests move by hand. Starts at a time with sub-millisecond digits, to check date round trips.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date

  init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000.123_456)) { current = start }

  var now: Date { lock.withLock { current } }

  func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }

  var closure: @Sendable () -> Date { { self.now } }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
func withTempDirectory<T>(_ body: (String) throws -> T) throws -> T {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("RunStoreTests-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: directory) }
  return try body(directory)
}

/// Runs `body` with a store in a fresh temporary directory.
func withStore<T>(clock: TestClock = TestClock(), _ body: (RunStore, String) throws -> T) throws -> T {
  try withTempDirectory { directory in
    let path = directory + "/runs.sqlite"
    return try body(try RunStore(path: path, now: clock.closure), path)
  }
}

func newRun(
  repository: String = "app", branch: String = "main", head: String = "c0ffee", trigger: RunTrigger = .fetch
) -> NewRun {
  NewRun(repository: repository, branch: branch, head: head, trigger: trigger)
}

/// Queues a run and moves it, through the public API, into `state`.
@discardableResult
func makeRun(
  _ store: RunStore, in state: RunState, repository: String = "app", branch: String = "main", head: String = "c0ffee",
  logPath: String? = nil
) throws -> RunRecord {
  var run = try store.enqueue(newRun(repository: repository, branch: branch, head: head))
  switch state {
  case .queued:
    break
  case .superseded, .cancelled:
    run = try store.finish(run.id, state: state, reason: "\(state.rawValue) before it started")
  case .running:
    run = try store.markRunning(run.id, logPath: logPath)
  case .passed, .failed, .error, .interrupted:
    run = try store.markRunning(run.id, logPath: logPath)
    run = try store.finish(run.id, state: state, reason: "it \(state.rawValue)")
  }
  return run
}

/// The number of rows `sql` (a `SELECT COUNT(*) …`) counts.
func count(_ store: RunStore, _ sql: String) throws -> Int {
  Int(try store.strings(sql: sql).first?.first ?? "") ?? -1
}

/// Whether two dates agree to the millisecond.
func sameMillisecond(_ a: Date?, _ b: Date?) -> Bool {
  guard let a, let b else { return a == nil && b == nil }
  return abs(a.timeIntervalSince1970 - b.timeIntervalSince1970) < 0.000_5
}
