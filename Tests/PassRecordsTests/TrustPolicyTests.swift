import Crypto
import Foundation
import Testing

@testable import PassRecords

private let key = KeyInputs([.init("target", ".:CoreTests", "CoreTests@1")]).key
private let otherKey = KeyInputs([.init("target", ".:CoreTests", "CoreTests@2")]).key
private let now = Date(timeIntervalSince1970: 1_800_000_000)
private let trustedSigner = Curve25519.Signing.PrivateKey()
private let strangerSigner = Curve25519.Signing.PrivateKey()

private func record(branch: String = "main", key: RecordKey = key, target: String = "CoreTests", time: Date = now)
  -> PassRecord
{
  PassRecord(
    key: key, package: ".", target: target, commit: "1a2b3c4d5e6f", branch: branch, run: "run 7", writer: "ci",
    time: time.addingTimeInterval(-7200), duration: 1.5, tests: ["MathTests/testAdd": 0.01])
}

private func policy(branch: String, protected: Bool) -> TrustPolicy {
  TrustPolicy(
    trustedKeys: [("ci-main", trustedSigner.publicKey)], branch: branch, branchIsProtected: protected, now: now)
}

private func ignoredReason(_ verdict: TrustPolicy.Verdict) -> String? {
  if case .ignored(let reason) = verdict { return reason }
  return nil
}

@Suite("Pass records: which records a run believes (CREEP)")
struct TrustPolicyTests {
  @Test func aRecordSignedByAListedKeyIsBelievedByEveryBranch() throws {
    let data = try RecordEnvelope.seal(record(), signingKey: trustedSigner)
    for (branch, protected) in [("main", true), ("feature/x", false)] {
      let verdict = policy(branch: branch, protected: protected).judge(data, key: key, unit: ".:CoreTests")
      #expect(verdict == .trusted(record(), signer: "ci-main"))
    }
  }

  @Test func aProtectedBranchBelievesNoUnsignedRecordNotEvenOneClaimingToBeItsOwn() throws {
    // A pull request's job with store credentials writes the key main will compute (CVE-2025-36852).
    let forged = try RecordEnvelope.seal(record(branch: "main"), signingKey: nil)
    let reason = ignoredReason(policy(branch: "main", protected: true).judge(forged, key: key, unit: ".:CoreTests"))
    #expect(reason?.contains("unsigned") == true)
  }

  @Test func anotherBranchBelievesItsOwnUnsignedRecordsOnly() throws {
    let own = try RecordEnvelope.seal(record(branch: "feature/x"), signingKey: nil)
    let other = try RecordEnvelope.seal(record(branch: "feature/y"), signingKey: nil)
    let reader = policy(branch: "feature/x", protected: false)
    #expect(reader.judge(own, key: key, unit: ".:CoreTests") == .trusted(record(branch: "feature/x"), signer: nil))
    #expect(ignoredReason(reader.judge(other, key: key, unit: ".:CoreTests"))?.contains("another branch") == true)
  }

  /// Store write access is not push access (issue 48): from a store others write too, a branch's own unsigned
  /// record is ignored, saying why; signed records still count there.
  @Test func aBranchsOwnUnsignedRecordFromAStoreOthersWriteIsIgnored() throws {
    let own = try RecordEnvelope.seal(record(branch: "feature/x"), signingKey: nil)
    var reader = policy(branch: "feature/x", protected: false)
    reader.unsignedRefused = "s3://team is written by others too"
    let reason = ignoredReason(reader.judge(own, key: key, unit: ".:CoreTests"))
    #expect(reason == "an unsigned pass record (s3://team is written by others too)")
    let signed = try RecordEnvelope.seal(record(branch: "main"), signingKey: trustedSigner)
    #expect(reader.judge(signed, key: key, unit: ".:CoreTests") == .trusted(record(branch: "main"), signer: "ci-main"))
  }

  @Test func aRecordSignedByAnUnknownKeyIsIgnored() throws {
    let data = try RecordEnvelope.seal(record(), signingKey: strangerSigner)
    for protected in [true, false] {
      let reason = ignoredReason(
        policy(branch: "main", protected: protected).judge(data, key: key, unit: ".:CoreTests"))
      #expect(reason?.contains("not in test.resultCache.publicKeys") == true)
    }
  }

