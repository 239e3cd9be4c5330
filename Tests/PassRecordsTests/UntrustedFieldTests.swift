import Foundation
import Testing

@testable import PassRecords

/// A record's fields are its writer's: a reason that quotes them quotes them safely (docs/DESIGN.md, "Untrusted
/// text").
@Suite struct UntrustedFieldTests {
  static let hostile = "\n::error title=x::owned\u{1B}[2J\u{202E}"
  static let key = KeyInputs([.init("target", ".:CoreTests", "CoreTests@1")]).key

  static func reason(_ verdict: TrustPolicy.Verdict) -> String {
    if case .ignored(let reason) = verdict { return reason }
    return "(trusted)"
  }

  static func expectQuoted(_ text: String) {
    #expect(!text.contains("\n") && !text.contains("::") && !text.contains("\u{1B}") && !text.contains("\u{202E}"))
  }

  @Test func theReasonsAPolicyGivesQuoteTheRecordsFields() throws {
    let policy = TrustPolicy(trustedKeys: [], branch: "feature", branchIsProtected: false, now: Date())
    let otherTarget = PassRecord(
      key: Self.key, package: "." + Self.hostile, target: "CoreTests", commit: "c", branch: "feature", run: "r",
      writer: "w", time: Date(), duration: 1, tests: [:])
    let first = Self.reason(
      policy.judge(try RecordEnvelope.seal(otherTarget, signingKey: nil), key: Self.key, unit: ".:CoreTests"))
    #expect(first.hasPrefix("a pass record for another target"), "\(first)")
    Self.expectQuoted(first)
    let otherBranch = PassRecord(
      key: Self.key, package: ".", target: "CoreTests", commit: "c", branch: "b" + Self.hostile, run: "r",
      writer: "w", time: Date(), duration: 1, tests: [:])
    let second = Self.reason(
      policy.judge(try RecordEnvelope.seal(otherBranch, signingKey: nil), key: Self.key, unit: ".:CoreTests"))
    #expect(second.hasPrefix("an unsigned pass record of another branch"), "\(second)")
    Self.expectQuoted(second)
  }
}
