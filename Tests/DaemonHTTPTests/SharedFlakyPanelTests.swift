import Crypto
import DaemonHTTPFixtures
import Foundation
import PassRecords
import RunModel
import RunStore
import Testing

@testable import DaemonHTTP

/// The flaky panel adds what CI runners recorded in the team's shared history in rippled's store (issue 41):
/// only the protected part, only signed by a key rippled trusts.
@Suite struct SharedFlakyPanelTests {
  static let remote = "git@github.com:org/app.git"
  static let namespace = HistoryNamespace.normalize(remote)

  static func slot(_ slot: Int, flakyTest: String, now: Date) -> HistoryRecord {
    var record = HistoryRecord(namespace: namespace, scope: "protected", slot: slot, writer: "ci", time: now)
    let outcome = HistoryRecord.Outcome(
      package: ".", test: flakyTest, days: [HistoryRecord.day(now): .init(runs: 4, flaky: 1)],
      flakyAt: [now.addingTimeInterval(-60)])
    record.outcomes[outcome.key] = outcome
    return record
  }

  @Test func aSignedSlotsFlakyTestIsShownAndAForgedOneIsNot() throws {
    let fixture = try RouterFixture()
    let now = Date()
    let rippledKey = Curve25519.Signing.PrivateKey()
    let signed = try RecordEnvelope.seal(
      Self.slot(0, flakyTest: "AppTests.CI/testSeenOnCI", now: now), signingKey: rippledKey)
    let forged = try RecordEnvelope.seal(Self.slot(1, flakyTest: "AppTests.PR/testForged", now: now), signingKey: nil)
    for (slot, data) in [(0, signed), (1, forged)] {
      try fixture.store.savePassRecord(
        HistoryRecord.key(namespace: Self.namespace, scope: "protected", slot: slot).hex, data, maxBytes: 1 << 24)
    }
    let panel = try FlakyPanelData.load(
      fixture.store, repositories: ["app"], now: now, remotes: ["app": Self.remote],
      trustedKeys: [("rippled", rippledKey.publicKey)])
    let tests = try #require(panel["app"])
    #expect(tests.map(\.test) == ["AppTests.CI/testSeenOnCI"])
    #expect(tests.first?.lastRun == 0 && tests.first?.flakyRuns == 1 && tests.first?.runs == 4)
    // Without a trusted key (records off, or unsigned), nothing from the shared history.
    let none = try FlakyPanelData.load(
      fixture.store, repositories: ["app"], now: now, remotes: ["app": Self.remote], trustedKeys: [])
    #expect(none["app"] == nil)
  }
}

@Suite struct SharedFlakyRowTests {
  @Test func aTestOnlyCIRunnersSawFlakyHasNoRunToLinkTo() {
    let now = Date()
    let ci = FlakyTest(
      package: ".", test: "AppTests.CI/testSeenOnCI", runs: 4, flakyRuns: 1, firstSeen: now, lastSeen: now, lastRun: 0)
    let own = FlakyTest(
      package: ".", test: "AppTests.Own/t", runs: 2, flakyRuns: 1, firstSeen: now, lastSeen: now, lastRun: 7)
    let merged = FlakyPanelData.merged(
      [own],
      [
        .init(package: ".", test: "AppTests.Own/t", runs: 9, flakyRuns: 9, firstSeen: now, lastSeen: now),
        .init(package: ".", test: ci.test, runs: 4, flakyRuns: 1, firstSeen: now, lastSeen: now),
      ])
    #expect(merged.map(\.test) == ["AppTests.Own/t", "AppTests.CI/testSeenOnCI"], "rippled's own row wins")
    #expect(merged == [own, ci])
  }
}
