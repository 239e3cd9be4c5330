import Foundation
import Testing

@testable import TestRunner

/// Flaky tests named (retry merge, JUnit, summary, `--fail-on-flaky`) and quarantined failures contained.
@Suite struct FlakyQuarantineTests {
  static func test(_ name: String, _ status: TestCaseResult.Status, line: Int = 1, suite: String = "NetTests")
    -> TestCaseResult
  {
    TestCaseResult(
      suite: suite, name: name, framework: .xctest, status: status,
      failures: status == .failed ? [TestFailure(message: "boom \(line)", file: "N.swift", line: line)] : [])
  }

  static func run(_ tests: [TestCaseResult], target: String = "CoreTests") -> TestRunResult {
    let failed = tests.contains { $0.status == .failed }
    return TestRunResult(
      packages: [
        PackageResult(
          path: ".", status: failed ? .failed : .passed, targets: [TargetResult(name: target, tests: tests)])
      ], duration: 1)
  }

  @Test func aTestThatFailsTwiceThenPassesIsFlakyWithItsFirstFailure() throws {
    var targets = [TargetResult(name: "CoreTests", tests: [Self.test("testA", .failed, line: 1)])]
    targets = RetryMerger.merge(
      targets, retried: [TargetResult(name: "CoreTests", tests: [Self.test("testA", .failed, line: 2)])], attempt: 2)
    let stillFailing = try #require(targets.first?.tests.first)
    #expect(stillFailing.status == .failed && !stillFailing.flaky)
    #expect(stillFailing.failures.first?.line == 2, "a failure shows its latest attempt")
    targets = RetryMerger.merge(
      targets, retried: [TargetResult(name: "CoreTests", tests: [Self.test("testA", .passed)])], attempt: 3)
    let flaky = try #require(targets.first?.tests.first)
    #expect(flaky.status == .passed && flaky.flaky && flaky.attempts == 3)
    #expect(flaky.failures.map(\.line) == [1], "a flaky test shows its first failure")
    let text = SummaryRenderer.render(Self.run(targets[0].tests))
    #expect(text.contains("~ CoreTests.NetTests/testA passed on attempt 3 after failing 2 times; first failure:\n"))
    #expect(text.contains("    N.swift:1: boom 1"))
    // Encoded without the bookkeeping field; decodes back equal.
    let json = Self.run(targets[0].tests).jsonReport()
    #expect(!json.contains("firstFailures"))
    #expect(try JSONDecoder().decode(TestRunResult.self, from: Data(json.utf8)) == Self.run(targets[0].tests))
  }

  @Test func flakyIsAPassUnlessFailOnFlaky() throws {
    var flaky = Self.test("testA", .passed)
    flaky.flaky = true
    flaky.attempts = 2
    flaky.failures = [TestFailure(message: "timed out\nsecond line", file: "N.swift", line: 7)]
    var result = Self.run([flaky, Self.test("testB", .passed)])
    try result.check()
    result.failOnFlaky = true
    let error = try #require(throws: TestRunnerError.self) { try result.check() }
    #expect(error == .flakyTests(count: 1))
    #expect(error.category == .checkFailed)
    #expect(error.description.contains("--fail-on-flaky: 1 test passed only on a retry"))
    let xml = try XMLCollector.parse(JUnitRenderer.render(result))
    #expect(!xml.elements.contains { $0.name == "failure" })
    let names = xml.elements.map(\.name)
    let flakyAt = try #require(names.firstIndex(of: "flakyFailure"))
    #expect(names[flakyAt + 1] == "stackTrace")
    #expect(xml.elements[flakyAt].attributes == ["message": "timed out", "type": "failure"])
    #expect(xml.text["stackTrace"] == "N.swift:7: timed out\nsecond line")
    #expect(xml.elements.first { $0.name == "testsuites" }?.attributes["failures"] == "0")
  }

  @Test(arguments: [
    ("CoreTests", "NetTests", "testA", true),
    ("CoreTests/NetTests", "NetTests", "testA", true),
    ("CoreTests/NetTests", "NetTests.Inner", "testA", true),
    ("CoreTests/NetTests/testA", "NetTests", "testA", true),
    ("CoreTests/NetTests/fetches", "NetTests", "fetches()", true),
    ("CoreTests/fetches", "", "fetches()", true),
    ("CoreTests/NetTests/testA", "NetTests", "testAB", false),
    ("CoreTests/Net", "NetTests", "testA", false),
    ("Core", "NetTests", "testA", false),
    ("OtherTests", "NetTests", "testA", false),
  ])
  func patterns(pattern: String, suite: String, name: String, matches: Bool) {
    let rule = QuarantineRule(pattern: pattern, reason: "r", origin: "ripple.yml:3")
    #expect(rule.matches(target: "CoreTests", suite: suite, name: name) == matches)
  }

