/// A test result as read from `swift test`'s console output or xunit file, before it is attributed to
/// a test target.
public struct ParsedTest: Sendable, Hashable {
  public var framework: TestFramework
  /// The module when the source names it (macOS XCTest, Swift Testing xunit), else nil.
  public var module: String?
  /// XCTest class or Swift Testing suite path; nil when the source does not say (Swift Testing console).
  public var suite: String?
  public var name: String
  public var status: TestCaseResult.Status
  public var duration: Double
  public var failures: [TestFailure]
  public var skipReason: String?
  /// When the test ran, in seconds on the timeline `ConsoleParser` rebuilds from the order of the
  /// console lines; nil when unknown (an xunit result, a Swift Testing test that never started).
  public var timeline: ClosedRange<Double>?

  public init(
    framework: TestFramework, module: String? = nil, suite: String?, name: String, status: TestCaseResult.Status,
    duration: Double = 0, failures: [TestFailure] = [], skipReason: String? = nil,
    timeline: ClosedRange<Double>? = nil
  ) {
    self.framework = framework
    self.module = module
    self.suite = suite
    self.name = name
    self.status = status
    self.duration = duration
    self.failures = failures
    self.skipReason = skipReason
    self.timeline = timeline
  }
}

/// Reads `swift test` console output line by line: XCTest (`Test Case 'C.t' passed (0.001 seconds)`,
/// or `'-[M.C t]'` on macOS) and Swift Testing (`✔ Test t() passed after 0.001 seconds.`).
///
/// Feed lines in order; a finished test comes back from `consume` as soon as its last line is seen,
/// so the same parser serves live progress and the final result.
///
/// Each test also gets a place on a timeline (`ParsedTest.timeline`), as the output has no clock: a
/// test starts when its "started" line comes, at the latest end of the tests finished before that
/// line, and ends its reported duration later. Serial XCTest tests then follow one another; Swift
/// Testing tests started together overlap, so a target's wall time is not the sum of its tests' times
/// (which, for tests run in parallel, each include the time spent waiting for a thread).
public struct ConsoleParser: Sendable {
  /// XCTest failures seen for a test (by its quoted identifier) before its `failed` line.
  private var pendingXCTestFailures: [String: [TestFailure]] = [:]
  private var pendingXCTestSkips: [String: String] = [:]
  /// Swift Testing issues by test name, until the test's `failed` line.
  private var pendingIssues: [String: [TestFailure]] = [:]
  /// The test whose issue may continue on `↳` lines.
  private var lastIssueName: String?
  /// "Test run with N tests …" lines seen (Swift Testing's own count).
  public private(set) var swiftTestingRunTotals: [Int] = []
  /// The latest end, on the timeline, of the tests finished so far.
  private var horizon: Double = 0
  /// Timeline starts of running XCTest tests, by quoted identifier.
  private var xctestStarts: [String: Double] = [:]
  /// Timeline starts of running Swift Testing tests, by name (oldest first: names may repeat across suites).
  private var swiftTestingStarts: [String: [Double]] = [:]

  public init() {}

  /// Parses a whole output at once.
  public static func parse(_ output: String) -> [ParsedTest] {
    var parser = ConsoleParser()
    var tests: [ParsedTest] = []
    output.enumerateLinesCompat { line in
      if let test = parser.consume(line: line) { tests.append(test) }
    }
    return tests
  }

  /// Tests that printed their "started" line and never ended, as the console names them (`BCase.testLeaves`,
  /// `-[Mod.BCase testLeaves]`, `adds()`): what was running when a test process ended early.
  public var unfinished: [String] {
    (Array(xctestStarts.keys) + swiftTestingStarts.filter { !$0.value.isEmpty }.map(\.key)).sorted()
  }

  /// The tests of a whole output that started and never ended.
  public static func unfinished(in output: String) -> [String] {
    var parser = ConsoleParser()
    output.enumerateLinesCompat { _ = parser.consume(line: $0) }
    return parser.unfinished
  }

  /// Swift Testing issues recorded but not (yet) attached to a finished test, by test name.
  public var unattachedIssues: [String: [TestFailure]] { pendingIssues }

  public mutating func consume(line rawLine: String) -> ParsedTest? {
    // Swift Testing stops writing a message at a NUL byte and goes on with its next event on the same line
    // (`↳ a✘ Test nulMessage() failed after …`): each event is read as a line of its own.
    let segments = Self.swiftTestingEvents(in: rawLine)
    guard segments.count == 1 else {
      var last: ParsedTest?
      for segment in segments { last = consumeOne(line: segment) ?? last }
      return last
    }
    return consumeOne(line: rawLine)
  }

  /// The markers Swift Testing starts an event line with.
  static let swiftTestingMarkers = ["◇ Test ", "✔ Test ", "✘ Test ", "➜ Test ", "◇ Suite ", "✔ Suite ", "✘ Suite "]

