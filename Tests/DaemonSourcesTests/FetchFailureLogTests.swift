import Foundation
import Testing

@testable import DaemonSources

/// A failing fetch logs its first failure, then once a minute until it recovers (issue 48's lows).
@Suite struct FetchFailureLogTests {
  @Test func theFirstFailureAndThenOneAMinuteAreLogged() {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(FetchFailureLog.shouldLog(failures: 1, lastLogged: nil, now: start))
    #expect(!FetchFailureLog.shouldLog(failures: 2, lastLogged: start, now: start.addingTimeInterval(5)))
    #expect(!FetchFailureLog.shouldLog(failures: 12, lastLogged: start, now: start.addingTimeInterval(59)))
    #expect(FetchFailureLog.shouldLog(failures: 13, lastLogged: start, now: start.addingTimeInterval(60)))
    // After a recovery the next failure is a first one again.
    #expect(FetchFailureLog.shouldLog(failures: 1, lastLogged: start, now: start.addingTimeInterval(1)))
  }
}
