import Foundation

/// Each test's outcomes, kept beside the timing history, for `ripple flaky`.
///
/// Per test and UTC day, how often it ran and how each run ended (a skipped test did not run); `flakyAt` the
/// moments it was flaky (the newest `flakyMomentsKept`). Bounded on each record: days older than `keptDays` are
/// dropped, and beyond `maxTests` tests or `maxDayEntries` test-days the tests that ran longest ago go first (a 344 MB history made `ripple test`
/// take a minute and 3 GB). On disk (`<repo>/.build/ripple/outcomes.json` by default): `OutcomeStore`.
public struct OutcomeHistory: Sendable, Codable, Hashable {
  public struct Day: Sendable, Codable, Hashable {
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
  }

  public struct Test: Sendable, Codable, Hashable {
    /// Repo-relative package path.
    public var package: String
    /// `Target.Suite/name`.
    public var test: String
    /// UTC `YYYY-MM-DD` → counts.
    public var days: [String: Day] = [:]
    public var flakyAt: [Date] = []

    public init(package: String, test: String, days: [String: Day] = [:], flakyAt: [Date] = []) {
      self.package = package
      self.test = test
      self.days = days
      self.flakyAt = flakyAt
    }
  }

  public static let keptDays = 90
  public static let flakyMomentsKept = 100
  public static let maxTests = 50_000
  /// Test-days kept in all (one per test and day it ran): the file stays under about 60 MB.
  public static let maxDayEntries = 1_000_000

  public var schemaVersion: Int
  public var tests: [String: Test]

  public init(tests: [String: Test] = [:]) {
    self.schemaVersion = 1
    self.tests = tests
  }

  /// Adds one run's outcomes: every test that ran (passed, failed, flaky, quarantined) counts a run. Then drops
  /// what is older than `keptDays`, days after `now` (the run's own time unless given: a history filled with
  /// past runs gives the present), and the tests beyond `maxTests` that last ran longest ago.
  public mutating func record(_ result: TestRunResult, at date: Date, now: Date? = nil, maxTests: Int = Self.maxTests) {
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
    prune(before: date.addingTimeInterval(-Double(Self.keptDays) * 86_400), after: now ?? date)
    keepNewest(maxTests)
  }

  /// Keeps the tests that ran most recently, at most `count` of them holding at most `maxDayEntries` test-days
  /// together (about 60 bytes each on disk); ties go by key, for a stable choice.
  public mutating func keepNewest(_ count: Int, maxDayEntries: Int = Self.maxDayEntries) {
    var entries = tests.values.reduce(0) { $0 + $1.days.count }
    guard tests.count > count || entries > maxDayEntries else { return }
    let byLastRun = tests.map { (key: $0.key, last: $0.value.days.keys.max() ?? "", days: $0.value.days.count) }
      .sorted { ($0.last, $0.key) < ($1.last, $1.key) }
    for old in byLastRun where tests.count > count || entries > maxDayEntries {
      tests[old.key] = nil
      entries -= old.days
    }
  }

