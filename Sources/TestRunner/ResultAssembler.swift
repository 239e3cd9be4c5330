import Foundation

/// Attributes parsed tests to the test targets of one package run, for every backend: SwiftPM's console
/// output and xunit files, xcodebuild's result bundle (as `xcresulttool` prints it). Pure.
///
/// XCTest on Linux prints `Class.test` without the module, and Swift Testing's console output names
/// neither module nor suite, so `swift test list` (identifiers `Target.Class/test`,
/// `Target.Suite/test()`) tells which target a class or test belongs to. Swift Testing results come
/// from its xunit file when there is one (module-qualified), with file:line taken from the console.
///
/// A target's duration is the wall time its tests were running: from the first start to the last end
/// on the console's timeline (see `ConsoleParser`), not the sum of its tests' times.
public struct ResultAssembler: Sendable {
  /// Targets whose results are wanted; empty: every target (a run-all package).
  public var selectedTargets: [String]
  /// `swift test list` identifiers.
  public var listedTests: [String]

  public init(selectedTargets: [String], listedTests: [String]) {
    self.selectedTargets = selectedTargets
    self.listedTests = listedTests
  }

  /// Builds per-target results from the console output and the Swift Testing xunit results (nil when
  /// the file was missing or unreadable).
  public func assemble(console: String, swiftTestingXunit: [ParsedTest]?) -> [TargetResult] {
    let consoleTests = ConsoleParser.parse(console)
    var byTarget: [String: [ParsedTest]] = [:]
    for test in consoleTests where test.framework == .xctest {
      byTarget[target(for: test), default: []].append(test)
    }
    if let xunit = swiftTestingXunit {
      // The console names a Swift Testing test without its suite: same-named tests are matched in order.
      var locatedFailures: [String: [[TestFailure]]] = [:]
      var timelines: [String: [ClosedRange<Double>]] = [:]
      for test in consoleTests where test.framework == .swiftTesting {
        if test.status == .failed { locatedFailures[test.name, default: []].append(test.failures) }
        if let timeline = test.timeline { timelines[test.name, default: []].append(timeline) }
      }
      for var test in xunit {
        if test.status == .failed, var queue = locatedFailures[test.name], !queue.isEmpty {
          test.failures = queue.removeFirst()
          locatedFailures[test.name] = queue
        }
        if test.status != .skipped, var queue = timelines[test.name], !queue.isEmpty {
          test.timeline = queue.removeFirst()
          timelines[test.name] = queue
        }
        byTarget[target(for: test), default: []].append(test)
      }
    } else {
      for test in consoleTests where test.framework == .swiftTesting {
        var test = test
        let (target, suite) = swiftTestingOwner(name: test.name)
        test.module = target
        test.suite = suite
        byTarget[target ?? fallbackTarget, default: []].append(test)
      }
    }
    return selected(
      byTarget.map { name, tests in
        TargetResult(
          name: name, tests: tests.map(result).sorted { ($0.suite, $0.name) < ($1.suite, $1.name) },
          duration: Self.wallTime(of: tests))
      })
  }

  /// Per-target results from the JSON of `xcresulttool get test-results tests` (`XCResultParser`).
  public func assemble(xcresult: Data) throws(XCResultParser.Malformed) -> [TargetResult] {
    selected(try XCResultParser.parse(xcresult))
  }

  /// The selected targets (all when none is), a selected target without results given none, by name.
  func selected(_ targets: [TargetResult]) -> [TargetResult] {
    let wanted = Set(selectedTargets)
    var results = targets.filter { wanted.isEmpty || wanted.contains($0.name) }
    let present = Set(results.map(\.name))
    for name in wanted where !present.contains(name) { results.append(TargetResult(name: name, tests: [])) }
    return results.sorted { $0.name < $1.name }
  }

  /// First start to last end of the tests on the console's timeline; nil when none has a place on it.
  static func wallTime(of tests: [ParsedTest]) -> Double? {
    let timelines = tests.compactMap(\.timeline)
    guard let start = timelines.map(\.lowerBound).min(), let end = timelines.map(\.upperBound).max() else {
      return nil
    }
    return end - start
  }

  /// Full identifiers of the listed tests, split as (target, rest).
  private var listed: [(target: String, rest: String)] {
    listedTests.compactMap { id in
      guard let dot = id.firstIndex(of: ".") else { return nil }
      return (String(id[..<dot]), String(id[id.index(after: dot)...]))
    }
  }

  private var fallbackTarget: String {
    selectedTargets.count == 1 ? selectedTargets[0] : "(unknown target)"
  }

  func target(for test: ParsedTest) -> String {
    if let module = test.module { return module }
    let suite = test.suite ?? ""
    let candidates = Set(listed.filter { $0.rest.hasPrefix(suite + "/") }.map(\.target))
    if candidates.count == 1 { return candidates.first! }
    if let selected = selectedTargets.sorted().first(where: candidates.contains) { return selected }
    return candidates.sorted().first ?? fallbackTarget
  }

  /// For a Swift Testing console name (`adds()`): the listed target and suite, when unambiguous.
  func swiftTestingOwner(name: String) -> (String?, String) {
    let matches = listed.filter { $0.rest == name || $0.rest.hasSuffix("/" + name) }
    guard matches.count == 1, let match = matches.first else { return (nil, "") }
    let suite = match.rest.hasSuffix("/" + name) ? String(match.rest.dropLast(name.count + 1)) : ""
    return (match.target, suite)
  }

  /// The target of a test seen live on the console (no xunit file yet).
  func liveTarget(for test: ParsedTest) -> String {
    guard test.framework == .swiftTesting, test.module == nil else { return target(for: test) }
    return swiftTestingOwner(name: test.name).0 ?? fallbackTarget
  }

  func result(_ test: ParsedTest) -> TestCaseResult {
    TestCaseResult(
      suite: test.suite ?? "", name: test.name, framework: test.framework, status: test.status,
      duration: test.duration, failures: test.failures, skipReason: test.skipReason)
  }
}
