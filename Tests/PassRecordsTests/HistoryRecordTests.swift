import Crypto
import Foundation
import Testing

@testable import PassRecords

private let now = Date(timeIntervalSince1970: 1_800_000_000)
private let trustedSigner = Curve25519.Signing.PrivateKey()
private let strangerSigner = Curve25519.Signing.PrivateKey()

private func slot(_ scope: String = "protected", slot: Int = 0, time: Date = now) -> HistoryRecord {
  var record = HistoryRecord(namespace: "github.com/org/app", scope: scope, slot: slot, writer: "ci", time: time)
  record.targets[".:AppTests"] = .init(seconds: 3, suites: ["A": 2, "B": 1], tests: ["A/a()": 2], time: time)
  return record
}

private func policy(branch: String, protected: Bool) -> TrustPolicy {
  TrustPolicy(
    trustedKeys: [("ci-main", trustedSigner.publicKey)], branch: branch, branchIsProtected: protected, now: now)
}

private func judge(_ data: Data, branch: String, protected: Bool, scope: String = "protected", slot: Int = 0)
  -> String?
{
  switch policy(branch: branch, protected: protected).judgeHistory(
    data, namespace: "github.com/org/app", scope: scope, slot: slot)
  {
  case .trusted: return nil
  case .ignored(let reason): return reason
  }
}

@Suite("Shared history: one record per scope and slot, the pass records' trust rules")
struct HistoryRecordTests {
  @Test func everySlotScopeAndRepositoryHasAKeyOfItsOwn() {
    var keys: Set<RecordKey> = []
    for namespace in ["github.com/org/app", "github.com/org/other"] {
      for scope in ["protected", "branch:main", "branch:feature/x"] {
        for index in 0..<HistoryRecord.slots {
          keys.insert(HistoryRecord.key(namespace: namespace, scope: scope, slot: index))
        }
      }
    }
    #expect(keys.count == 2 * 3 * HistoryRecord.slots)
  }

  @Test func theProtectedHistoryIsBelievedOnlySigned() throws {
    let signed = try RecordEnvelope.seal(slot(), signingKey: trustedSigner)
    #expect(judge(signed, branch: "main", protected: true) == nil)
    #expect(judge(signed, branch: "feature/x", protected: false) == nil)
    // A pull request's job with store credentials writes main's slot: nobody believes it.
    let forged = try RecordEnvelope.seal(slot(), signingKey: nil)
    #expect(judge(forged, branch: "feature/x", protected: false)?.contains("unsigned") == true)
    #expect(judge(forged, branch: "main", protected: true)?.contains("unsigned") == true)
    let stranger = try RecordEnvelope.seal(slot(), signingKey: strangerSigner)
    #expect(judge(stranger, branch: "main", protected: true)?.contains("signature") == true)
  }

  @Test func aBranchBelievesItsOwnUnsignedHistoryAndNoOtherBranchs() throws {
    let own = try RecordEnvelope.seal(slot("branch:feature/x"), signingKey: nil)
    #expect(judge(own, branch: "feature/x", protected: false, scope: "branch:feature/x") == nil)
    // Read as another branch's scope (it names feature/x), or by another branch: ignored.
    #expect(judge(own, branch: "feature/y", protected: false, scope: "branch:feature/x") != nil)
    #expect(judge(own, branch: "feature/y", protected: false, scope: "branch:feature/y") != nil)
  }

  @Test func aRecordMovedToAnotherSlotScopeOrRepositoryOrFromTheFutureIsIgnored() throws {
    let data = try RecordEnvelope.seal(slot(), signingKey: trustedSigner)
    #expect(judge(data, branch: "main", protected: true, slot: 1)?.contains("another place") == true)
    #expect(judge(data, branch: "main", protected: true, scope: "branch:main")?.contains("another place") == true)
    let future = try RecordEnvelope.seal(slot(time: now.addingTimeInterval(3600)), signingKey: trustedSigner)
    #expect(judge(future, branch: "main", protected: true)?.contains("future") == true)
    #expect(judge(Data("{}".utf8), branch: "main", protected: true) != nil)
    let record = try RecordEnvelope.seal(
      PassRecord(
        key: HistoryRecord.key(namespace: "x", scope: "protected", slot: 0), package: ".", target: "T", commit: "c",
        branch: "main", run: "r", writer: "w", time: now, duration: 1, tests: [:]),
      signingKey: trustedSigner)
    #expect(judge(record, branch: "main", protected: true)?.contains("not a shared history") == true)
  }

  @Test func mergingSlotsKeepsTheNewestTimesAndAddsOutcomeCounts() {
    var a = slot(time: now.addingTimeInterval(-60))
    var b = slot(slot: 1)
    b.targets[".:AppTests"]?.seconds = 5
    a.outcomes["x"] = .init(package: ".", test: "AppTests.A/a()", days: ["2027-01-15": .init(runs: 2, flaky: 1)])
    b.outcomes["x"] = .init(package: ".", test: "AppTests.A/a()", days: ["2027-01-15": .init(runs: 3, failed: 1)])
    a.greens = [.init(commit: "c1", branch: "main", time: now, run: "r1", shard: nil, all: true, base: nil)]
    b.greens = a.greens + [.init(commit: "c2", branch: "main", time: now, run: "r2", shard: nil, all: true, base: nil)]
    a.merge(b)
    #expect(a.targets[".:AppTests"]?.seconds == 5)
    #expect(a.outcomes["x"]?.days["2027-01-15"] == .init(runs: 5, flaky: 1, failed: 1))
    #expect(a.greens.map(\.commit) == ["c1", "c2"])
  }

  @Test func aHistoryOf100000TestsIsBoundedBelowTheStoresLimitKeepingTheHeaviestSuites() throws {
    var record = slot()
    for target in 0..<100 {
      var suites: [String: Double] = [:]
      var tests: [String: Double] = [:]
      for suite in 0..<20 {
        suites["Suite\(suite)"] = Double(suite + 1)
        for test in 0..<50 { tests["Suite\(suite)/testSomethingLongerThanUsual\(test)()"] = 0.01 }
      }
      record.targets["Packages/Feature\(target):Feature\(target)Tests"] = .init(
        seconds: 210, suites: suites, tests: tests, time: now)
    }
    record.outcomes["old"] = .init(package: ".", test: "T.S/t", days: ["2020-01-01": .init(runs: 1, failed: 1)])
    record.outcomes["future"] = .init(package: ".", test: "T.S/u", days: ["9999-12-31": .init(runs: 1, flaky: 1)])
    record.bound(now: now)
    let size = try RecordEnvelope.seal(record, signingKey: trustedSigner).count
    #expect(size <= 4 << 20)
    // Every suite total stays; per-test times stay for the heaviest suites.
    let times = try #require(record.targets["Packages/Feature7:Feature7Tests"])
    #expect(times.suites.count == 20)
    #expect(times.tests.keys.contains { $0.hasPrefix("Suite19/") })
    #expect(!times.tests.keys.contains { $0.hasPrefix("Suite0/") })
    #expect(record.outcomes.isEmpty, "days outside the kept window go")
  }
}