  /// `line` cut before every Swift Testing event marker that is not at its start.
  static func swiftTestingEvents(in line: String) -> [String] {
    var cuts: [String.Index] = []
    for marker in swiftTestingMarkers {
      var from = line.startIndex
      while let range = line.range(of: marker, range: from..<line.endIndex) {
        if range.lowerBound != line.startIndex { cuts.append(range.lowerBound) }
        from = range.upperBound
      }
    }
    guard !cuts.isEmpty else { return [line] }
    var segments: [String] = []
    var start = line.startIndex
    for cut in cuts.sorted() {
      segments.append(String(line[start..<cut]))
      start = cut
    }
    segments.append(String(line[start...]))
    return segments
  }

  private mutating func consumeOne(line rawLine: String) -> ParsedTest? {
    let line = rawLine.trimmingTrailingWhitespace()
    if line.hasPrefix("Test Case '") { return xctestCase(line) }
    if xctestIssue(line) { return nil }
    return swiftTesting(line)
  }

  // MARK: XCTest

  private mutating func xctestCase(_ line: String) -> ParsedTest? {
    let body = line.dropFirst("Test Case '".count)
    guard let close = body.range(of: "' ") else { return nil }
    let identifier = String(body[..<close.lowerBound])
    let rest = body[close.upperBound...]
    let status: TestCaseResult.Status
    if rest.hasPrefix("started") {
      xctestStarts[identifier] = horizon
      return nil
    }
    if rest.hasPrefix("passed") {
      status = .passed
    } else if rest.hasPrefix("failed") {
      status = .failed
    } else if rest.hasPrefix("skipped") {
      status = .skipped
    } else {
      return nil
    }
    let seconds = rest.between("(", " second").flatMap { Double($0) } ?? 0
    let (module, suite, name) = Self.splitXCTestIdentifier(identifier)
    var failures = pendingXCTestFailures.removeValue(forKey: identifier) ?? []
    if status == .failed && failures.isEmpty { failures = [TestFailure(message: "failed")] }
    return ParsedTest(
      framework: .xctest, module: module, suite: suite, name: name, status: status, duration: seconds,
      failures: status == .failed ? failures : [], skipReason: pendingXCTestSkips.removeValue(forKey: identifier),
      timeline: finish(startedAt: xctestStarts.removeValue(forKey: identifier), seconds: seconds))
  }

  /// Places a finished test on the timeline (no "started" line seen: it started when the last one ended).
  private mutating func finish(startedAt start: Double?, seconds: Double) -> ClosedRange<Double> {
    let start = start ?? horizon
    let end = start + max(0, seconds)
    horizon = max(horizon, end)
    return start...end
  }

  /// `path:12: error: C.t : message` and `path:12: C.t : Test skipped - reason`; true when consumed.
  private mutating func xctestIssue(_ line: String) -> Bool {
    if let errorRange = line.range(of: ": error: ") {
      let location = line[..<errorRange.lowerBound]
      let rest = line[errorRange.upperBound...]
      guard let separator = rest.range(of: " : ") else { return false }
      let identifier = String(rest[..<separator.lowerBound])
      guard Self.looksLikeXCTestIdentifier(identifier) else { return false }
      let (file, lineNumber) = Self.splitLocation(location)
      pendingXCTestFailures[identifier, default: []].append(
        TestFailure(message: String(rest[separator.upperBound...]), file: file, line: lineNumber))
      return true
    }
    if let skipRange = line.range(of: " : Test skipped") {
      let head = line[..<skipRange.lowerBound]
      guard let split = head.range(of: ": ", options: .backwards) else { return false }
      let identifier = String(head[split.upperBound...])
      var reason = String(line[skipRange.upperBound...])
      if reason.hasPrefix(" - ") { reason.removeFirst(3) }
      pendingXCTestSkips[identifier] = reason.isEmpty ? nil : reason
      return true
    }
    return false
  }

  static func looksLikeXCTestIdentifier(_ text: String) -> Bool {
    !text.contains(" ") || (text.hasPrefix("-[") && text.hasSuffix("]"))
  }

  /// `-[Mod.Class test]` → (Mod, Class, test); `Class.test` → (nil, Class, test).
  static func splitXCTestIdentifier(_ identifier: String) -> (String?, String, String) {
    if identifier.hasPrefix("-["), identifier.hasSuffix("]") {
      let inner = identifier.dropFirst(2).dropLast()
      let parts = inner.split(separator: " ", maxSplits: 1)
      let qualified = String(parts.first ?? "")
      let name = parts.count > 1 ? String(parts[1]) : ""
      if let dot = qualified.firstIndex(of: ".") {
        return (String(qualified[..<dot]), String(qualified[qualified.index(after: dot)...]), name)
      }
      return (nil, qualified, name)
    }
    guard let dot = identifier.lastIndex(of: ".") else { return (nil, "", identifier) }
    let suite = String(identifier[..<dot])
    let name = String(identifier[identifier.index(after: dot)...])
    if let moduleDot = suite.firstIndex(of: ".") {
      return (String(suite[..<moduleDot]), String(suite[suite.index(after: moduleDot)...]), name)
    }
    return (nil, suite, name)
  }

