import Foundation
import RippleCore
import Testing

@testable import Daemon

@Suite("run logs")
struct RunLogFileTests {
  @Test func aLogStopsAtItsCapWithALastLineAndAFailureIsReportedOnce() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("runlog-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let failures = Locked<[String]>([])
    let log = try RunLogFile(path: dir + "/run-1.log", limit: 100) { problem in failures.withLock { $0.append(problem) }
    }
    for index in 0..<50 { log.line("line \(index) of a long log") }
    log.close()
    let text = try String(contentsOfFile: dir + "/run-1.log", encoding: .utf8)
    #expect(text.hasPrefix("line 0 of a long log\n"))
    #expect(text.hasSuffix("[log cut at 100 bytes]\n"))
    #expect(text.utf8.count < 140)
    #expect(failures.withLock { $0.isEmpty })
  }

  @Test func aLogThatCannotBeCreatedThrows() {
    #expect(throws: (any Error).self) {
      _ = try RunLogFile(path: "/proc/rippled-cannot-write/run-1.log", limit: 100) { _ in }
    }
  }
}