  @Test func aSignatureOverOtherBytesDoesNotVerify() throws {
    // The signature of one record moved onto another (a longer duration, another commit): same signer.
    let genuine = try JSONDecoder().decode(
      RecordEnvelope.self, from: try RecordEnvelope.seal(record(), signingKey: trustedSigner))
    var altered = record()
    altered.commit = "ffffffffffff"
    var forged = try JSONDecoder().decode(RecordEnvelope.self, from: try RecordEnvelope.seal(altered, signingKey: nil))
    forged.signature = genuine.signature
    let data = try JSONEncoder().encode(forged)
    let reason = ignoredReason(policy(branch: "main", protected: true).judge(data, key: key, unit: ".:CoreTests"))
    #expect(reason?.contains("does not verify") == true)
  }

  @Test func aRecordForAnotherKeyOrTargetIsIgnored() throws {
    let reader = policy(branch: "main", protected: true)
    let other = try RecordEnvelope.seal(record(key: otherKey), signingKey: trustedSigner)
    #expect(ignoredReason(reader.judge(other, key: key, unit: ".:CoreTests"))?.contains("another key") == true)
    let target = try RecordEnvelope.seal(record(target: "NetTests"), signingKey: trustedSigner)
    #expect(ignoredReason(reader.judge(target, key: key, unit: ".:CoreTests"))?.contains("another target") == true)
  }

  @Test func aRecordFromTheFutureIsIgnored() throws {
    let data = try RecordEnvelope.seal(record(time: now.addingTimeInterval(86400 * 365)), signingKey: trustedSigner)
    let reason = ignoredReason(policy(branch: "main", protected: true).judge(data, key: key, unit: ".:CoreTests"))
    #expect(reason?.contains("in the future") == true)
  }

  @Test func truncatedGarbageAndOtherVersionsAreIgnored() throws {
    let data = try RecordEnvelope.seal(record(), signingKey: trustedSigner)
    let reader = policy(branch: "main", protected: true)
    #expect(
      ignoredReason(reader.judge(data.prefix(data.count / 2), key: key, unit: ".:CoreTests")) == "not a pass record")
    #expect(ignoredReason(reader.judge(Data("<html>500</html>".utf8), key: key, unit: ".:CoreTests")) != nil)
    var envelope = try JSONDecoder().decode(RecordEnvelope.self, from: data)
    envelope.version = 2
    let future = try JSONEncoder().encode(envelope)
    #expect(ignoredReason(reader.judge(future, key: key, unit: ".:CoreTests"))?.contains("version 2") == true)
  }
}

@Suite("Pass records: keys")
struct KeyInputsTests {
  @Test func theKeyIsTheSameWhateverOrderInputsCameIn() {
    var a = KeyInputs()
    a.add("file", "Sources/Core/A.swift", "1111")
    a.add("toolchain", "swift --version", "6.3.1")
    var b = KeyInputs()
    b.add("toolchain", "swift --version", "6.3.1")
    b.add("file", "Sources/Core/A.swift", "1111")
    #expect(a.key == b.key)
    b.add("file", "Sources/Core/B.swift", "2222")
    #expect(a.key != b.key)
  }

  @Test func noValueCanForgeAnotherEntry() {
    // One entry whose value spells a line break and a second entry must not equal the two entries.
    let one = KeyInputs([.init("file", "a", "1\nfile\tb\t2")])
    let two = KeyInputs([.init("file", "a", "1"), .init("file", "b", "2")])
    #expect(one.key != two.key)
    #expect(!one.canonicalText.dropFirst().dropLast().contains("\nfile\tb"))
  }

  @Test func aKeyIsSixtyFourLowercaseHexDigitsAndNothingAPathCouldInterpret() {
    #expect(RecordKey(hex: String(repeating: "a", count: 64)) != nil)
    for hostile in [
      "../" + String(repeating: "a", count: 61), String(repeating: "a", count: 63) + "/",
      String(repeating: "A", count: 64), String(repeating: "a", count: 63), String(repeating: "a", count: 65), "",
    ] {
      #expect(RecordKey(hex: hostile) == nil, "\(hostile)")
    }
    let decoded = try? JSONDecoder().decode([RecordKey].self, from: Data("[\"../../etc/passwd\"]".utf8))
    #expect(decoded == nil)
  }

  @Test func protectedBranchPatterns() {
    #expect(BranchPattern.matches("main", ["main"]))
    #expect(BranchPattern.matches("release/1.2", ["release/*"]))
    #expect(!BranchPattern.matches("release/1.2/hotfix", ["release/*"]))
    #expect(BranchPattern.matches("release/1.2/hotfix", ["release/**"]))
    #expect(!BranchPattern.matches("main-fork", ["main"]))
    #expect(!BranchPattern.matches("xmain", ["main"]))
  }
}
