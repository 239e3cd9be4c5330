import Foundation
import RippleCore

/// Recorded durations per test target and per suite, used to balance shards.
///
/// On disk (`<repo>/.build/ripple/timings.json` by default):
/// `{"schemaVersion": 1, "packages": {".": {"CoreTests": 1.25}},
///   "suites": {".": {"CoreTests": {"MathTests": 1.0, "ParserTests": 0.25}}}}`: seconds per test target (a
/// package run without a filter is stored under the target name `*`) and per top-level suite (an XCTest
/// class, a Swift Testing suite type) and per test (`tests`: `Suite/test()` as `swift test` names it after
/// `Target.`, what splits a suite between shards). `suites` and `tests` were added later: a file without them
/// reads as no such history, and older Ripples ignore them.
public struct TimingHistory: Sendable, Codable, Hashable {
  public var schemaVersion: Int
  public var packages: [String: [String: Double]]
  /// package → target → top-level suite → seconds: the suite's share of its target's wall time.
  public var suites: [String: [String: [String: Double]]]
  /// package → target → `Suite/test()` → seconds, scaled like the suites' (`suiteTimes`).
  public var tests: [String: [String: [String: Double]]]
  /// The newest run of the whole suite on this machine (every test target, nothing cached, unsharded, passed):
  /// what a run's savings are measured against when the team's history holds none newer.
  public var fullRun: MeasuredFullRun?

  public init(
    packages: [String: [String: Double]] = [:], suites: [String: [String: [String: Double]]] = [:],
    tests: [String: [String: [String: Double]]] = [:]
  ) {
    self.schemaVersion = 1
    self.packages = packages
    self.suites = suites
    self.tests = tests
  }

