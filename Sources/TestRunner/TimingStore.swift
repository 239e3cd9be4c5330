import Foundation

/// Recorded durations per test target, used to balance shards.
///
/// On disk (`<repo>/.build/ripple/timings.json` by default):
/// `{"schemaVersion": 1, "packages": {".": {"CoreTests": 1.25}}}`, seconds per test target; a
/// package run without a filter is stored under the target name `*`.
public struct TimingHistory: Sendable, Codable, Hashable {
  public var schemaVersion: Int
  public var packages: [String: [String: Double]]

  public init(packages: [String: [String: Double]] = [:]) {
    self.schemaVersion = 1
    self.packages = packages
  }

  public func duration(of unit: TestUnit) -> Double? {
    packages[unit.package]?[unit.target ?? "*"]
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

  /// Records the duration of every target that ran (build failures and cancelled packages are not timed).
  public mutating func record(_ result: TestRunResult) {
    for package in result.packages where package.status == .passed || package.status == .failed {
      for target in package.targets where target.testCount > 0 {
        record(target.duration, for: TestUnit(package: package.path, target: target.name))
      }
    }
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
