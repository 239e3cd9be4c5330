import Foundation

/// Each test's outcomes, kept beside the timing history, for `ripple flaky`.
///
/// On disk (`<repo>/.build/ripple/outcomes.json` by default):
/// `{"schemaVersion": 1, "tests": {".|CoreTests.NetTests/testFetch": {"package": ".", "test":
/// "CoreTests.NetTests/testFetch", "days": {"2026-11-25": {"runs": 3, "flaky": 1, "failed": 0,
/// "quarantined": 0}}, "flakyAt": [...]}}}`: per test and UTC day, how often it ran and how each run ended
/// (a skipped test did not run); `flakyAt` the moments it was flaky (the newest `flakyMomentsKept`). Days
/// older than `keptDays` are dropped on each record, so the file stays small.
public struct OutcomeHistory: Sendable, Codable, Hashable {
  public struct Day: Sendable, Codable, Hashable {
    public var runs = 0
    public var flaky = 0
    public var failed = 0
    public var quarantined = 0
  }

  public struct Test: Sendable, Codable, Hashable {
    /// Repo-relative package path.
    public var package: String
    /// `Target.Suite/name`.
    public var test: String
    /// UTC `YYYY-MM-DD` → counts.
    public var days: [String: Day] = [:]
    public var flakyAt: [Date] = []
  }

  public static let keptDays = 180
  public static let flakyMomentsKept = 100

  public var schemaVersion: Int
  public var tests: [String: Test]

  public init(tests: [String: Test] = [:]) {
    self.schemaVersion = 1
    self.tests = tests
  }

  /// Adds one run's outcomes: every test that ran (passed, failed, flaky, quarantined) counts a run.
  public mutating func record(_ result: TestRunResult, at date: Date) {
    let day = Self.day(date)
    for package in result.packages {
      for target in package.targets {
        for test in target.tests where test.status != .skipped {
          let id = test.identifier(target: target.name)
          let key = "\(package.path)|\(id)"
          var entry = tests[key] ?? Test(package: package.path, test: id)
          var counts = entry.days[day] ?? Day()
          counts.runs += 1
          if test.flaky {
            counts.flaky += 1
            entry.flakyAt = Array((entry.flakyAt + [date]).suffix(Self.flakyMomentsKept))
          }
          if test.status == .failed { counts.failed += 1 }
          if test.status == .quarantined { counts.quarantined += 1 }
          entry.days[day] = counts
          tests[key] = entry
        }
      }
    }
    prune(before: date.addingTimeInterval(-Double(Self.keptDays) * 86_400), after: date)
  }

  /// Drops the days before `date` and after `newest` (and tests left with none). A day after the one being
  /// recorded can only come from a wrong clock or a hand-edited file; left in, it would count in every
  /// window for years.
  public mutating func prune(before date: Date, after newest: Date) {
    let days = DayRange(first: Self.day(date), last: Self.day(newest))
    for (key, var entry) in tests {
      entry.days = entry.days.filter { days.contains($0.key) && Self.isDay($0.key) }
      entry.flakyAt = entry.flakyAt.filter { $0 >= date && $0 <= newest }
      tests[key] = entry.days.isEmpty ? nil : entry
    }
  }

  /// The tests that were flaky from the day of `date` to the day of `now` (whole UTC days), by flake rate
  /// (flaky runs / runs), then flaky runs, then name. Days after `now`'s and keys that are not days are left
  /// out (`unusableDays` names them): compared as text, `9999-12-31` would fall in every window.
  public func flakyTests(since date: Date, now: Date) -> [FlakyTestRecord] {
    let window = DayRange(first: Self.day(date), last: Self.day(now))
    return tests.values.compactMap { entry -> FlakyTestRecord? in
      let days = entry.days.filter { window.contains($0.key) && Self.isDay($0.key) }.values
      let flaky = days.map(\.flaky).reduce(0, +)
      guard flaky > 0 else { return nil }
      let moments = entry.flakyAt.filter { window.contains(Self.day($0)) }
      return FlakyTestRecord(
        package: entry.package, test: entry.test, runs: days.map(\.runs).reduce(0, +), flakyRuns: flaky,
        failedRuns: days.map(\.failed).reduce(0, +), firstSeen: moments.min(), lastSeen: moments.max())
    }.sorted {
      ($0.rate, $0.flakyRuns, $1.package, $1.test) > ($1.rate, $1.flakyRuns, $0.package, $0.test)
    }
  }

