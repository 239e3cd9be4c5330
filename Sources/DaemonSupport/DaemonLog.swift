import Foundation
import RippleCore

#if canImport(Glibc)
  import Glibc
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  import Darwin
  private let systemWrite = Darwin.write
#endif

/// The daemon's own log: one line per event on stderr, with the run id when the line is about a run. When
/// journald reads stderr (`JournalStream`), each line starts with a syslog priority (`<3>` error, `<4>`
/// warning, `<6>` info, `<7>` debug) that journald strips and records — `journalctl -u rippled -p warning`
/// and `grep 'run 12'` both work. Anywhere else (a terminal, a pipe, a file: a person running `rippled` in the
/// foreground, a container's log) the prefixes would be noise: lines read `error: …`, `warning: …`, or plain.
package final class DaemonLog: Sendable {
  package enum Level: Int, Comparable, Sendable {
    case error = 3, warning = 4, info = 6, debug = 7
    package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
  }

  private let minimum: Level
  private let sink: @Sendable (String) -> Void
  private let syslogPrefixes: Bool
  private let lock = Locked(())

  /// `sink`: where lines go (tests); nil: stderr, with syslog prefixes only when journald reads it.
  package init(minimum: Level = .info, sink: (@Sendable (String) -> Void)? = nil) {
    self.minimum = minimum
    self.syslogPrefixes = sink != nil || JournalStream.readsStandardError()
    self.sink =
      sink ?? { line in StandardError.write(line) }
  }

  /// `<6>run 12 isowords/main: started` — one physical line: embedded newlines become " ⏎ ". Without syslog
  /// prefixes (not journald): `warning: run 12: …`, `error: …`, info and debug plain.
  package static func format(_ level: Level, _ message: String, run: Int64? = nil, syslogPrefixes: Bool = true)
    -> String
  {
    let flat = message.replacingOccurrences(of: "\n", with: " ⏎ ")
    let prefix: String
    if syslogPrefixes {
      prefix = "<\(level.rawValue)>"
    } else {
      prefix = level == .error ? "error: " : level == .warning ? "warning: " : ""
    }
    return prefix + (run.map { "run \($0): " } ?? "") + flat + "\n"
  }

  package func log(_ level: Level, _ message: String, run: Int64? = nil) {
    guard level <= minimum else { return }
    let line = Self.format(level, message, run: run, syslogPrefixes: syslogPrefixes)
    lock.withLock { _ in sink(line) }
  }

  package func error(_ message: String, run: Int64? = nil) { log(.error, message, run: run) }
  package func warning(_ message: String, run: Int64? = nil) { log(.warning, message, run: run) }
  package func info(_ message: String, run: Int64? = nil) { log(.info, message, run: run) }
  package func debug(_ message: String, run: Int64? = nil) { log(.debug, message, run: run) }
}

/// Whether journald reads this process's stderr. systemd connects a service's stderr to journald and sets
/// `JOURNAL_STREAM` to `<device>:<inode>` of that stream (systemd.exec(5)); a process whose stderr is still that
/// stream writes for journald, one whose stderr was redirected (`rippled … 2>file`, a pipe) or that merely
/// inherited the variable does not. Only then do lines carry syslog priority prefixes.
public enum JournalStream {
  public static func readsStandardError(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    guard let value = environment["JOURNAL_STREAM"] else { return false }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
    var info = stat()
    guard fstat(2, &info) == 0 else { return false }
    return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
  }
}

/// Writes to file descriptor 2 that fail softly: FileHandle traps on a write error (EPIPE when the reader of a
/// piped stderr went away), and a daemon must not die, or stop, because nobody reads its log.
public enum StandardError {
  public static func write(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { buffer in systemWrite(2, buffer.baseAddress, buffer.count) }
      if written > 0 {
        bytes = bytes.dropFirst(written)
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return  // EPIPE, EBADF, a full disk…: the line is lost, the daemon goes on
      }
    }
  }

  /// `SIGPIPE` would kill the process on a write to a closed pipe or socket; ignored, the write fails with
  /// EPIPE instead, which every writer here handles.
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }
}

/// Conditions that make the daemon unhealthy (`/readyz` 503, `healthy: false`), each keyed by its source so
/// it clears itself when that source works again.
package final class HealthBoard: Sendable {
  /// A read of the runs database failed (cleared once the whole file checks out again).
  package static let storeReads = "store reads"

  private let problems = Locked<[String: String]>([:])

  package init() {}

  package func has(_ key: String) -> Bool { problems.withLock { $0[key] != nil } }

  package func set(_ key: String, _ problem: String?) {
    problems.withLock { $0[key] = problem }
  }

  package var current: [String] {
    problems.withLock { table in table.keys.sorted().compactMap { table[$0] } }
  }
  package var isHealthy: Bool { problems.withLock { $0.isEmpty } }
}