  @Test func aQuarantinedFailureIsReportedAndDoesNotFailTheRun() throws {
    let rules = [QuarantineRule(pattern: "CoreTests/NetTests/testA", reason: "issue #12", origin: "ripple.yml:4")]
    let result = Quarantine.apply(
      rules, to: Self.run([Self.test("testA", .failed), Self.test("testB", .passed)]), today: "2026-11-25")
    try result.check()
    #expect(result.packages[0].status == .passed)
    #expect(result.totals.failed == 0 && result.totals.quarantined == 1)
    let test = result.packages[0].targets[0].tests[0]
    #expect(test.status == .quarantined && test.quarantine == "issue #12" && test.failures.count == 1)
    let text = SummaryRenderer.render(result)
    #expect(
      text.contains(
        "Quarantined (failed, not failing the run):\n◌ CoreTests.NetTests/testA failed, quarantined: issue #12\n    N.swift:1: boom 1"
      ))
    #expect(text.hasSuffix("2 tests, 1 passed, 0 failed, 0 skipped, 1 quarantined in 1.00s\n"))
    let xml = try XMLCollector.parse(JUnitRenderer.render(result))
    #expect(xml.elements.contains { $0.name == "skipped" && $0.attributes["message"] == "quarantined: issue #12" })
    #expect(
      xml.elements.contains { $0.name == "property" && $0.attributes == ["name": "quarantined", "value": "issue #12"] })
    #expect(!xml.elements.contains { $0.name == "failure" })
    #expect(xml.elements.first { $0.name == "testsuite" }?.attributes["skipped"] == "1")
    #expect(result.jsonReport().contains("\"status\" : \"quarantined\""))
  }

  @Test func aQuarantinedFlakyTestDoesNotFailOnFlaky() throws {
    var flaky = Self.test("testA", .passed)
    flaky.flaky = true
    flaky.attempts = 2
    let rules = [QuarantineRule(pattern: "CoreTests/NetTests", reason: "racy", origin: "ripple.yml:4")]
    var result = Quarantine.apply(rules, to: Self.run([flaky]), today: "2026-11-25")
    result.failOnFlaky = true
    try result.check()
    let test = result.packages[0].targets[0].tests[0]
    #expect(test.status == .passed && test.flaky && test.quarantine == "racy")
    #expect(result.totals.flaky == 1 && result.totals.quarantined == 0)
    var outside = Self.run([flaky])
    outside.failOnFlaky = true
    #expect(throws: TestRunnerError.flakyTests(count: 1)) { try outside.check() }
  }

  @Test func aFailureOutsideTheQuarantineStillFails() {
    let rules = [QuarantineRule(pattern: "CoreTests/NetTests/testA", reason: "r", origin: "ripple.yml:4")]
    let result = Quarantine.apply(
      rules, to: Self.run([Self.test("testA", .failed), Self.test("testB", .failed)]), today: "2026-11-25")
    #expect(result.packages[0].status == .failed)
    #expect(throws: TestRunnerError.testsFailed(count: 1, packages: ["."])) { try result.check() }
  }

  @Test func anExpiredEntryContainsNothingAndIsNamed() {
    let rules = [
      QuarantineRule(pattern: "CoreTests", reason: "slow CI", until: "2026-11-24", origin: "ripple.yml:7"),
      QuarantineRule(pattern: "CoreTests/Other", reason: "still on", until: "2026-11-25", origin: "ripple.yml:10"),
    ]
    let result = Quarantine.apply(rules, to: Self.run([Self.test("testA", .failed)]), today: "2026-11-25")
    #expect(result.packages[0].status == .failed)
    #expect(result.totals.quarantined == 0)
    let warnings = Quarantine.warnings(rules, today: "2026-11-25")
    #expect(warnings.count == 1, "the last day still holds")
    #expect(
      warnings.first?.hasPrefix("ripple.yml:7: the quarantine of `CoreTests` ended on 2026-11-24 (slow CI)") == true)
  }
}

