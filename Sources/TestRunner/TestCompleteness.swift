import Foundation
import SystemClients

/// The tests one attempt's `swift test` is expected to report: the identifiers `swift test list` printed for
/// the built product (`Target.Class/test`, `Target.Outer/Inner/test()`), kept when one of the command's
/// `--filter` patterns matches them and none of its `--skip` patterns does, as SwiftPM and Swift Testing
/// apply them. Pure.
///
/// This is what lets a run tell "passed" from "never reported": a test process that crashes, calls
/// `exit(0)` or is killed leaves tests without a line, and only the list says they were there.
public struct ExpectedTests: Sendable, Hashable {
  /// Listed identifiers the command selects, in list order.
  public var identifiers: [String]

  public init(identifiers: [String]) { self.identifiers = identifiers }

  /// The listed identifiers `arguments` (a `swift test` command's) select. A pattern that is not a valid
  /// regular expression selects nothing: the command would fail, and every listed test counts as unreported.
  public init(listed: [String], arguments: [String]) {
    let (filters, skips) = Self.patterns(in: arguments)
    let filterExpressions = filters.map(Self.expression)
    let skipExpressions = skips.map(Self.expression)
    identifiers = listed.filter { id in
      let selected =
        filters.isEmpty || filterExpressions.contains { $0.map { Self.matches($0, id) } ?? false }
      return selected && !skipExpressions.contains { $0.map { Self.matches($0, id) } ?? false }
    }
  }

  /// The values of every `--filter` and `--skip` (both may repeat: SwiftPM ORs them).
  static func patterns(in arguments: [String]) -> (filters: [String], skips: [String]) {
    var filters: [String] = []
    var skips: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--", index > 0 { break }
      if argument == "--filter" || argument == "--skip", index + 1 < arguments.count {
        if argument == "--filter" { filters.append(arguments[index + 1]) } else { skips.append(arguments[index + 1]) }
        index += 2
        continue
      }
      if argument.hasPrefix("--filter=") { filters.append(String(argument.dropFirst("--filter=".count))) }
      if argument.hasPrefix("--skip=") { skips.append(String(argument.dropFirst("--skip=".count))) }
      index += 1
    }
    return (filters, skips)
  }

  private static func expression(_ pattern: String) -> NSRegularExpression? {
    try? NSRegularExpression(pattern: pattern)
  }

  private static func matches(_ expression: NSRegularExpression, _ id: String) -> Bool {
    expression.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil
  }

  /// The `(target, suite, name)` of a listed identifier, with nested suites joined by `.` as results name
  /// them (`CTests.Outer/Inner/shown()` → `CTests`, `Outer.Inner`, `shown()`).
  /// Swift Testing lists a test whose name another module's test shares with its source location:
  /// `CoreTests.value()/CoreTests.swift:4:2`; the location is not part of the name results carry.
  static func split(_ id: String) -> (target: String, suite: String, name: String) {
    guard let dot = id.firstIndex(of: ".") else { return ("", "", id) }
    let target = String(id[..<dot])
    var parts = id[id.index(after: dot)...].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    if parts.count > 1, let last = parts.last, isSourceLocation(last) { parts.removeLast() }
    let name = parts.removeLast()
    return (target, parts.joined(separator: "."), name)
  }

  /// `File.swift:4:2`.
  static func isSourceLocation(_ component: String) -> Bool {
    let pieces = component.split(separator: ":", omittingEmptySubsequences: false)
    return pieces.count == 3 && pieces[0].hasSuffix(".swift")
      && pieces.dropFirst().allSatisfy {
        !$0.isEmpty && $0.allSatisfy(\.isNumber)
      }
  }

  /// One key for a listed identifier and a reported result: `Target|Outer.Inner|name`.
  static func key(target: String, suite: String, name: String) -> String { "\(target)|\(suite)|\(name)" }
}

/// How a test process ended, as far as its output tells: what a test that never reported is told.
public struct TestProcessEnding: Sendable, Hashable {
  /// "ended with signal 4", "exited with status 0", "exited with status 1".
  public var description: String
  /// The process (or the test binary SwiftPM ran) ended by a signal.
  public var signalled: Bool

