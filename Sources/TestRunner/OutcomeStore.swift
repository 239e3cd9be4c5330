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
  /// what is older than `keptDays` and the tests beyond `maxTests` that last ran longest ago.
  public mutating func record(_ result: TestRunResult, at date: Date, maxTests: Int = Self.maxTests) {
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
    prune(before: date.addingTimeInterval(-Double(Self.keptDays) * 86_400))
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

  /// Drops the days before `date` (and tests left with none); a test with nothing to drop is not copied.
  public mutating func prune(before date: Date) {
    let oldest = Self.day(date)
    for key in Array(tests.keys) {  // the keys, not `tests`: iterating it while writing would copy it whole
      guard var entry = tests[key],
        entry.days.keys.contains(where: { $0 < oldest }) || entry.flakyAt.contains(where: { $0 < date })
      else { continue }
      entry.days = entry.days.filter { $0.key >= oldest }
      entry.flakyAt = entry.flakyAt.filter { $0 >= date }
      tests[key] = entry.days.isEmpty ? nil : entry
    }
  }

  /// The tests that were flaky since `date` (whole UTC days: the day of `date` counts in full), by flake
  /// rate (flaky runs / runs), then flaky runs, then name.
  public func flakyTests(since date: Date) -> [FlakyTestRecord] {
    let first = Self.day(date)
    let start = Self.utc.startOfDay(for: date)
    // Sums in place and compares moments with one start of day: per test, no filtered copy of its days and no
    // calendar per moment (a 100,000-test history spent most of `ripple flaky` there).
    return tests.values.compactMap { entry -> FlakyTestRecord? in
      var (runs, flaky, failed) = (0, 0, 0)
      for (day, counts) in entry.days where day >= first {
        runs += counts.runs
        flaky += counts.flaky
        failed += counts.failed
      }
      guard flaky > 0 else { return nil }
      let moments = entry.flakyAt.filter { $0 >= start }
      return FlakyTestRecord(
        package: entry.package, test: entry.test, runs: runs, flakyRuns: flaky, failedRuns: failed,
        firstSeen: moments.min(), lastSeen: moments.max())
    }.sorted {
      ($0.rate, $0.flakyRuns, $1.package, $1.test) > ($1.rate, $1.flakyRuns, $0.package, $0.test)
    }
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