/// The outcome history behind `ripple flaky`.
@Suite struct OutcomeHistoryTests {
  static let day: TimeInterval = 86_400
  static let now = Date(timeIntervalSince1970: 1_795_000_000)

  static func result(flaky: Bool, failed: Bool = false) -> TestRunResult {
    var a = FlakyQuarantineTests.test("testA", failed ? .failed : .passed)
    a.flaky = flaky
    return FlakyQuarantineTests.run([
      a, FlakyQuarantineTests.test("testB", .passed), FlakyQuarantineTests.test("testC", .skipped),
    ])
  }

  @Test func flakeRateIsFlakyRunsOverRunsInTheWindow() throws {
    var history = OutcomeHistory()
    history.record(Self.result(flaky: true), at: Self.now - 40 * Self.day)
    history.record(Self.result(flaky: true), at: Self.now - 2 * Self.day)
    history.record(Self.result(flaky: false), at: Self.now - 1 * Self.day)
    history.record(Self.result(flaky: false, failed: true), at: Self.now - 1 * Self.day)
    history.record(Self.result(flaky: true), at: Self.now)
    let tests = history.flakyTests(since: Self.now - 30 * Self.day, now: Self.now)
    #expect(tests.count == 1, "testB was never flaky; testC was skipped")
    let a = try #require(tests.first)
    #expect(a.test == "CoreTests.NetTests/testA" && a.package == ".")
    #expect(a.runs == 4 && a.flakyRuns == 2 && a.failedRuns == 1 && a.rate == 0.5)
    #expect(a.firstSeen == Self.now - 2 * Self.day && a.lastSeen == Self.now)
    #expect(history.tests[".|CoreTests.NetTests/testC"] == nil)
    #expect(history.flakyTests(since: Self.now - 50 * Self.day, now: Self.now).first?.runs == 5)
  }

  @Test func oldDaysArePrunedOnRecord() {
    var history = OutcomeHistory()
    history.record(Self.result(flaky: true), at: Self.now - 200 * Self.day)
    history.record(Self.result(flaky: false), at: Self.now)
    #expect(history.tests[".|CoreTests.NetTests/testA"]?.days.count == 1)
    #expect(history.tests[".|CoreTests.NetTests/testA"]?.flakyAt.isEmpty == true)
  }