  private enum CodingKeys: String, CodingKey { case schemaVersion, packages, suites, tests, fullRun }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
    packages = try c.decode([String: [String: Double]].self, forKey: .packages)
    suites = try c.decodeIfPresent([String: [String: [String: Double]]].self, forKey: .suites) ?? [:]
    tests = try c.decodeIfPresent([String: [String: [String: Double]]].self, forKey: .tests) ?? [:]
    fullRun = try? c.decodeIfPresent(MeasuredFullRun.self, forKey: .fullRun)
  }

  public func duration(of unit: TestUnit) -> Double? {
    packages[unit.package]?[unit.target ?? "*"]
  }

  /// Recorded seconds per top-level suite of a test target; empty for a whole package or no history.
  public func suiteDurations(of unit: TestUnit) -> [String: Double] {
    guard let target = unit.target else { return [:] }
    return suites[unit.package]?[target] ?? [:]
  }

  /// Recorded seconds per test of a target, by top-level suite (what `SuiteShardPlanner.Unit.tests` takes).
  public func testDurations(of unit: TestUnit) -> [String: [String: Double]] {
    guard let target = unit.target, let times = tests[unit.package]?[target] else { return [:] }
    return Self.bySuite(times)
  }

  /// `Suite/test()` → seconds grouped by top-level suite; suite-less tests have no group.
  public static func bySuite(_ times: [String: Double]) -> [String: [String: Double]] {
    var out: [String: [String: Double]] = [:]
    for (test, seconds) in times {
      guard let slash = test.firstIndex(of: "/") else { continue }
      out[topLevelSuite(String(test[..<slash])), default: [:]][test] = seconds
    }
    return out
  }

  /// The recorded test time of `units` added up (one after another, builds left out): a unit without a record
  /// weighs the median of the recorded ones. nil when none of them has a record.
  public func estimate(_ units: [TestUnit]) -> Double? {
    let known = units.compactMap { duration(of: $0) }
    guard !known.isEmpty else { return nil }
    let sorted = known.sorted()
    let median =
      sorted.count.isMultiple(of: 2)
      ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
    return units.reduce(0) { $0 + (duration(of: $1) ?? median) }
  }

  public mutating func record(_ seconds: Double, for unit: TestUnit) {
    packages[unit.package, default: [:]][unit.target ?? "*"] = seconds
  }

  /// Records the duration of every target that ran, and of its suites and tests (build failures and
  /// cancelled packages are not timed). `scopes`: the targets that ran only in part (a shard of a split target,
  /// `SuiteScope`), keyed by `package:Target`: their tests' times are updated, and the times of the suites
  /// that ran whole, not their total; a suite a scope named that ran no test is forgotten (renamed or
  /// removed). A target that ran whole has its suite and test records replaced, so removed ones go with it.
  public mutating func record(_ result: TestRunResult, scopes: [String: SuiteScope] = [:]) {
    for package in result.packages where package.status == .passed || package.status == .failed {
      for target in package.targets where target.testCount > 0 {
        let unit = TestUnit(package: package.path, target: target.name)
        let times = Self.suiteTimes(target)
        let testTimes = Self.testTimes(target)
        guard let scope = scopes[unit.id] else {
          record(target.duration, for: unit)
          suites[package.path, default: [:]][target.name] = times.isEmpty ? nil : times
          tests[package.path, default: [:]][target.name] = testTimes.isEmpty ? nil : testTimes
          continue
        }
        var known = suites[package.path]?[target.name] ?? [:]
        switch scope {
        case .only(let named):
          for name in named where !name.contains("/") {
            known[name] = times[name]
          }
        case .allBut(let named):
          // A suite that lost some of its tests to other shards ran in part here.
          let partial = Set(named.map { Self.topLevelSuite(String($0.prefix { $0 != "/" })) })
          known.merge(times.filter { !partial.contains($0.key) }) { _, new in new }
        }
        suites[package.path, default: [:]][target.name] = known.isEmpty ? nil : known
        var knownTests = tests[package.path]?[target.name] ?? [:]
        if case .only(let named) = scope {
          for name in named where name.contains("/") && testTimes[name] == nil { knownTests[name] = nil }
        }
        knownTests.merge(testTimes) { _, new in new }
        tests[package.path, default: [:]][target.name] = knownTests.isEmpty ? nil : knownTests
      }
    }
    // A shard whose named suites all ran nothing: they are gone from the package.
    for package in result.packages where package.status != .buildFailed && package.status != .cancelled {
      for (id, scope) in scopes {
        guard case .only(let named) = scope, id.hasPrefix(package.path + ":") else { continue }
        let target = String(id.dropFirst(package.path.count + 1))
        guard !package.targets.contains(where: { $0.name == target && $0.testCount > 0 }) else { continue }
        for name in named {
          suites[package.path]?[target]?[name] = nil
          tests[package.path]?[target]?[name] = nil
        }
        if suites[package.path]?[target]?.isEmpty == true { suites[package.path]?[target] = nil }
        if tests[package.path]?[target]?.isEmpty == true { tests[package.path]?[target] = nil }
      }
    }
  }

  /// A target's seconds per top-level suite (`Outer` for `Outer.Inner` and `Outer/Inner`): its tests'
  /// durations added up, scaled to the target's wall time (Swift Testing runs tests in parallel, so the
  /// sum can exceed it). Suite-less tests (free Swift Testing functions) count in the scale but have no
  /// entry: they are the target's remainder.
  public static func suiteTimes(_ target: TargetResult) -> [String: Double] {
    var sums: [String: Double] = [:]
    var total = 0.0
    for test in target.tests where !test.name.hasPrefix("(") {
      total += test.duration
      let suite = topLevelSuite(test.suite)
      if !suite.isEmpty { sums[suite, default: 0] += test.duration }
    }
    guard total > 0, target.duration > 0 else { return sums }
    let scale = target.duration / total
    return sums.mapValues { $0 * scale }
  }

  /// A target's seconds per test (`Suite/test()`, suite-less tests by name), scaled as `suiteTimes` scales.
  public static func testTimes(_ target: TargetResult) -> [String: Double] {
    let real = target.tests.filter { !$0.name.hasPrefix("(") }
    let total = real.reduce(0) { $0 + $1.duration }
    let scale = total > 0 && target.duration > 0 ? target.duration / total : 1
    var out: [String: Double] = [:]
    for test in real { out[test.qualifiedName] = test.duration * scale }
    return out
  }

  /// `Outer` of `Outer`, `Outer.Inner` or `Outer/Inner`; "" for a test without a suite.
  public static func topLevelSuite(_ suite: String) -> String {
    String(suite.prefix { $0 != "." && $0 != "/" })
  }
}

/// Loads and saves a `TimingHistory` file. A missing file is an empty history; a corrupt one is
/// ignored with a warning (it only affects shard balance, never which tests run).
public struct TimingStore: Sendable {
  public var path: String

  public init(path: String) {
    self.path = path
  }

  /// The history and, when the file was unreadable, a warning to show.
  public func load() -> (history: TimingHistory, warning: String?) {
    guard FileManager.default.fileExists(atPath: path) else { return (TimingHistory(), nil) }
    do {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      let history = try JSONDecoder().decode(TimingHistory.self, from: data)
      guard history.schemaVersion == 1 else {
        return (TimingHistory(), "ignoring timing history \(path): unknown schemaVersion \(history.schemaVersion)")
      }
      return (history, nil)
    } catch {
      return (TimingHistory(), "ignoring unreadable timing history \(path) (it will be rewritten): \(error)")
    }
  }

  /// Writes atomically (a temporary file renamed over the old one), creating the directory.
  public func save(_ history: TimingHistory) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(history).write(to: url, options: .atomic)
  }
}

/// A run of the whole suite: its wall-clock time and build part, when and by what.
public struct MeasuredFullRun: Sendable, Codable, Hashable {
  public var seconds: Double
  public var buildSeconds: Double
  public var time: Date
  public var run: String

  public init(seconds: Double, buildSeconds: Double, time: Date, run: String) {
    self.seconds = seconds
    self.buildSeconds = buildSeconds
    self.time = time
    self.run = run
  }

  /// Its test phase: the wall-clock time less the builds.
  public var testSeconds: Double { max(0, seconds - buildSeconds) }
}
