import Foundation
import RippleCore

/// The whole plan of one sharded job: every shard's entries, fixed once so that every shard of the job runs its
/// part of the same split, whatever timings the earlier shards wrote (docs/DESIGN.md, "One plan per sharded
/// job"). Its `id` names what it was made from and by: the Ripple version, the shard count, the selection's
/// units and the entries; shards whose ids differ did not split one plan (`ShardCoverage`).
public struct ShardPlan: Sendable, Codable, Hashable {
  public var schemaVersion = 1
  public var id: String
  /// The version of the Ripple that made it.
  public var rippleVersion: String
  public var count: Int
  /// The selection's units (`package:Target`, `package:*`), sorted: what it splits.
  public var units: [String]
  /// Each shard's entries (`ShardEntry` ids, sorted), index 0 for shard 1.
  public var shards: [[String]]
  /// The job it was made for (`RIPPLE_JOB_ID`, a CI run's id); nil: none known.
  public var job: String?
  /// The shards that ran from it on this machine, so that a shard run again starts a new job's plan when no job
  /// id tells the jobs apart.
  public var ran: [Int] = []

  public init(
    rippleVersion: String, count: Int, units: [String], shards: [[String]], job: String? = nil, ran: [Int] = []
  ) {
    self.rippleVersion = rippleVersion
    self.count = count
    self.units = units.sorted()
    self.shards = shards.map { $0.sorted() }
    self.job = job
    self.ran = ran
    self.id = Self.identifier(rippleVersion: rippleVersion, count: count, units: self.units, shards: self.shards)
  }

  /// `selection` split into `count` shards on `history` (`TestSharding.plan`).
  public static func make(
    _ selection: TestSelection, count: Int, history: TimingHistory, rippleVersion: String, job: String? = nil
  ) -> ShardPlan {
    ShardPlan(
      rippleVersion: rippleVersion, count: count, units: selection.units.map(\.id),
      shards: TestSharding.plan(selection, shards: count, history: history).map { $0.map(\.description) }, job: job)
  }

  /// Whether it splits this selection into this many shards.
  public func splits(_ selection: TestSelection, count: Int) -> Bool {
    self.count == count && units == selection.units.map(\.id).sorted()
  }

  /// The entries of shard `index` (1-based); none for an index it does not have.
  public func entries(ofShard index: Int) -> [ShardEntry] {
    guard shards.indices.contains(index - 1) else { return [] }
    return shards[index - 1].compactMap { try? ShardEntry(parsing: $0) }
  }

  /// 16 hex digits of a 128-bit FNV-1a hash of the version, count, units and entries, one per line: the same
  /// inputs give the same id on any machine, a different Ripple version a different one.
  public static func identifier(rippleVersion: String, count: Int, units: [String], shards: [[String]]) -> String {
    var lines = ["ripple \(rippleVersion)", "shards \(count)"] + units.map { "unit \($0)" }
    for (index, entries) in shards.enumerated() { lines += entries.map { "shard \(index + 1) \($0)" } }
    let text = Array(lines.joined(separator: "\n").utf8)
    func fnv(_ basis: UInt64) -> UInt64 {
      var hash = basis
      for byte in text {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
      }
      return hash
    }
    let high = fnv(0xcbf2_9ce4_8422_2325)
    let low = fnv(0x84222325_cbf29ce4)
    return String(format: "%016llx", high ^ (low >> 1)).prefix(16).description
  }

  /// Reads a plan written by `write(to:)`; nil for a missing or unreadable file, or one of another schema.
  public static func read(from path: String) -> ShardPlan? {
    guard let data = FileManager.default.contents(atPath: path),
      let plan = try? JSONDecoder().decode(ShardPlan.self, from: data), plan.schemaVersion == 1
    else { return nil }
    return plan
  }

  /// Writes atomically, creating the folder.
  public func write(to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try encoder.encode(self).write(to: url, options: .atomic)
  }
}

/// What a shard's `--report-json` says of the plan it ran (`TestRunResult.shardPlan`): the plan's id, and its
/// entries, so that `ripple shards check` can prove each planned test ran in exactly one shard.
public struct ShardPlanStamp: Sendable, Codable, Hashable {
  public var id: String
  public var rippleVersion: String
  /// 1-based.
  public var index: Int
  public var count: Int
  /// Every shard's entries, index 0 for shard 1.
  public var shards: [[String]]

  public init(plan: ShardPlan, index: Int) {
    self.id = plan.id
    self.rippleVersion = plan.rippleVersion
    self.index = index
    self.count = plan.count
    self.shards = plan.shards
  }
}