  @Test func sortedByRateThenFlakyRuns() {
    var history = OutcomeHistory()
    var often = FlakyQuarantineTests.test("often", .passed)
    often.flaky = true
    var once = FlakyQuarantineTests.test("once", .passed)
    history.record(FlakyQuarantineTests.run([often, once]), at: Self.now)
    once.flaky = true
    history.record(FlakyQuarantineTests.run([often, once]), at: Self.now)
    #expect(
      history.flakyTests(since: Self.now - Self.day, now: Self.now).map(\.test) == [
        "CoreTests.NetTests/often", "CoreTests.NetTests/once",
      ])
  }

  /// Beyond the cap, the tests that ran longest ago go first (renamed or deleted tests), whatever their counts.
  @Test func beyondTheCapTheTestsThatRanLongestAgoAreDropped() {
    var history = OutcomeHistory()
    for (index, name) in ["gone", "old", "recent"].enumerated() {
      var test = FlakyQuarantineTests.test(name, .passed)
      test.flaky = name == "gone"
      history.record(
        FlakyQuarantineTests.run([test]), at: Self.now - Double(3 - index) * Self.day, now: Self.now, maxTests: 2)
    }
    #expect(history.tests.keys.sorted() == [".|CoreTests.NetTests/old", ".|CoreTests.NetTests/recent"])
    history.record(FlakyQuarantineTests.run([FlakyQuarantineTests.test("old", .passed)]), at: Self.now, maxTests: 1)
    #expect(history.tests.keys.sorted() == [".|CoreTests.NetTests/old"], "ran today: kept")
    #expect(OutcomeHistory.keptDays == 90 && OutcomeHistory.maxTests == 50_000)
    for day in 1...3 {
      history.record(
        FlakyQuarantineTests.run([FlakyQuarantineTests.test("daily", .passed)]), at: Self.now - Double(day) * Self.day,
        now: Self.now)
    }
    history.keepNewest(10, maxDayEntries: 3)
    #expect(
      history.tests.keys.sorted() == [".|CoreTests.NetTests/old"],
      "over 3 test-days: the test that ran longest ago goes")
  }

  /// Schema 2 is one line per test; a schema 1 file (one JSON document) is still read, and rewritten as lines.
  @Test func theStoreWritesOneLinePerTestAndReadsTheOldFormat() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outcomes-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = OutcomeStore(path: folder + "/outcomes.json")
    var history = OutcomeHistory()
    // 2,500 tests over 20 days, one run a day (each `record` prunes the whole history, as once per real run).
    for day in 0..<20 {
      let tests = stride(from: day, to: 2500, by: 20).map { index in
        var test = FlakyQuarantineTests.test("test\(index)", index % 3 == 0 ? .failed : .passed)
        test.flaky = index % 7 == 0
        return test
      }
      history.record(FlakyQuarantineTests.run(tests), at: Self.now - Double(day) * Self.day, now: Self.now)
    }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    try encoder.encode(history).write(to: URL(fileURLWithPath: store.path))
    let old = store.load()
    #expect(old.warning == nil && old.history == history)
    try store.save(old.history)
    let lines = try String(contentsOfFile: store.path, encoding: .utf8).split(separator: "\n")
    #expect(lines.first == #"{"schemaVersion":2}"# && lines.count == 2501)
    #expect(store.load().history == history)
  }

  @Test func theStoreRoundTripsAndIgnoresACorruptFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outcomes-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = OutcomeStore(besideTimings: folder + "/ripple/timings.json")
    #expect(store.path == folder + "/ripple/outcomes.json")
    #expect(store.load().history == OutcomeHistory() && store.load().warning == nil)
    var history = OutcomeHistory()
    history.record(Self.result(flaky: true), at: Self.now)
    try store.save(history)
    #expect(store.load().history == history)
    try Data("{not json".utf8).write(to: URL(fileURLWithPath: store.path))
    let (empty, warning) = store.load()
    #expect(empty == OutcomeHistory())
    #expect(warning?.contains("ignoring unreadable test outcomes \(store.path)") == true)
  }

  @Test(arguments: [
    ("30", "--since 30 is not an age; write it as Nh, Nd or Nw, e.g. --since 30d."),
    ("d", "--since d is not an age"), ("", "--since  is not an age"), ("1.5d", "--since 1.5d is not an age"),
    ("abc", "--since abc is not an age"), ("3 d", "--since 3 d is not an age"),
    ("3m", "--since 3m: unknown unit `m`; use h (hours), d (days) or w (weeks)."),
    ("3D", "--since 3D: unknown unit `D`"),
    ("0d", "--since 0d is an empty window; the shortest is 1d."), ("-0h", "--since -0h is an empty window"),
    ("-3d", "--since -3d is negative; the window reaches back from now"),
    ("36501d", "--since 36501d is longer than the largest window, 36500d (100 years"),
    ("876001h", "--since 876001h is longer than the largest window, 876000h"),
    ("5215w", "--since 5215w is longer than the largest window, 5214w"),
    ("99999999999999d", "--since 99999999999999d is longer than the largest window, 36500d"),
    ("99999999999999999999999w", "--since 99999999999999999999999w is longer than the largest window, 5214w"),
  ])
  func aBadWindowIsRefusedWithAMessageNamingTheFlag(text: String, message: String) {
    #expect(throws: FlakyWindowError.self) { try FlakyWindow.parse(text) }
    do {
      _ = try FlakyWindow.parse(text)
    } catch {
      #expect(error.description.hasPrefix(message), "\(error.description)")
    }
  }

  @Test func windowsUpToTheLargestAreAccepted() throws {
    #expect(try FlakyWindow.parse("30d").seconds == 30 * Self.day)
    #expect(try FlakyWindow.parse("12h").seconds == TimeInterval(43_200))
    #expect(try FlakyWindow.parse("2w").seconds == 14 * Self.day)
    #expect(try FlakyWindow.parse("+2w").seconds == 14 * Self.day)
    #expect(try FlakyWindow.parse("36500d").seconds == 36_500 * Self.day)
    #expect(try FlakyWindow.parse("876000h").seconds == 36_500 * Self.day)
    // The largest window still finds today's flake (the unbounded one wrapped to a day after every other).
    var history = OutcomeHistory()
    history.record(Self.result(flaky: true), at: Self.now)
    let largest = try FlakyWindow.parse("\(FlakyWindow.maximumDays)d")
    #expect(history.flakyTests(since: Self.now - largest.seconds, now: Self.now).count == 1)
  }

  /// A day key after today (a wrong clock, a hand edit) or no day at all counted in every window, being
  /// compared as text; now it counts in none and is named in a warning.
  @Test func daysAfterTodayAndKeysThatAreNoDaysCountInNoWindow() throws {
    var history = OutcomeHistory()
    history.record(Self.result(flaky: true), at: Self.now)
    let real = ".|CoreTests.NetTests/testA"
    history.tests[real]?.days["9999-12-31"] = .init(runs: 50, flaky: 50)
    history.tests[real]?.flakyAt.append(Date(timeIntervalSince1970: 253_402_214_400))  // 9999-12-31
    history.tests[".|CoreTests.NetTests/future"] = .init(
      package: ".", test: "CoreTests.NetTests/future", days: ["9999-12-31": .init(runs: 1, flaky: 1)])
    history.tests[".|CoreTests.NetTests/garbage"] = .init(
      package: ".", test: "CoreTests.NetTests/garbage",
      days: ["someday": .init(runs: 1, flaky: 1), "2026-02-30": .init(runs: 1, flaky: 1)])
    for window in [Self.day, 30 * Self.day, 36_500 * Self.day] {
      let tests = history.flakyTests(since: Self.now - window, now: Self.now)
      #expect(tests.map(\.test) == ["CoreTests.NetTests/testA"])
      #expect(tests.first?.runs == 1 && tests.first?.flakyRuns == 1 && tests.first?.lastSeen == Self.now)
    }
    let today = OutcomeHistory.day(Self.now)
    #expect(
      history.unusableDays(today: today).map(\.day) == ["2026-02-30", "9999-12-31", "someday"])
    let store = OutcomeStore(path: "/x/outcomes.json")
    let warnings = store.warnings(for: history, today: today)
    #expect(
      warnings.contains(
        "ignoring `9999-12-31` in test outcomes /x/outcomes.json: a day after today (2026-11-18); it holds "
          + ".|CoreTests.NetTests/future, .|CoreTests.NetTests/testA"), "\(warnings)")
    #expect(warnings.contains { $0.hasPrefix("ignoring `someday` in test outcomes /x/outcomes.json: not a day") })
    // A window starting after today is empty, not a crash.
    #expect(history.flakyTests(since: Self.now + Self.day, now: Self.now).isEmpty)
    // The next record drops them: the file heals.
    history.record(Self.result(flaky: false), at: Self.now)
    #expect(history.unusableDays(today: today).isEmpty)
    #expect(history.tests[real]?.flakyAt == [Self.now])
  }

  @Test(arguments: [
    ("2026-11-18", true), ("2024-02-29", true), ("2000-02-29", true), ("1900-02-29", false), ("2026-02-29", false),
    ("2026-13-01", false), ("2026-00-10", false), ("2026-04-31", false), ("2026-1-18", false), ("2026-11-18x", false),
    ("20261118xx", false), ("+026-11-18", false),
  ])
  func dayKeys(key: String, isDay: Bool) {
    #expect(OutcomeHistory.isDay(key) == isDay)
  }

  @Test func rendering() throws {
    var history = OutcomeHistory()
    history.record(Self.result(flaky: true), at: Self.now)
    history.record(Self.result(flaky: false), at: Self.now)
    let tests = history.flakyTests(since: Self.now - Self.day, now: Self.now)
    let text = FlakyReport.text(tests, since: "30d")
    #expect(text.contains(" 50%         1/2  2026-11-18 11:06  2026-11-18 11:06  CoreTests.NetTests/testA\n"))
    #expect(text.hasSuffix("1 flaky test in the last 30d.\n"))
    #expect(FlakyReport.text([], since: "7d") == "No flaky test in the last 7d.\n")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(FlakyReport.json(tests, since: "30d").utf8)) as? [String: Any])
    let first = try #require((object["tests"] as? [[String: Any]])?.first)
    #expect(first["rate"] as? Double == 0.5 && first["flakyRuns"] as? Int == 2 - 1 && first["runs"] as? Int == 2)
    #expect(first["firstSeen"] as? String == "2026-11-18T11:06:40Z")
  }
}
