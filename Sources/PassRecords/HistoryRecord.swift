import Crypto
import Foundation

/// A team's test history kept in the result store beside the pass records (docs/DESIGN.md, "Shared
/// history"): per-target, per-suite and per-test times for shard planning on runners that never ran the
/// tests, the outcomes of tests that failed, were flaky or quarantined, and the commits whose runs passed
/// (`--base auto`).
///
/// One history per repository (`namespace`) and scope: the protected branches share one, written only by
/// trusted (signing) writers; every other branch has its own. Each scope is spread over `slots` records so
/// that the shards of one job, writing at once, do not overwrite each other (a store only gets and puts whole
/// values): a writer reads its slot, merges what it ran, and writes it back; a reader merges every slot.
public struct HistoryRecord: Sendable, Hashable, Codable {
  public static let currentVersion = 1
  public static let formatName = "ripple-history"
  public static let slots = 4
  /// Outcomes older than this are dropped when a slot is written.
  public static let keptDays = 90
  public static let maxOutcomeTests = 20_000
  public static let maxGreens = 200
  /// What a slot may take, so that its envelope (base64: 4/3 of it) stays below the store's limit for one
  /// value (`ResultStoreLimits`, 4 MiB): per-test times of
  /// the shortest suites go first (their suite totals stay).
  public static let maxBytes = (3 << 20) - (64 << 10)

  public struct TargetTimes: Sendable, Hashable, Codable {
    /// Seconds of the whole target when it last ran whole; nil when it only ever ran in part here.
    public var seconds: Double?
    /// Top-level suite → seconds.
    public var suites: [String: Double]
    /// `Suite/test()` → seconds.
    public var tests: [String: Double]
    public var time: Date

    public init(seconds: Double?, suites: [String: Double], tests: [String: Double], time: Date) {
      self.seconds = seconds
      self.suites = suites
      self.tests = tests
      self.time = time
    }
  }

  public struct Counts: Sendable, Hashable, Codable {
    public var runs = 0
    public var flaky = 0
    public var failed = 0
    public var quarantined = 0

    public init(runs: Int = 0, flaky: Int = 0, failed: Int = 0, quarantined: Int = 0) {
      self.runs = runs
      self.flaky = flaky
      self.failed = failed
      self.quarantined = quarantined
    }

    public var isPassOnly: Bool { flaky == 0 && failed == 0 && quarantined == 0 }
  }

  /// A test that did not simply pass at least once in the kept days: its runs from then on, per UTC day.
  public struct Outcome: Sendable, Hashable, Codable {
    public var package: String
    /// `Target.Suite/test()`.
    public var test: String
    public var days: [String: Counts]
    public var flakyAt: [Date]

    public init(package: String, test: String, days: [String: Counts] = [:], flakyAt: [Date] = []) {
      self.package = package
      self.test = test
      self.days = days
      self.flakyAt = flakyAt
    }

    public var key: String { "\(package)|\(test)" }
  }

  /// A run that passed: what `--base auto` looks for.
  public struct Green: Sendable, Hashable, Codable {
    public var commit: String
    public var branch: String
    public var time: Date
    /// `rippled run 42`, a CI job's URL.
    public var run: String
    /// `I/N` when the run was one shard: the commit is green when every shard of one `N` passed.
    public var shard: String?
    /// It ran every test (`--all`), rather than what a change reached.
    public var all: Bool
    /// The commit the run compared with; nil with `all`.
    public var base: String?

    public init(
      commit: String, branch: String, time: Date, run: String, shard: String?, all: Bool, base: String?
    ) {
      self.commit = commit
      self.branch = branch
      self.time = time
      self.run = run
      self.shard = shard
      self.all = all
      self.base = base
    }
  }

  /// A run of every test with nothing skipped for a record: what the whole suite costs in wall-clock time.
  public struct FullRun: Sendable, Hashable, Codable {
    public var commit: String
    public var time: Date
    public var run: String
    public var seconds: Double
    public var buildSeconds: Double

    public init(commit: String, time: Date, run: String, seconds: Double, buildSeconds: Double) {
      self.commit = commit
      self.time = time
      self.run = run
      self.seconds = seconds
      self.buildSeconds = buildSeconds
    }
  }

  public static let maxFullRuns = 20

  public var version: Int
  public var namespace: String
  /// `protected`, or `branch:<name>`.
  public var scope: String
  public var slot: Int
  /// The last writer: a signer's key name, else `user@host`.
  public var writer: String
  public var time: Date
  /// `package:Target` → times.
  public var targets: [String: TargetTimes]
  /// `package|Target.Suite/test()` → outcomes.
  public var outcomes: [String: Outcome]
  public var greens: [Green]
  /// The newest last; absent in records written before it.
  public var fullRuns: [FullRun]
  /// How many times this slot was written, this write included (0: before sequences). Each write also leaves
  /// a marker of its number (`markerKey`), so a reader finding the slot at n while a marker of n+1 exists knows
  /// it was put back (a replay), and one finding it gone or garbage while marker 1 exists knows it was lost.
  public var sequence: Int