  /// The last lines the process printed before it ended (its stderr, else its stdout; at most
  /// `CrashOutput.maxLines` lines and `CrashOutput.maxBytes`), without SwiftPM's own: a crash's own message
  /// (`Fatal error: Division by zero`) is among them. Empty when it printed nothing.
  public var lastLines: [String]
  /// The line that says why the process died (`…: Fatal error: …`, `Precondition failed`, a backtrace's
  /// `Program crashed:`); nil when none of its lines does.
  public var crashLine: String?

  public init(description: String, signalled: Bool, lastLines: [String] = [], crashLine: String? = nil) {
    self.description = description
    self.signalled = signalled
    self.lastLines = lastLines
    self.crashLine = crashLine
  }

  /// What a test that was running when the process ended is told: the ending, the crash's own line, and
  /// the process's last lines below (the first line is what the markdown summary and JUnit's `message` show).
  public var crashedMessage: String {
    var message = "crashed: the test process \(description) while this test ran"
    if let crashLine { message += ": " + crashLine.trimmingCharacters(in: .whitespaces) }
    if !lastLines.isEmpty, lastLines != [crashLine] {
      message += "\nthe test process printed last:\n" + lastLines.map { "    " + $0 }.joined(separator: "\n")
    }
    return message
  }

  /// SwiftPM says `error: Process '…xctest' exited with unexpected signal code 4` when the test binary it
  /// ran died of a signal (its own exit status is then 1); a `swift test` killed itself has 128 + signal.
  public init(_ process: ProcessResult) {
    let stderr = process.errorString
    let output = CrashOutput(standardError: stderr, standardOutput: process.outputString)
    let description: String
    let signalled: Bool
    if let range = stderr.range(of: "exited with unexpected signal code ") {
      let digits = stderr[range.upperBound...].prefix { $0.isNumber }
      (description, signalled) = ("ended with signal \(digits)", true)
    } else if process.exitStatus > 128 {
      (description, signalled) = ("ended with signal \(process.exitStatus - 128)", true)
    } else {
      (description, signalled) = ("exited with status \(process.exitStatus)", false)
    }
    self.init(
      description: description, signalled: signalled, lastLines: output.lastLines, crashLine: output.crashLine)
  }
}

/// Makes every expected test end with an outcome. Pure.
///
/// A listed test the attempt selected but whose result never came is a failure, never a silent absence:
/// the test that was running when the process ended is `crashed` ("the test process ended with signal 4
/// while it ran"), every other one `didNotRun` ("did not run: the test process ended with signal 4 during
/// BTests.BCase/testLeaves"), each in its own target. `test.quarantine` covers neither (`Quarantine`).
public enum TestCompleteness {
  /// `results` with a failing entry for every test of `expected` that has none. `unfinished`: the console's
  /// tests that started and never ended (`ConsoleParser.unfinished`).
  public static func account(
    _ results: [TargetResult], expected: ExpectedTests, unfinished: [String], ending: TestProcessEnding
  ) -> [TargetResult] {
    var reported = Set<String>()
    for target in results {
      for test in target.tests {
        reported.insert(ExpectedTests.key(target: target.name, suite: test.suite, name: test.name))
      }
    }
    let missing = expected.identifiers.map(ExpectedTests.split).filter {
      !reported.contains(ExpectedTests.key(target: $0.target, suite: $0.suite, name: $0.name))
    }
    guard !missing.isEmpty else { return results }

    let running = missing.filter { isRunning($0.suite, $0.name, unfinished: unfinished) }
    let during =
      running.isEmpty
      ? "before reporting it"
      : "during "
        + running.map { "\($0.target).\($0.suite.isEmpty ? "" : "\($0.suite)/")\($0.name)" }.joined(
          separator: ", ")
    var added: [String: [TestCaseResult]] = [:]
    for test in missing {
      let crashed = running.contains { $0 == test }
      let message =
        crashed
        ? ending.crashedMessage
        : "did not run: the test process \(ending.description) \(during)"
      var result = TestCaseResult(
        suite: test.suite, name: test.name, framework: test.name.hasSuffix(")") ? .swiftTesting : .xctest,
        status: .failed, failures: [TestFailure(message: message)])
      result.unreported = crashed ? .crashed : .didNotRun
      added[test.target, default: []].append(result)
    }
    var merged = results.map { target -> TargetResult in
      guard let extra = added.removeValue(forKey: target.name) else { return target }
      return TargetResult(name: target.name, tests: target.tests + extra, duration: target.duration)
    }
    for (name, tests) in added.sorted(by: { $0.key < $1.key }) { merged.append(TargetResult(name: name, tests: tests)) }
    return merged.sorted { $0.name < $1.name }
  }

