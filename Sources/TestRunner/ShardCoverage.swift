import RippleCore

/// `ripple shards check`: whether the shards of one job, from their `--report-json` files, ran every planned
/// test exactly once. Pure.
///
/// A problem is each of: a report without a shard plan; plan ids that differ (the shards were planned from
/// different inputs, or by different Ripple versions); a shard with no report, or with two; a test reported by
/// two shards; a test a shard ran that its entries do not name; a planned entry that ran no test in any shard
/// (a remainder, `package:T/-S`, may rightly have none). Tests skipped for a pass record count as run by the
/// shard that skipped them.
public enum ShardCoverage {
  /// One shard's report and where it was read from.
  public struct Report: Sendable {
    public var name: String
    public var result: TestRunResult

    public init(name: String, result: TestRunResult) {
      self.name = name
      self.result = result
    }
  }

  /// What the check found: `problems` empty means every planned test ran exactly once.
  public struct Outcome: Sendable, Hashable {
    public var planID: String?
    public var shards: Int
    public var tests: Int
    public var problems: [String]

    public var rendered: String {
      guard problems.isEmpty else {
        return "shards check failed:\n" + problems.map { "  - \($0)\n" }.joined()
      }
      return "shards check passed: \(tests) test\(tests == 1 ? "" : "s") in \(shards) shard\(shards == 1 ? "" : "s") "
        + "of plan \(planID ?? "?"), each run exactly once\n"
    }
  }

  public static func check(_ reports: [Report]) -> Outcome {
    var problems: [String] = []
    let stamped = reports.compactMap { report in report.result.shardPlan.map { (report.name, $0) } }
    for report in reports where report.result.shardPlan == nil {
      problems.append(
        "\(report.name) names no shard plan: it is not the report of a `ripple test --shard I/N` run, or an older "
          + "Ripple wrote it")
    }
    guard let first = stamped.first?.1 else {
      return Outcome(planID: nil, shards: 0, tests: 0, problems: problems + ["no shard report to check"])
    }
    let ids = Set(stamped.map(\.1.id))
    guard ids.count == 1 else {
      let lines = stamped.map {
        "\($0.0): shard \($0.1.index)/\($0.1.count) of plan \($0.1.id) (ripple \($0.1.rippleVersion))"
      }
      problems.append(
        "the shards ran different plans, so nothing proves each test ran once (shards of one job were planned from "
          + "different inputs or by different Ripple versions; give every shard one plan with --plan FILE): "
          + lines.joined(separator: "; "))
      return Outcome(planID: nil, shards: stamped.count, tests: 0, problems: problems)
    }
    let count = first.count
    let byIndex = Dictionary(grouping: stamped, by: \.1.index)
    for index in 1...max(1, count) {
      let entries = index <= first.shards.count ? first.shards[index - 1] : []
      switch byIndex[index]?.count ?? 0 {
      case 0:
        problems.append(
          "shard \(index)/\(count) has no report: its tests ran in no shard"
            + (entries.isEmpty ? "" : " (\(entries.joined(separator: ", ")))"))
      case 1: break
      default:
        let names = (byIndex[index] ?? []).map(\.0).joined(separator: ", ")
        problems.append(
          "shard \(index)/\(count) has \(byIndex[index]?.count ?? 0) reports (\(names)): its tests ran twice")
      }
    }

    // Each test, by where it ran; each planned entry, whether any test ran for it.
    var seen: [String: [String]] = [:]
    var covered: Set<String> = []
    for (name, stamp) in stamped {
      let entries = stamp.index <= stamp.shards.count ? stamp.shards[stamp.index - 1] : []
      let parsed = entries.compactMap { try? ShardEntry(parsing: $0) }
      let result = reports.first { $0.name == name }!.result
      let label = "shard \(stamp.index)/\(stamp.count) (\(name))"
      for package in result.packages {
        for target in package.targets {
          for test in target.tests where !test.name.hasPrefix("(") {
            let id = "\(package.path):\(target.name)/\(test.qualifiedName)"
            seen[id, default: []].append(label)
            let owners = Self.owners(in: parsed, package: package.path, target: target.name, test: test)
            if owners.isEmpty {
              problems.append("\(id) ran in \(label), whose plan does not name it")
            }
            covered.formUnion(owners.map(\.description))
          }
        }
      }
      for cached in result.cached {
        covered.formUnion(
          parsed.filter { $0.package == cached.package && $0.target == cached.name }.map(\.description))
      }
    }
    for (id, shards) in seen.sorted(by: { $0.key < $1.key }) where shards.count > 1 {
      problems.append("\(id) ran in \(shards.count) shards: \(shards.joined(separator: ", "))")
    }
    for (index, entries) in first.shards.enumerated() where byIndex[index + 1] != nil {
      for entry in entries where !covered.contains(entry) {
        guard let parsed = try? ShardEntry(parsing: entry), case .allBut = parsed.part else {
          problems.append("planned \(entry) (shard \(index + 1)/\(count)) ran no test")
          continue
        }
      }
    }
    return Outcome(planID: first.id, shards: stamped.count, tests: seen.count, problems: problems)
  }

  /// The entries of `entries` that name this test of `package`'s `target`; empty when none does. Entries are
  /// read per target, as `swift test` runs them (`SuiteScope`): `T/S` and `T/S/t()` name their own tests, and
  /// the `T/-A`, `T/-B` of one remainder together name every test neither leaves out.
  static func owners(
    in entries: [ShardEntry], package: String, target: String, test: TestCaseResult
  ) -> [ShardEntry] {
    let mine = entries.filter { $0.package == package && ($0.target == target || $0.target == "*") }
    let excluded = mine.compactMap { entry -> String? in
      if case .allBut(let item) = entry.part { return item }
      return nil
    }
    if !excluded.isEmpty {
      return excluded.contains { covers($0, test) }
        ? [] : mine.filter { if case .allBut = $0.part { true } else { false } }
    }
    return mine.filter { entry in
      switch entry.part {
      case .whole: true
      case .suite(let item): covers(item, test)
      case .allBut: false
      }
    }
  }

  /// A top-level suite (`Outer` covers `Outer.Inner/t()`) or one test (`Suite/t()`).
  static func covers(_ item: String, _ test: TestCaseResult) -> Bool {
    if item.contains("/") { return test.qualifiedName == item }
    return TimingHistory.topLevelSuite(test.suite) == item
  }
}
