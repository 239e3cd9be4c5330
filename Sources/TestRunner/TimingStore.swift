import Foundation
import RippleCore

/// Recorded durations per test target and per suite, used to balance shards.
///
/// On disk (`<repo>/.build/ripple/timings.json` by default):
/// `{"schemaVersion": 1, "packages": {".": {"CoreTests": 1.25}},
///   "suites": {".": {"CoreTests": {"MathTests": 1.0, "ParserTests": 0.25}}}}`: seconds per test target (a
/// package run without a filter is stored under the target name `*`) and per top-level suite (an XCTest
/// class, a Swift Testing suite type). `suites` was added later: a file without it reads as no suite
/// history, and older Ripples ignore it.
public struct TimingHistory: Sendable, Codable, Hashable {
  public var schemaVersion: Int
  public var packages: [String: [String: Double]]
  /// package → target → top-level suite → seconds: the suite's share of its target's wall time.
  public var suites: [String: [String: [String: Double]]]

  public init(packages: [String: [String: Double]] = [:], suites: [String: [String: [String: Double]]] = [:]) {
    self.schemaVersion = 1
    self.packages = packages
    self.suites = suites
  }

  private enum CodingKeys: String, CodingKey { case schemaVersion, packages, suites }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
    packages = try c.decode([String: [String: Double]].self, forKey: .packages)
    suites = try c.decodeIfPresent([String: [String: [String: Double]]].self, forKey: .suites) ?? [:]
  }

  public func duration(of unit: TestUnit) -> Double? {
    packages[unit.package]?[unit.target ?? "*"]
  }

  /// Recorded seconds per top-level suite of a test target; empty for a whole package or no history.
  public func suiteDurations(of unit: TestUnit) -> [String: Double] {
    guard let target = unit.target else { return [:] }
    return suites[unit.package]?[target] ?? [:]
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

  /// Records the duration of every target that ran, and of its suites (build failures and cancelled
  /// packages are not timed). `scopes`: the targets that ran only in part (a shard of a split target,
  /// `SuiteScope`), keyed by `package:Target`: their suites' times are updated, not their total; a suite
  /// a scope named that ran no test is forgotten (renamed or removed). A target that ran whole has its
  /// suite record replaced, so removed suites go with it.
  public mutating func record(_ result: TestRunResult, scopes: [String: SuiteScope] = [:]) {
    for package in result.packages where package.status == .passed || package.status == .failed {
      for target in package.targets where target.testCount > 0 {
        let unit = TestUnit(package: package.path, target: target.name)
        let times = Self.suiteTimes(target)
        guard let scope = scopes[unit.id] else {
          record(target.duration, for: unit)
          suites[package.path, default: [:]][target.name] = times.isEmpty ? nil : times
          continue
        }
        var known = suites[package.path]?[target.name] ?? [:]
        if case .only(let named) = scope {
          for name in named where times[name] == nil { known[name] = nil }
        }
        known.merge(times) { _, new in new }
        suites[package.path, default: [:]][target.name] = known.isEmpty ? nil : known
      }
    }
    // A shard whose named suites all ran nothing: they are gone from the package.
    for package in result.packages where package.status != .buildFailed && package.status != .cancelled {
      for (id, scope) in scopes {
        guard case .only(let named) = scope, id.hasPrefix(package.path + ":") else { continue }
        let target = String(id.dropFirst(package.path.count + 1))
        guard !package.targets.contains(where: { $0.name == target && $0.testCount > 0 }) else { continue }
        for name in named { suites[package.path]?[target]?[name] = nil }
        if suites[package.path]?[target]?.isEmpty == true { suites[package.path]?[target] = nil }
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