  /// `path/File.swift:12` or `File.swift:12:5` → (path, 12).
  static func splitLocation(_ text: Substring) -> (String?, Int?) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    var numbers: [Int] = []
    var end = parts.endIndex
    while end > parts.startIndex, let n = Int(parts[end - 1]), numbers.count < 2 {
      numbers.insert(n, at: 0)
      end -= 1
    }
    let file = parts[parts.startIndex..<end].joined(separator: ":")
    return (file.isEmpty ? nil : file, numbers.first)
  }

  // MARK: Swift Testing

  private mutating func swiftTesting(_ line: String) -> ParsedTest? {
    guard let space = line.firstIndex(of: " ") else { return nil }
    let body = line[line.index(after: space)...]
    if body.hasPrefix("↳ ") || line.hasPrefix("↳ ") {
      if let name = lastIssueName, var issues = pendingIssues[name], !issues.isEmpty {
        let detail = line.hasPrefix("↳ ") ? line.dropFirst(2) : body.dropFirst(2)
        issues[issues.count - 1].message += "\n" + detail
        pendingIssues[name] = issues
      }
      return nil
    }
    lastIssueName = nil
    guard body.hasPrefix("Test ") else { return nil }
    let rest = body.dropFirst("Test ".count)
    if rest.hasPrefix("run with ") {
      if let count = rest.dropFirst("run with ".count).split(separator: " ").first.flatMap({ Int($0) }) {
        swiftTestingRunTotals.append(count)
      }
      return nil
    }
    if rest.hasPrefix("case ") { return nil }
    if let range = rest.range(of: " recorded an issue") ?? rest.range(of: " recorded a known issue") {
      let name = String(rest[..<range.lowerBound])
      guard !rest[range].contains("known") else { return nil }
      let after = rest[range.upperBound...]
      var failure = TestFailure(message: String(after).trimmingCharacters(in: .whitespaces))
      if let at = after.range(of: " at "), let colon = after[at.upperBound...].range(of: ": ") {
        let (file, lineNumber) = Self.splitLocation(after[at.upperBound..<colon.lowerBound])
        failure = TestFailure(message: String(after[colon.upperBound...]), file: file, line: lineNumber)
      }
      pendingIssues[name, default: []].append(failure)
      lastIssueName = name
      return nil
    }
    if let range = rest.range(of: " passed after ") {
      return finishSwiftTest(name: rest[..<range.lowerBound], status: .passed, timing: rest[range.upperBound...])
    }
    if let range = rest.range(of: " failed after ") {
      return finishSwiftTest(name: rest[..<range.lowerBound], status: .failed, timing: rest[range.upperBound...])
    }
    if rest.hasSuffix(" started."), rest != "run started." {
      swiftTestingStarts[String(rest.dropLast(" started.".count)), default: []].append(horizon)
      return nil
    }
    if let range = rest.range(of: " skipped") {
      var reason = String(rest[range.upperBound...])
      if reason.hasPrefix(": ") { reason = String(reason.dropFirst(2)) }
      if reason.hasSuffix(".") { reason.removeLast() }
      if reason.hasPrefix("\""), reason.hasSuffix("\""), reason.count >= 2 {
        reason = String(reason.dropFirst().dropLast())
      }
      return ParsedTest(
        framework: .swiftTesting, suite: nil, name: String(rest[..<range.lowerBound]), status: .skipped,
        skipReason: reason.isEmpty ? nil : reason)
    }
    return nil
  }

  private mutating func finishSwiftTest(name rawName: Substring, status: TestCaseResult.Status, timing: Substring)
    -> ParsedTest
  {
    var name = String(rawName)
    if let cases = name.range(of: " with ", options: .backwards),
      name[cases.upperBound...].hasSuffix(" test cases")
        || name[cases.upperBound...].hasSuffix(" test case")
    {
      name = String(name[..<cases.lowerBound])
    }
    let seconds = timing.split(separator: " ").first.flatMap { Double($0) } ?? 0
    var failures = pendingIssues.removeValue(forKey: name) ?? []
    if status == .failed && failures.isEmpty { failures = [TestFailure(message: "failed")] }
    var start: Double?
    if var starts = swiftTestingStarts[name], !starts.isEmpty {
      start = starts.removeFirst()
      swiftTestingStarts[name] = starts.isEmpty ? nil : starts
    }
    return ParsedTest(
      framework: .swiftTesting, suite: nil, name: name, status: status, duration: seconds,
      failures: status == .failed ? failures : [], timeline: finish(startedAt: start, seconds: seconds))
  }
}

extension String {
  func trimmingTrailingWhitespace() -> String {
    var s = Substring(self)
    while let last = s.last, last.isWhitespace { s = s.dropLast() }
    return String(s)
  }

  /// Line enumeration that treats "\r\n" and "\n" alike.
  func enumerateLinesCompat(_ body: (String) -> Void) {
    for line in split(separator: "\n", omittingEmptySubsequences: false) { body(String(line)) }
  }
}

extension Substring {
  func between(_ open: String, _ close: String) -> String? {
    guard let a = range(of: open), let b = self[a.upperBound...].range(of: close) else { return nil }
    return String(self[a.upperBound..<b.lowerBound])
  }
}
