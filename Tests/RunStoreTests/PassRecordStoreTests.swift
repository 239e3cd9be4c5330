import Foundation
import Testing

@testable import RunStore

/// Migration v6: pass records by key, bounded by size, the least recently used first out.
@Suite struct PassRecordStoreTests {
  private func key(_ n: Int) -> String { String(format: "%064x", n) }

  @Test func aRecordRoundTripsAndASecondWriteReplacesItWhole() throws {
    try withStore(clock: TestClock()) { store, _ in
      #expect(try store.passRecord(key(1)) == nil)
      try store.savePassRecord(key(1), Data("first".utf8), maxBytes: 1000)
      try store.savePassRecord(key(1), Data("second".utf8), maxBytes: 1000)
      #expect(try store.passRecord(key(1)) == Data("second".utf8))
      #expect(try store.passRecordUsage().count == 1)
      #expect(try store.passRecordUsage().bytes == 6)
    }
  }

  @Test func overTheBoundTheLeastRecentlyUsedRecordsGoFirst() throws {
    try withStore(clock: TestClock()) { store, _ in
      let t0 = Date(timeIntervalSince1970: 1_000)
      for n in 1...4 {
        try store.savePassRecord(key(n), Data(repeating: 0x61, count: 100), maxBytes: 400, now: t0 + Double(n))
      }
      // Record 1 is read: record 2 is now the least recently used.
      #expect(try store.passRecord(key(1), now: t0 + 10) != nil)
      try store.savePassRecord(key(5), Data(repeating: 0x62, count: 100), maxBytes: 400, now: t0 + 11)
      #expect(try store.passRecord(key(2), now: t0 + 12) == nil)
      for n in [1, 3, 4, 5] { #expect(try store.passRecord(key(n), now: t0 + 13) != nil, "record \(n)") }
      #expect(try store.passRecordUsage().bytes <= 400)
    }
  }
}