  private enum CodingKeys: String, CodingKey {
    case version, namespace, scope, slot, writer, time, targets, outcomes, greens, fullRuns, sequence
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    version = try c.decode(Int.self, forKey: .version)
    namespace = try c.decode(String.self, forKey: .namespace)
    scope = try c.decode(String.self, forKey: .scope)
    slot = try c.decode(Int.self, forKey: .slot)
    writer = try c.decode(String.self, forKey: .writer)
    time = try c.decode(Date.self, forKey: .time)
    targets = try c.decode([String: TargetTimes].self, forKey: .targets)
    outcomes = try c.decode([String: Outcome].self, forKey: .outcomes)
    greens = try c.decode([Green].self, forKey: .greens)
    fullRuns = try c.decodeIfPresent([FullRun].self, forKey: .fullRuns) ?? []
    sequence = try c.decodeIfPresent(Int.self, forKey: .sequence) ?? 0
  }

  public init(namespace: String, scope: String, slot: Int, writer: String, time: Date) {
    self.version = Self.currentVersion
    self.namespace = namespace
    self.scope = scope
    self.slot = slot
    self.writer = writer
    self.time = time
    self.targets = [:]
    self.outcomes = [:]
    self.greens = []
    self.fullRuns = []
    self.sequence = 0
  }

  public static func scope(branch: String, protected: Bool) -> String {
    protected ? "protected" : "branch:\(branch)"
  }

  /// Where slot `slot` of a scope lives: a key of its own, never one a pass record could have (those hash
  /// key inputs, which start otherwise).
  public static func key(namespace: String, scope: String, slot: Int) -> RecordKey {
    let text = "ripple-history-v\(currentVersion)\n\(namespace)\n\(scope)\n\(slot)"
    return RecordKey(hex: SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined())!
  }

  /// Where the marker of write `sequence` of a slot lives: written once, beside the slot (an empty record of
  /// the same place with that sequence, signed like the slot).
  public static func markerKey(namespace: String, scope: String, slot: Int, sequence: Int) -> RecordKey {
    let text = "ripple-history-marker-v\(currentVersion)\n\(namespace)\n\(scope)\n\(slot)\n\(sequence)"
    return RecordKey(hex: SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined())!
  }

  /// The marker of this record's write: its place and sequence, nothing else.
  public var marker: HistoryRecord {
    var marker = HistoryRecord(namespace: namespace, scope: scope, slot: slot, writer: writer, time: time)
    marker.sequence = sequence
    return marker
  }

  /// Merges `other` into this one: newer times win per target, outcome counts add up (each slot holds other
  /// runs), greens are united.
  public mutating func merge(_ other: HistoryRecord) {
    targets.merge(other.targets) { mine, theirs in theirs.time > mine.time ? theirs : mine }
    for (key, outcome) in other.outcomes {
      guard var mine = outcomes[key] else {
        outcomes[key] = outcome
        continue
      }
      for (day, counts) in outcome.days {
        var sum = mine.days[day] ?? Counts()
        sum.runs += counts.runs
        sum.flaky += counts.flaky
        sum.failed += counts.failed
        sum.quarantined += counts.quarantined
        mine.days[day] = sum
      }
      mine.flakyAt = Array(Set(mine.flakyAt + outcome.flakyAt)).sorted().suffix(100)
      outcomes[key] = mine
    }
    greens = Array(Set(greens + other.greens)).sorted { ($0.time, $0.commit) < ($1.time, $1.commit) }
    fullRuns = Array(Set(fullRuns + other.fullRuns)).sorted { ($0.time, $0.commit) < ($1.time, $1.commit) }
  }

