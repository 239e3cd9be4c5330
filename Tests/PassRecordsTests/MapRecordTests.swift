import Crypto
import Foundation
import Testing

@testable import PassRecords

private let now = Date(timeIntervalSince1970: 1_800_000_000)
private let trustedSigner = Curve25519.Signing.PrivateKey()
private let strangerSigner = Curve25519.Signing.PrivateKey()
private let commit = String(repeating: "a", count: 40)

private func record(commit: String = commit, target: String = "CoreTests", time: Date = now) -> MapRecord {
  MapRecord(
    package: ".", target: target, run: nil, commit: commit, key: RecordKey(hex: String(repeating: "1", count: 64))!,
    map: MapRecord.blobKey(of: Data("map".utf8)), tests: 3, branch: "main", writer: "ci", time: time)
}

private func judge(
  _ data: Data, branch: String = "feature", protected: Bool = false, unsignedRefused: String? = nil,
  target: String = "CoreTests", onlyThisUsers: Bool = true
) -> String? {
  let policy = TrustPolicy(
    trustedKeys: [("ci-main", trustedSigner.publicKey)], branch: branch, branchIsProtected: protected, now: now,
    unsignedRefused: unsignedRefused)
  switch policy.judgeMap(
    data, commit: commit, package: ".", target: target, run: nil, storeIsOnlyThisUsers: onlyThisUsers)
  {
  case .trusted: return nil
  case .ignored(let reason): return reason
  }
}

/// A coverage map's record decides which tests are skipped: it is believed as a pass record is.
@Suite struct MapRecordTests {
  @Test func eachCommitTargetAndRunHasAKeyOfItsOwn() {
    var keys: Set<RecordKey> = []
    for commit in [commit, String(repeating: "b", count: 40)] {
      for target in ["CoreTests", "AppTests"] {
        for run in [nil, "server"] as [String?] {
          keys.insert(MapRecord.storeKey(commit: commit, package: ".", target: target, run: run))
        }
      }
    }
    #expect(keys.count == 8)
  }

  @Test func aSignedRecordIsBelievedEverywhereAndAStrangersNowhere() throws {
    let signed = try RecordEnvelope.seal(record(), signingKey: trustedSigner)
    #expect(judge(signed) == nil)
    #expect(judge(signed, branch: "main", protected: true) == nil)
    let stranger = try RecordEnvelope.seal(record(), signingKey: strangerSigner)
    #expect(judge(stranger)?.contains("signature is not of a listed key") == true)
  }

  @Test func anUnsignedRecordIsBelievedOnlyOffProtectedBranchesFromAStoreWhoseUnsignedWritersAreBelieved() throws {
    let unsigned = try RecordEnvelope.seal(record(), signingKey: nil)
    #expect(judge(unsigned) == nil)
    #expect(judge(unsigned, branch: "main", protected: true)?.contains("only signed maps count") == true)
    #expect(
      judge(unsigned, unsignedRefused: "a shared store")?.contains("an unsigned coverage map (a shared store)") == true)
    // A shared store whose team believes unsigned records (`unsignedRecords: any`): only the branch's own maps.
    #expect(judge(unsigned, onlyThisUsers: false)?.contains("an unsigned coverage map of another branch") == true)
    #expect(judge(unsigned, branch: "main", onlyThisUsers: false) == nil)
  }

  @Test func aRecordOfAnotherPlaceOrFromTheFutureOrNotARecordIsIgnored() throws {
    let other = try RecordEnvelope.seal(record(commit: String(repeating: "c", count: 40)), signingKey: trustedSigner)
    #expect(judge(other)?.contains("of another place") == true)
    let otherTarget = try RecordEnvelope.seal(record(target: "AppTests"), signingKey: trustedSigner)
    #expect(judge(otherTarget)?.contains("of another place") == true)
    let future = try RecordEnvelope.seal(record(time: now.addingTimeInterval(3600)), signingKey: trustedSigner)
    #expect(judge(future)?.contains("in the future") == true)
    let passRecord = try RecordEnvelope.seal(
      PassRecord(
        key: RecordKey(hex: String(repeating: "1", count: 64))!, package: ".", target: "CoreTests", commit: commit,
        branch: "main", run: "ci", writer: "ci", time: now, duration: 1, tests: [:]), signingKey: trustedSigner)
    #expect(judge(passRecord) == "not a coverage map record")
    #expect(judge(Data("garbage".utf8)) == "not a coverage map record")
  }
}
