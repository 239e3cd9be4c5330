import Testing

@testable import TestRunner

@Suite struct ShardTests {
  @Test(arguments: ["0/3", "4/3", "x", "1/0", "1/", "/2", "1/2/3", "-1/2"])
  func invalidShardsAreUsageErrors(text: String) {
    #expect {
      try Shard(parsing: text)
    } throws: { error in
      guard let error = error as? TestRunnerError, case .invalidShard = error else { return false }
      return error.category == .usage && error.description.contains("I/N")
    }
  }

  @Test func parsesValidShards() throws {
    let shard = try Shard(parsing: "2/4")
    #expect(shard.index == 2 && shard.count == 4)
    #expect(shard.description == "2/4")
    #expect(try Shard(parsing: "1/1") == Shard(index: 1, count: 1))
  }

  @Test func longestFirstBalancesByRecordedDurations() {
    var history = TimingHistory()
    let units = ["A", "B", "C", "D", "E"].map { TestUnit(package: ".", target: $0) }
    for (unit, seconds) in zip(units, [10.0, 7, 5, 4, 3]) { history.record(seconds, for: unit) }
    let shards = TestSharding.assign(units, shards: 2, history: history)
    // LPT: A(10)→1, B(7)→2, C(5)→2 (12), D(4)→1 (14), E(3)→2 (15).
    #expect(shards[0].map(\.target) == ["A", "D"])
    #expect(shards[1].map(\.target) == ["B", "C", "E"])
  }

  @Test func unknownTargetsGetTheMedianAndTiesAreDeterministic() {
    var history = TimingHistory()
    history.record(1, for: TestUnit(package: ".", target: "A"))
    history.record(9, for: TestUnit(package: ".", target: "B"))
    history.record(5, for: TestUnit(package: ".", target: "C"))
    // D has no history: median 5, tied with C; C sorts first: B→1, C→2, D→3, then A→2 (lowest index
    // among the least loaded).
    let units = ["D", "C", "B", "A"].map { TestUnit(package: ".", target: $0) }
    let shards = TestSharding.assign(units, shards: 3, history: history)
    #expect(shards.map { $0.map { $0.target! } } == [["B"], ["A", "C"], ["D"]])
    #expect(TestSharding.assign(units.reversed(), shards: 3, history: history) == shards)
  }

  @Test func shardsPartitionTheSelectionForRandomInputs() throws {
    var rng = SplitMix64(seed: 42)
    for _ in 0..<200 {
      let packageCount = Int.random(in: 1...4, using: &rng)
      var history = TimingHistory()
      var packages: [PackageSelection] = []
      for p in 0..<packageCount {
        let runAll = Int.random(in: 0..<6, using: &rng) == 0
        let targets = (0..<Int.random(in: 0...6, using: &rng)).map { "T\(p)_\($0)" }
        for target in targets where Bool.random(using: &rng) {
          history.record(Double.random(in: 0.1...30, using: &rng), for: TestUnit(package: "P\(p)", target: target))
        }
        packages.append(PackageSelection(path: "P\(p)", testTargets: targets, runAll: runAll))
      }
      let selection = TestSelection(packages: packages)
      let count = Int.random(in: 1...5, using: &rng)
      var seen: [TestUnit] = []
      for index in 1...count {
        let part = TestSharding.select(selection, shard: try Shard(index: index, count: count), history: history)
        seen += part.units
      }
      #expect(seen.count == Set(seen).count, "a unit ran in two shards")
      #expect(Set(seen) == Set(selection.units), "a unit was lost")
    }
  }
}

/// A seeded generator so the property test is reproducible.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
