import Crypto
import Foundation
import Testing

@testable import PassRecords

private let key = KeyInputs([.init("target", ".:CoreTests", "CoreTests@1")]).key
private let now = Date(timeIntervalSince1970: 1_800_000_000)
private let mainSigner = Curve25519.Signing.PrivateKey()
private let strangerSigner = Curve25519.Signing.PrivateKey()

private func sealed(branch: String, signer: Curve25519.Signing.PrivateKey?) throws -> Data {
  let record = PassRecord(
    key: key, package: ".", target: "CoreTests", commit: "1a2b3c4d5e6f", branch: branch, run: "run 7", writer: "ci",
    time: now, duration: 1.5, tests: [:])
  return try RecordEnvelope.seal(record, signingKey: signer)
}

private let teamRule = RecordReplacement(trusting: [mainSigner.publicKey], protectedBranches: ["main", "release-*"])
private let anyKeyRule = RecordReplacement(trustedKeys: nil, protectedBranches: nil)

@Suite("Pass records: no write lowers trust")
struct RecordReplacementTests {
  @Test func nothingThereGarbageAndUnsignedRecordsAreReplaced() throws {
    let unsigned = try sealed(branch: "feature/x", signer: nil)
    for rule in [teamRule, anyKeyRule] {
      #expect(rule.decide(existing: nil, replacement: unsigned) == .replace)
      #expect(rule.decide(existing: Data("garbage".utf8), replacement: unsigned) == .replace)
      #expect(rule.decide(existing: try sealed(branch: "feature/y", signer: nil), replacement: unsigned) == .replace)
      // An unsigned record claiming a protected branch protects nothing: anyone could have written it.
      #expect(rule.decide(existing: try sealed(branch: "main", signer: nil), replacement: unsigned) == .replace)
    }
  }

  @Test func aSignedRecordIsNeverReplacedByAnUnsignedOneWhateverItsBranch() throws {
    for existing in [try sealed(branch: "main", signer: mainSigner), try sealed(branch: "x", signer: strangerSigner)] {
      for branch in ["main", "feature/x"] {
        for rule in [teamRule, anyKeyRule] {
          let decision = rule.decide(existing: existing, replacement: try sealed(branch: branch, signer: nil))
          #expect(decision == .keep(reason: "a signed record is never replaced by an unsigned one"))
        }
      }
    }
  }

  @Test func aForgedSignatureCountsAsNone() throws {
    var envelope = try JSONDecoder().decode(
      RecordEnvelope.self, from: try sealed(branch: "main", signer: mainSigner))
    let other = try JSONDecoder().decode(RecordEnvelope.self, from: try sealed(branch: "x", signer: mainSigner))
    envelope.signature = other.signature
    let forged = try JSONEncoder().encode(envelope)
    #expect(anyKeyRule.decide(existing: forged, replacement: try sealed(branch: "x", signer: nil)) == .replace)
  }

  @Test func aProtectedBranchsSignedRecordIsNeverReplacedByAnotherBranchs() throws {
    let main = try sealed(branch: "main", signer: mainSigner)
    let release = try sealed(branch: "release-1.x", signer: mainSigner)
    #expect(teamRule.decide(existing: main, replacement: release) != .replace)
    #expect(anyKeyRule.decide(existing: main, replacement: release) != .replace)
    #expect(teamRule.decide(existing: main, replacement: try sealed(branch: "main", signer: mainSigner)) == .replace)
    // A signed record of an unprotected branch (per-branch keys) is another branch's to replace.
    let feature = try sealed(branch: "feature/x", signer: mainSigner)
    #expect(teamRule.decide(existing: feature, replacement: main) == .replace)
  }

  @Test func aTrustedSignatureIsNotReplacedByAStrangersButAStrangersIsByATrustedOne() throws {
    let main = try sealed(branch: "main", signer: mainSigner)
    let stranger = try sealed(branch: "main", signer: strangerSigner)
    #expect(teamRule.decide(existing: main, replacement: stranger) != .replace)
    // A store writer's self-signed record at main's key never keeps main from writing its own.
    let planted = try sealed(branch: "elsewhere", signer: strangerSigner)
    #expect(teamRule.decide(existing: planted, replacement: main) == .replace)
  }

  @Test func theProtectedHistoryScopeKeepsItsSignedSlot() throws {
    func slot(scope: String, signer: Curve25519.Signing.PrivateKey?) throws -> Data {
      try RecordEnvelope.seal(
        HistoryRecord(namespace: "github.com/org/app", scope: scope, slot: 0, writer: "ci", time: now),
        signingKey: signer)
    }
    let signed = try slot(scope: "protected", signer: mainSigner)
    #expect(teamRule.decide(existing: signed, replacement: try slot(scope: "protected", signer: nil)) != .replace)
    #expect(
      teamRule.decide(existing: signed, replacement: try slot(scope: "protected", signer: mainSigner)) == .replace)
    #expect(teamRule.decide(existing: signed, replacement: try slot(scope: "branch:x", signer: mainSigner)) != .replace)
    let branch = try slot(scope: "branch:x", signer: nil)
    #expect(teamRule.decide(existing: branch, replacement: try slot(scope: "branch:x", signer: nil)) == .replace)
  }
}