  /// Whether the console's unfinished tests include this one: XCTest names it `Class.test` (Linux) or
  /// `-[Module.Class test]` (macOS), Swift Testing by its function name (or display name, which cannot be
  /// matched and then counts as "did not run").
  static func isRunning(_ suite: String, _ name: String, unfinished: [String]) -> Bool {
    let lastSuite = suite.split(separator: ".").last.map(String.init) ?? ""
    return unfinished.contains { running in
      running == name || running == "\(suite).\(name)" || running.hasSuffix(".\(lastSuite) \(name)]")
        || running.hasSuffix(".\(suite).\(name)")
    }
  }
}

/// The last lines a dying test process printed, bounded, and the one among them that says why it died. Pure.
///
/// `swift test` prints the test binary's output and its own on its streams, with the frameworks' progress
/// (`Test Case '…' started`, `◇ Test … started`) between what the tests print: the frameworks' lines and
/// SwiftPM's (`error: Exited with unexpected signal code 4`, build lines) are left out. With a line of the
/// Swift runtime's (`B.swift:6: Fatal error: boom`) or the C library's (`Assertion … failed`), the window is
/// what the test printed just before it and what followed (a backtrace's first lines); without one, the last
/// lines printed. At most `maxLines` lines and `maxBytes` bytes.
public struct CrashOutput: Sendable, Hashable {
  public static let maxLines = 20
  public static let maxBytes = 4096
  /// What the Swift runtime and the C library print when a process traps or aborts: the message first, then
  /// (when the runtime's backtracer is on, as on Linux) `*** Program crashed: Illegal instruction ***` and frames.
  static let messageMarkers = [
    "Fatal error", "Precondition failed", "Assertion failed", "Unexpectedly found nil", "Unowned reference",
    "Assertion `", "terminate called", "Segmentation fault",
  ]
  static let backtraceMarkers = ["Program crashed:", "Illegal instruction"]

  public var lastLines: [String]
  public var crashLine: String?

  public init(standardError: String, standardOutput: String) {
    // stdout last: the order within each stream is kept, and a crash's message is the last thing printed.
    let lines = Self.ownLines(standardOutput) + Self.ownLines(standardError)
    let marker =
      lines.lastIndex { line in Self.messageMarkers.contains { line.contains($0) } }
      ?? lines.lastIndex { line in Self.backtraceMarkers.contains { line.contains($0) } }
    var window: [String]
    if let marker {
      // What the test printed just before (up to 5 lines), the message, and the start of a backtrace.
      let before = lines[..<marker].suffix(5)
      let after = Array(lines[marker...].prefix(Self.maxLines - before.count))
      window = Array(before) + after
      while window.count > 1, window.joined(separator: "\n").utf8.count > Self.maxBytes {
        if window.first != lines[marker] { window.removeFirst() } else { window.removeLast() }
      }
    } else {
      window = Array(lines.suffix(Self.maxLines))
      while window.count > 1, window.joined(separator: "\n").utf8.count > Self.maxBytes { window.removeFirst() }
    }
    lastLines = window.map { Self.clipped($0) }
    crashLine = marker.map { Self.clipped(lines[$0]) }
  }

  /// A stream's non-blank lines without the test frameworks' progress and SwiftPM's lines.
  static func ownLines(_ text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map(String.init).filter { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty { return false }
      if trimmed.hasPrefix("error: Exited with ") || trimmed.hasPrefix("error: Process '") { return false }
      if trimmed.contains("exited with unexpected signal code") { return false }
      if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]"),
        trimmed[trimmed.index(after: trimmed.startIndex)..<close].allSatisfy({ $0.isNumber || $0 == "/" })
      {
        return false
      }
      let framework = [
        "Test Suite '", "Test Case '", "Executed ", "Building for ", "Build complete!", "◇ ", "✔ ", "✘ ", "↳ ",
        "􀟈 ", "􁁛 ", "􀢄 ", "􀄵 ",
      ]
      return !framework.contains { trimmed.hasPrefix($0) }
    }
  }

  private static func clipped(_ line: String) -> String {
    line.utf8.count <= maxBytes ? line : String(decoding: Array(line.utf8.prefix(maxBytes)), as: UTF8.self) + "…"
  }
}