  /// Drops the days before `date` and after `newest`, keys that are not days (and tests left with none); a
  /// test with nothing to drop is not copied. A day after the one being recorded can only come from a wrong
  /// clock or a hand-edited file; left in, it would count in every window for years.
  public mutating func prune(before date: Date, after newest: Date) {
    let days = DayRange(first: Self.day(date), last: Self.day(newest))
    for key in Array(tests.keys) {  // the keys, not `tests`: iterating it while writing would copy it whole
      guard var entry = tests[key],
        entry.days.keys.contains(where: { !days.contains($0) || !Self.isDay($0) })
          || entry.flakyAt.contains(where: { $0 < date || $0 > newest })
      else { continue }
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
    let start = Self.utc.startOfDay(for: date)
    let end = Self.utc.startOfDay(for: now).addingTimeInterval(86_400)
    // Sums in place and compares moments with one start and end of day: per test, no filtered copy of its days
    // and no calendar per moment (a 100,000-test history spent most of `ripple flaky` there).
    return tests.values.compactMap { entry -> FlakyTestRecord? in
      var (runs, flaky, failed) = (0, 0, 0)
      for (day, counts) in entry.days where window.contains(day) && Self.isDay(day) {
        runs += counts.runs
        flaky += counts.flaky
        failed += counts.failed
      }
      guard flaky > 0 else { return nil }
      let moments = entry.flakyAt.filter { $0 >= start && $0 < end }
      return FlakyTestRecord(
        package: entry.package, test: entry.test, runs: runs, flakyRuns: flaky, failedRuns: failed,
        firstSeen: moments.min(), lastSeen: moments.max())
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

  private static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// UTC `YYYY-MM-DD`.
  public static func day(_ date: Date) -> String {
    let parts = utc.dateComponents([.year, .month, .day], from: date)
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
///
/// On disk, JSON Lines (schema 2): a `{"schemaVersion":2}` line, then one line per test. Loading decodes line by
/// line from a small buffer, so the history is held once, decoded, and never beside its whole text (schema 1,
/// one JSON document, is still read, and is rewritten as schema 2 by the next save).
public struct OutcomeStore: Sendable {
  public var path: String

  public init(path: String) {
    self.path = path
  }

  /// `outcomes.json` in the folder of a timing history file.
  public init(besideTimings timingsPath: String) {
    self.path = (timingsPath as NSString).deletingLastPathComponent + "/outcomes.json"
  }

  static let header = Data(#"{"schemaVersion":2}"#.utf8)

  public func load() -> (history: OutcomeHistory, warning: String?) {
    guard let handle = FileHandle(forReadingAtPath: path) else { return (OutcomeHistory(), nil) }
    defer { try? handle.close() }
    do {
      var lines = LineReader(handle)
      guard let first = try lines.next() else { return (OutcomeHistory(), nil) }
      guard first == Self.header else { return try loadSchema1(first, rest: &lines) }
      var history = OutcomeHistory()
      let decoder = Self.decoder
      while let line = try lines.next() {
        guard !line.isEmpty else { continue }
        let test = try decoder.decode(OutcomeHistory.Test.self, from: line)
        history.tests[test.package + "|" + test.test] = test
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

  /// The single JSON document of schema 1 (the file was written without newlines: `first` is most of it).
  private func loadSchema1(_ first: Data, rest lines: inout LineReader) throws -> (OutcomeHistory, String?) {
    var text = first
    while let line = try lines.next() { text.append(0x0A); text.append(line) }
    let history = try Self.decoder.decode(OutcomeHistory.self, from: text)
    guard history.schemaVersion == 1 else {
      return (OutcomeHistory(), "ignoring test outcomes \(path): unknown schemaVersion \(history.schemaVersion)")
    }
    return (history, nil)
  }

  /// Writes a temporary file line by line, then renames it over the old one, creating the directory.
  public func save(_ history: OutcomeHistory) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)"
    guard FileManager.default.createFile(atPath: temporary, contents: nil),
      let handle = FileHandle(forWritingAtPath: temporary)
    else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      encoder.dateEncodingStrategy = .iso8601
      var buffer = Self.header
      buffer.append(0x0A)
      for test in history.tests.values {
        buffer.append(try encoder.encode(test))
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 {
          try handle.write(contentsOf: buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
      try handle.write(contentsOf: buffer)
      try handle.close()
      guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    } catch {
      try? handle.close()
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
  }

  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}

/// The lines of a file, read 1 MiB at a time (without their `\n`).
struct LineReader {
  private let handle: FileHandle
  private var buffer = Data()
  private var start = 0
  private var atEnd = false

  init(_ handle: FileHandle) { self.handle = handle }

  mutating func next() throws -> Data? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let line = buffer[start..<newline]
        start = newline + 1
        return Data(line)
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        let line = buffer[start...]
        start = buffer.count
        return Data(line)
      }
      buffer = Data(buffer[start...])
      start = 0
      guard let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty else {
        atEnd = true
        continue
      }
      buffer.append(chunk)
    }
  }
}
