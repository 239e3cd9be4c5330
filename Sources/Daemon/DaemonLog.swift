import Foundation
import RippleCore

/// The daemon's own log: one line per event on stderr, prefixed with a syslog priority (`<3>` error,
/// `<4>` warning, `<6>` info, `<7>` debug) that journald strips and records, and with the run id when the
/// line is about a run — `journalctl -u rippled -p warning` and `grep 'run 12'` both work.
final class DaemonLog: Sendable {
  enum Level: Int, Comparable, Sendable {
    case error = 3, warning = 4, info = 6, debug = 7
    static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
  }

  private let minimum: Level
  private let sink: @Sendable (String) -> Void
  private let lock = Locked(())

  init(minimum: Level = .info, sink: (@Sendable (String) -> Void)? = nil) {
    self.minimum = minimum
    self.sink =
      sink ?? { line in
        FileHandle.standardError.write(Data(line.utf8))
      }
  }

  /// `<6>run 12 isowords/main: started` — one physical line: embedded newlines become " ⏎ ".
  static func format(_ level: Level, _ message: String, run: Int64? = nil) -> String {
    let flat = message.replacingOccurrences(of: "\n", with: " ⏎ ")
    return "<\(level.rawValue)>" + (run.map { "run \($0): " } ?? "") + flat + "\n"
  }

  func log(_ level: Level, _ message: String, run: Int64? = nil) {
    guard level <= minimum else { return }
    let line = Self.format(level, message, run: run)
    lock.withLock { _ in sink(line) }
  }

  func error(_ message: String, run: Int64? = nil) { log(.error, message, run: run) }
  func warning(_ message: String, run: Int64? = nil) { log(.warning, message, run: run) }
  func info(_ message: String, run: Int64? = nil) { log(.info, message, run: run) }
  func debug(_ message: String, run: Int64? = nil) { log(.debug, message, run: run) }
}

/// Conditions that make the daemon unhealthy (`/readyz` 503, `healthy: false`), each keyed by its source so
/// it clears itself when that source works again.
final class HealthBoard: Sendable {
  private let problems = Locked<[String: String]>([:])

  func set(_ key: String, _ problem: String?) {
    problems.withLock { $0[key] = problem }
  }

  var current: [String] {
    problems.withLock { table in table.keys.sorted().compactMap { table[$0] } }
  }
  var isHealthy: Bool { problems.withLock { $0.isEmpty } }
}