  /// Drops outcomes outside the kept days (and keys that are not days), beyond `maxOutcomeTests` the tests
  /// that ran longest ago, greens beyond `maxGreens`, and per-test times, shortest suites first, until the
  /// encoded record fits `maxBytes`.
  public mutating func bound(now: Date, maxBytes: Int = Self.maxBytes) {
    let first = Self.day(now.addingTimeInterval(-Double(Self.keptDays) * 86_400))
    let last = Self.day(now)
    for key in Array(outcomes.keys) {
      guard var outcome = outcomes[key] else { continue }
      outcome.days = outcome.days.filter { Self.isDay($0.key) && $0.key >= first && $0.key <= last }
      outcome.flakyAt = outcome.flakyAt.filter { Self.day($0) >= first && $0 <= now.addingTimeInterval(300) }
      outcomes[key] = outcome.days.isEmpty ? nil : outcome
    }
    if outcomes.count > Self.maxOutcomeTests {
      let byLast = outcomes.map { ($0.key, $0.value.days.keys.max() ?? "") }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
      for (key, _) in byLast.prefix(outcomes.count - Self.maxOutcomeTests) { outcomes[key] = nil }
    }
    greens = Array(greens.sorted { ($0.time, $0.commit) < ($1.time, $1.commit) }.suffix(Self.maxGreens))
    fullRuns = Array(fullRuns.sorted { ($0.time, $0.commit) < ($1.time, $1.commit) }.suffix(Self.maxFullRuns))
    guard var size = (try? Self.encoder.encode(self).count), size > maxBytes else { return }
    // Per-test times by the weight of their suite, lightest first: the heavy suites are the ones worth splitting.
    var suites: [(unit: String, suite: String, seconds: Double)] = []
    for (unit, times) in targets {
      for suite in Set(times.tests.keys.map { Self.topLevelSuite(of: $0) }) {
        suites.append((unit, suite, times.suites[suite] ?? 0))
      }
    }
    suites.sort { ($0.seconds, $0.unit, $0.suite) < ($1.seconds, $1.unit, $1.suite) }
    var index = 0
    while size > maxBytes, index < suites.count {
      // Drop a batch at a time: encoding is the expensive part.
      let batch = suites[index..<min(suites.count, index + max(1, suites.count / 20))]
      for entry in batch {
        guard var times = targets[entry.unit] else { continue }
        times.tests = times.tests.filter { Self.topLevelSuite(of: $0.key) != entry.suite }
        targets[entry.unit] = times
      }
      index += batch.count
      size = (try? Self.encoder.encode(self).count) ?? 0
    }
  }

  /// A test that was flaky from `since` to `now` (whole UTC days): its runs and flaky runs in the window and
  /// when it was first and last flaky there; flakiest first.
  public struct FlakyEntry: Sendable, Hashable {
    public var package: String
    public var test: String
    public var runs: Int
    public var flakyRuns: Int
    public var firstSeen: Date
    public var lastSeen: Date

    public init(package: String, test: String, runs: Int, flakyRuns: Int, firstSeen: Date, lastSeen: Date) {
      self.package = package
      self.test = test
      self.runs = runs
      self.flakyRuns = flakyRuns
      self.firstSeen = firstSeen
      self.lastSeen = lastSeen
    }
  }

  public func flakyTests(since: Date, now: Date) -> [FlakyEntry] {
    let (first, last) = (Self.day(since), Self.day(now))
    return outcomes.values.compactMap { outcome -> FlakyEntry? in
      var (runs, flaky) = (0, 0)
      for (day, counts) in outcome.days where Self.isDay(day) && day >= first && day <= last {
        runs += counts.runs
        flaky += counts.flaky
      }
      let moments = outcome.flakyAt.filter { Self.day($0) >= first && $0 <= now }
      guard flaky > 0, let firstSeen = moments.min(), let lastSeen = moments.max() else { return nil }
      return FlakyEntry(
        package: outcome.package, test: outcome.test, runs: max(runs, flaky), flakyRuns: flaky, firstSeen: firstSeen,
        lastSeen: lastSeen)
    }.sorted {
      (Double($0.flakyRuns) / Double($0.runs), $0.flakyRuns, $1.package, $1.test)
        > (Double($1.flakyRuns) / Double($1.runs), $1.flakyRuns, $0.package, $0.test)
    }
  }

  /// `Outer` of `Outer.Inner/test()` or `Outer/test()`; the name itself for a suite-less test.
  static func topLevelSuite(of test: String) -> String {
    String(test.prefix { $0 != "." && $0 != "/" })
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }()

  public static func day(_ date: Date) -> String {
    let components = utc.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", components.year ?? 0, components.month ?? 0, components.day ?? 0)
  }

  static func isDay(_ text: String) -> Bool {
    text.count == 10
      && text.enumerated().allSatisfy { index, c in index == 4 || index == 7 ? c == "-" : c.isASCII && c.isNumber }
  }

  static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()
}

/// A repository's name in the shared history: every clone of it, on any runner, and rippled, which knows its
/// remote, name it alike.
/// `git@github.com:org/app.git`, `https://user:token@github.com/org/app.git/` → `github.com/org/app`.
public enum HistoryNamespace {
  public static func normalize(_ url: String) -> String {
    var text = url.trimmingCharacters(in: .whitespacesAndNewlines)
    if let scheme = text.range(of: "://") { text = String(text[scheme.upperBound...]) }
    if let at = text.firstIndex(of: "@"), !text[..<at].contains("/") { text = String(text[text.index(after: at)...]) }
    // scp-like `host:path`.
    if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
      let rest = text[text.index(after: colon)...]
      text = String(text[..<colon]) + (rest.first.map { $0.isNumber } == true ? ":" : "/") + rest
    }
    while text.hasSuffix("/") { text.removeLast() }
    if text.hasSuffix(".git") { text.removeLast(4) }
    guard let slash = text.firstIndex(of: "/") else { return text.lowercased() }
    return text[..<slash].lowercased() + text[slash...]
  }
}
