/// Shards below the target level: one planner for `ripple test --shard`, `--format matrix|gitlab|buildkite`
/// and so for `--targets`, so the jobs of a pipeline and the shards of `--shard` agree.
///
/// A test target whose weight exceeds a shard's fair share (the total over the shard count) and that has
/// at least two recorded suites is split: each recorded suite is a piece of its own, and so is the
/// target's remainder (what no recorded suite holds: new suites, suite-less tests; weighed as the
/// target's time not accounted for by its suites). The pieces and the unsplit targets are then placed
/// longest first (`ShardPlanner`). The shard that gets a split target's remainder runs the target but the
/// suites placed elsewhere (`package:T/-S`), every other shard its own suites (`package:T/S`), so each
/// test of the target runs in exactly one shard, whatever the history says about it.
///
/// Below the suite: a suite of a split target that weighs more than half a shard's share, with at least two
/// recorded tests, is split too, each recorded test a piece of its own (`package:T/S/test()`); what its tests'
/// times do not account for, and tests added since, go with the target's remainder, which then leaves out
/// those tests (`package:T/-S/test()`) rather than the suite.
public enum SuiteShardPlanner {
  /// A test target (or a whole package, `target == "*"`) with what the timing history knows of it.
  public struct Unit: Sendable, Hashable {
    public var package: String
    public var target: String
    /// Recorded seconds of the whole target; nil: none (it weighs the median of the known ones, or the
    /// sum of its suites when only those are known).
    public var seconds: Double?
    /// Recorded seconds per top-level suite; empty: it is never split.
    public var suites: [String: Double]
    /// Recorded seconds per test, by top-level suite: suite → `Suite/test()` (the test's identifier after
    /// `Target.`) → seconds. Only suites with two or more are ever split.
    public var tests: [String: [String: Double]]

    public init(
      package: String, target: String, seconds: Double?, suites: [String: Double] = [:],
      tests: [String: [String: Double]] = [:]
    ) {
      self.package = package
      self.target = target
      self.seconds = seconds
      self.suites = suites
      self.tests = tests
    }

    /// Split at all only with two pieces to spread: two suites, or one suite with two tests.
    var isSplittable: Bool {
      suites.count >= 2 || suites.keys.contains { (tests[$0]?.count ?? 0) >= 2 }
    }

    public var id: String { "\(package):\(target)" }
  }

  public struct Shard: Sendable, Hashable {
    /// 1-based.
    public var index: Int
    /// Sorted by id.
    public var entries: [ShardEntry]
    /// Expected seconds: the weights of its pieces added up.
    public var load: Double
  }

  /// `min(shards, pieces)` shards, none empty; none for no units. Duplicate ids count once.
  public static func plan(_ units: [Unit], shards: Int) -> [Shard] {
    var unique: [String: Unit] = [:]
    for unit in units where unique[unit.id] == nil { unique[unit.id] = unit }
    guard !unique.isEmpty else { return [] }
    let count = max(1, shards)
    let known = unique.values.compactMap { $0.seconds ?? ($0.suites.isEmpty ? nil : $0.suites.values.reduce(0, +)) }
    let fallback = ShardPlanner.median(known) ?? 1
    func weight(_ unit: Unit) -> Double {
      unit.seconds ?? (unit.suites.isEmpty ? fallback : unit.suites.values.reduce(0, +))
    }
    let fairShare = unique.values.map(weight).reduce(0, +) / Double(count)

    // Piece ids: `package:T` (whole), `package:T/S` (a suite), `package:T/S/t()` (a test of a split suite),
    // `package:T/*` (a split target's remainder). `item`: the suite or `S/t()`; "*" for the remainder.
    var pieces: [String: (unit: Unit, item: String?)] = [:]
    var weights: [String: Double] = [:]
    for unit in unique.values {
      let total = weight(unit)
      guard count > 1, unit.target != "*", unit.isSplittable, total > fairShare else {
        pieces[unit.id] = (unit, nil)
        weights[unit.id] = total
        continue
      }
      var remainder = max(0, total - unit.suites.values.reduce(0, +))
      for (suite, seconds) in unit.suites {
        let tests = unit.tests[suite] ?? [:]
        guard seconds > fairShare / 2, tests.count >= 2 else {
          pieces["\(unit.id)/\(suite)"] = (unit, suite)
          weights["\(unit.id)/\(suite)"] = seconds
          continue
        }
        for (test, testSeconds) in tests {
          pieces["\(unit.id)/\(test)"] = (unit, test)
          weights["\(unit.id)/\(test)"] = testSeconds
        }
        remainder += max(0, seconds - tests.values.reduce(0, +))
      }
      pieces["\(unit.id)/*"] = (unit, "*")
      weights["\(unit.id)/*"] = remainder
    }

    let placed = ShardPlanner.plan(items: Array(pieces.keys), weights: weights, shards: count)
    // Where each suite or test of a split target went, to name what the remainder's shard leaves out.
    var shardOfItem: [String: [String: Int]] = [:]
    for shard in placed {
      for id in shard.items {
        guard let piece = pieces[id], let item = piece.item, item != "*" else { continue }
        shardOfItem[piece.unit.id, default: [:]][item] = shard.index
      }
    }
    return placed.map { shard in
      var entries: [ShardEntry] = []
      for id in shard.items {
        guard let piece = pieces[id] else { continue }
        let unit = piece.unit
        switch piece.item {
        case nil:
          entries.append(ShardEntry(package: unit.package, target: unit.target))
        case "*":
          let elsewhere = (shardOfItem[unit.id] ?? [:]).filter { $0.value != shard.index }.keys.sorted()
          entries +=
            elsewhere.isEmpty
            ? [ShardEntry(package: unit.package, target: unit.target)]
            : elsewhere.map { ShardEntry(package: unit.package, target: unit.target, part: .allBut($0)) }
        case let item?:
          // The remainder's shard already runs every suite and test not left out.
          let remainderHere = shard.items.contains("\(unit.id)/*")
          if !remainderHere {
            entries.append(ShardEntry(package: unit.package, target: unit.target, part: .suite(item)))
          }
        }
      }
      return Shard(index: shard.index, entries: entries.sorted(), load: shard.load)
    }
  }
}