  /// The day keys `flakyTests` leaves out, each with the tests holding it: keys after `today` (a UTC
  /// `YYYY-MM-DD`) and keys that are not a day at all.
  public func unusableDays(today: String) -> [(day: String, tests: [String])] {
    var found: [String: [String]] = [:]
    for (key, entry) in tests {
      for day in entry.days.keys where day > today || !Self.isDay(day) { found[day, default: []].append(key) }
    }
    return found.keys.sorted().map { ($0, found[$0]!.sorted()) }
  }

  /// Whether `key` is a real day written `YYYY-MM-DD` (`2026-02-30` is not). Arithmetic, not a calendar:
  /// it runs for every day of every test.
  public static func isDay(_ key: String) -> Bool {
    let bytes = Array(key.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard byte >= 48 && byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return (1...length).contains(day)
  }

  /// Day keys from `first` through `last`, compared as text (`YYYY-MM-DD` sorts by date). Not a
  /// `ClosedRange`: a `first` after `last` (a window starting tomorrow) is empty, not a crash.
  struct DayRange {
    var first: String
    var last: String

    func contains(_ day: String) -> Bool { day >= first && day <= last }
  }

  /// UTC `YYYY-MM-DD`.
  public static func day(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }
}

/// One line of `ripple flaky`.
public struct FlakyTestRecord: Sendable, Codable, Hashable {
  public var package: String
  /// `Target.Suite/name`.
  public var test: String
  public var runs: Int
  public var flakyRuns: Int
  /// Runs that failed every attempt.
  public var failedRuns: Int
  /// The first and last time it was flaky in the window (nil when those moments were pruned).
  public var firstSeen: Date?
  public var lastSeen: Date?

  public init(
    package: String, test: String, runs: Int, flakyRuns: Int, failedRuns: Int, firstSeen: Date?, lastSeen: Date?
  ) {
    self.package = package
    self.test = test
    self.runs = runs
    self.flakyRuns = flakyRuns
    self.failedRuns = failedRuns
    self.firstSeen = firstSeen
    self.lastSeen = lastSeen
  }

  /// Flaky runs / runs.
  public var rate: Double { runs == 0 ? 0 : Double(flakyRuns) / Double(runs) }
}

/// Loads and saves an `OutcomeHistory` file, like `TimingStore`: a missing file is an empty history, an
/// unreadable one is ignored with a warning (it only feeds `ripple flaky`, never which tests run).
public struct OutcomeStore: Sendable {
  public var path: String

  public init(path: String) {
    self.path = path
  }

  /// `outcomes.json` in the folder of a timing history file.
  public init(besideTimings timingsPath: String) {
    self.path = (timingsPath as NSString).deletingLastPathComponent + "/outcomes.json"
  }

  public func load() -> (history: OutcomeHistory, warning: String?) {
    guard FileManager.default.fileExists(atPath: path) else { return (OutcomeHistory(), nil) }
    do {
      let history = try Self.decoder.decode(OutcomeHistory.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
      guard history.schemaVersion == 1 else {
        return (OutcomeHistory(), "ignoring test outcomes \(path): unknown schemaVersion \(history.schemaVersion)")
      }
      return (history, nil)
    } catch {
      return (OutcomeHistory(), "ignoring unreadable test outcomes \(path) (they will be rewritten): \(error)")
    }
  }

  /// One warning per day key of `history` that `flakyTests` leaves out, naming this file, the key and the
  /// tests holding it (the first three).
  public func warnings(for history: OutcomeHistory, today: String) -> [String] {
    history.unusableDays(today: today).map { day, tests in
      let what = OutcomeHistory.isDay(day) ? "a day after today (\(today))" : "not a day (YYYY-MM-DD)"
      let named = tests.prefix(3).joined(separator: ", ") + (tests.count > 3 ? " and \(tests.count - 3) more" : "")
      return "ignoring `\(day)` in test outcomes \(path): \(what); it holds \(named)"
    }
  }

  /// Writes atomically, creating the directory.
  public func save(_ history: OutcomeHistory) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    try encoder.encode(history).write(to: url, options: .atomic)
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
