import Foundation
import Testing

@testable import TestRunner

/// The live status line fits the terminal (it never wraps) and is erased when the run ends.
@Suite struct StatusLineTests {
  static let names = [
    "AppTests QuadSuite/aVeryLongTestNameThatDescribesExactlyWhatItChecksInGreatDetail()",
    "UnicodeTests 测试套件/数据库连接在超时之后应该重新建立并且保留所有未提交的事务()",
    "EmojiTests Rocket/🚀launchesThe🛰️SatelliteIntoOrbit🌍()",
    "AccentTests Cafe\u{301}/re\u{301}sume\u{301}EveryCafe\u{301}InTheCity()",
  ]

  @Test func displayWidthCountsColumns() {
    #expect(DisplayWidth.of("abc") == 3)
    #expect(DisplayWidth.of("测试") == 4)
    #expect(DisplayWidth.of("🚀") == 2)
    #expect(DisplayWidth.of("🛰️") == 2, "text-style emoji made wide by VS16")
    #expect(DisplayWidth.of("e\u{301}") == 1, "a combining accent takes no column")
    #expect(DisplayWidth.of("—…") == 2)
  }

  @Test func cutsInTheMiddle() {
    #expect(DisplayWidth.truncatingMiddle("abcdefghij", to: 5) == "ab…ij")
    #expect(DisplayWidth.truncatingMiddle("abcdefghij", to: 10) == "abcdefghij")
    #expect(DisplayWidth.truncatingMiddle("abcdefghij", to: 1) == "…")
    #expect(DisplayWidth.truncatingMiddle("abcdefghij", to: 0) == "")
    #expect(DisplayWidth.truncatingMiddle("测试测试测试", to: 6) == "测…试", "a wide character is never split")
    #expect(DisplayWidth.truncatingEnd("abcdefghij", to: 4) == "abc…")
  }

  @Test(arguments: [0, 1, 2, 3, 5, 8, 12, 20, 32, 40, 60, 80, 200])
  func theLineNeverTakesTheLastColumn(columns: Int) {
    for name in Self.names {
      let line = StatusLine(prefix: "[12.34s] ", subject: name, suffix: " — 120 passed, 3 failed")
      let fitted = line.fitted(columns: columns)
      #expect(DisplayWidth.of(fitted) <= max(0, columns - 1), "\(columns) columns: \(fitted)")
      #expect(!fitted.contains("\n"))
      if DisplayWidth.of(line.text) < columns {
        #expect(fitted == line.text, "a line that fits is kept whole")
      } else if columns >= 40 {
        #expect(fitted.hasPrefix("[12.34s] " + name.prefix(3)), "\(fitted)")
        #expect(fitted.hasSuffix("() — 120 passed, 3 failed"), "the counts and the end of the name stay: \(fitted)")
        #expect(fitted.contains("…"))
      } else if columns > 1 {
        #expect(fitted.hasSuffix("…"), "too narrow for the counts: cut at the end: \(fitted)")
      }
    }
  }

  @Test func controlCharactersInANameDoNotBreakTheLine() {
    let fitted = StatusLine(prefix: "[1s] ", subject: "T weird\nname\t()", suffix: " — 0 passed").fitted(columns: 80)
    #expect(fitted == "[1s] T weird name ()" + " — 0 passed")
  }

  @Test func theWidthComesFromTheTerminalThenColumnsThen80() {
    #expect(TerminalWidth.resolve(reported: 132, columnsVariable: "50") == 132)
    #expect(TerminalWidth.resolve(reported: nil, columnsVariable: "50") == 50)
    #expect(TerminalWidth.resolve(reported: 0, columnsVariable: nil) == 80)
    #expect(TerminalWidth.resolve(reported: nil, columnsVariable: "wide") == 80)
    #expect(TerminalWidth.resolve(reported: nil, columnsVariable: "-3") == 80)
  }

  static func events(testName: String) -> [TestRunEvent] {
    let test = TestCaseResult(suite: "Suite", name: testName, framework: .swiftTesting, status: .passed)
    return [
      .started(packages: 1, targets: 1, wholePackages: 0), .building(package: "."),
      .built(package: ".", succeeded: true, seconds: 2),
      .testing(package: ".", targets: ["SomeRatherLongTargetNameTests"], attempt: 1),
      .testFinished(package: ".", target: "SomeRatherLongTargetNameTests", test: test),
    ]
  }

  /// What a `ProgressWriter` on a terminal `columns` wide writes for `events`, then `finish()`.
  static func written(_ events: [TestRunEvent], columns: Int, finishedTwice: Bool = false) throws -> String {
    let pipe = Pipe()
    let writer = ProgressWriter(handle: pipe.fileHandleForWriting, interactive: true, columns: { columns })
    for event in events { writer.handle(event) }
    writer.finish()
    if finishedTwice { writer.finish() }
    try pipe.fileHandleForWriting.close()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  @Test(arguments: [10, 30, 50])
  func theWriterFitsEveryStatusLineAndErasesItAtTheEnd(columns: Int) throws {
    let output = try Self.written(
      Self.events(testName: "aTestWhoseNameIsFarLongerThanTheTerminalIsWide()"), columns: columns)
    let erase = "\r\u{1B}[2K"
    // Every redraw starts with an erase; what follows it up to the next one is the status line.
    let statuses = output.components(separatedBy: erase).dropFirst().map { $0.components(separatedBy: "\n").last! }
    #expect(statuses.count >= 3)
    for status in statuses { #expect(DisplayWidth.of(status) < columns, "\(status)") }
    #expect(output.hasSuffix(erase), "the status line is erased when the run ends: \(output.debugDescription)")
  }

  @Test func finishingErasesOnlyWhatIsShowing() throws {
    let erase = "\r\u{1B}[2K"
    let events = Self.events(testName: "t()")
    let finished = TestRunEvent.finished(TestRunResult(packages: []))
    // The finished event erases the line already: nothing more to erase.
    let normal = try Self.written(events + [finished], columns: 80, finishedTwice: true)
    #expect(normal.hasSuffix(erase) && !normal.hasSuffix(erase + erase))
    // A run that threw never sends it: `finish()` erases, once.
    let thrown = try Self.written(events, columns: 80, finishedTwice: true)
    #expect(thrown.hasSuffix("failed" + erase), "\(thrown.debugDescription)")
  }
}
